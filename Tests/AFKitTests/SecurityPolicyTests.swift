import AFCurl
import CCurlShim
import Foundation
import XCTest

@testable import AFKit

/// AFSecurityPolicy's combinations, checked as AF checks them, and their libcurl settings.
final class SecurityPolicyTests: XCTestCase {
    /// `sha256//` + base64 of 32 bytes 0x00…0x1F, computed by hand for the test.
    private let pinText = "sha256//AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    private let pinBytes = Array(UInt8(0)...UInt8(31))

    func testDefaultPolicyVerifiesChainAndHost() throws {
        let policy = SecurityPolicy()

        try policy.validate(forURL: "https://example.com/")
        let tls = policy.tlsOptions

        XCTAssertEqual(policy.pinningMode, .none)
        XCTAssertTrue(tls.verifyPeer)
        XCTAssertTrue(tls.verifyHost)
        XCTAssertNil(tls.caFile)
        XCTAssertFalse(tls.isPinning)
    }

    func testAllowingInvalidCertificatesWhileValidatingTheDomainNeedsPins() throws {
        let policy = SecurityPolicy(allowInvalidCertificates: true, validatesDomainName: true)

        XCTAssertThrowsError(try policy.validate(forURL: "https://example.com/")) { error in
            XCTAssertEqual(error as? SecurityPolicyError, .domainValidationNeedsPinning)
        }
        var pinned = policy
        pinned.pinnedPublicKeys = [try PinnedPublicKey(parsing: pinText)]
        XCTAssertNoThrow(try pinned.validate(forURL: "https://example.com/"))
    }

    func testInsecureAloneSkipsChainAndHost() throws {
        let policy = SecurityPolicy(allowInvalidCertificates: true, validatesDomainName: false)

        try policy.validate(forURL: "https://example.com/")

        XCTAssertFalse(policy.tlsOptions.verifyPeer)
        XCTAssertFalse(policy.tlsOptions.verifyHost)
    }

    func testPinningOverPlainHTTPIsRefused() throws {
        let policy = SecurityPolicy(pinnedPublicKeys: [try PinnedPublicKey(parsing: pinText)])

        XCTAssertThrowsError(try policy.validate(forURL: "http://example.com/")) { error in
            XCTAssertEqual(error as? SecurityPolicyError, .pinningOverPlainHTTP(url: "http://example.com/"))
        }
    }

    func testPublicKeyModeMapsToChainPinsAndLibcurlSyntax() throws {
        let second = try PinnedPublicKey(parsing: "sha256//" + String(repeating: "A", count: 43) + "=")
        let policy = SecurityPolicy(pinnedPublicKeys: [try PinnedPublicKey(parsing: pinText), second])

        let tls = policy.tlsOptions

        XCTAssertEqual(policy.pinningMode, .publicKey)
        XCTAssertEqual(tls.pinnedKeyDigests, [pinBytes, [UInt8](repeating: 0, count: 32)])
        XCTAssertEqual(tls.pinnedPublicKey, pinText + ";sha256//" + String(repeating: "A", count: 43) + "=")
        XCTAssertTrue(tls.verifyPeer)
    }

    func testCertificateModeKeepsVerificationOnEvenWhenInvalidCertificatesAreAllowed() throws {
        let certificate = PinnedCertificate(
            path: "pinned.pem",
            certificates: [
                PeerCertificate(subject: "CN=a", issuer: "CN=a", keySHA256: pinBytes, certificateSHA256: pinBytes)
            ], pem: "-----BEGIN CERTIFICATE-----\n")
        let policy = SecurityPolicy(
            allowInvalidCertificates: true, validatesDomainName: false, pinnedCertificates: [certificate])

        try policy.validate(forURL: "https://example.com/")
        let tls = policy.tlsOptions

        XCTAssertEqual(policy.pinningMode, .certificate)
        XCTAssertTrue(tls.verifyPeer, "AF evaluates the chain against the pinned anchors")
        XCTAssertFalse(tls.verifyHost)
        XCTAssertEqual(tls.pinnedCertificateDigests, [pinBytes])
        XCTAssertEqual(tls.trustedCertificatesPEM, "-----BEGIN CERTIFICATE-----\n")
    }

    func testRefusedCombinations() throws {
        let key = try PinnedPublicKey(parsing: pinText)
        let certificate = PinnedCertificate(path: "c.pem", certificates: [], pem: "")
        let cases: [(SecurityPolicy, SecurityPolicyError)] = [
            (SecurityPolicy(pinnedPublicKeys: [key], pinnedCertificates: [certificate]), .mixedPinningModes),
            (
                SecurityPolicy(pinnedCertificates: [certificate], trustStore: .bundle(path: "ca.pem")),
                .pinnedCertificatesWithTrustStore
            ),
            (SecurityPolicy(clientKey: "key.pem"), .clientKeyWithoutCertificate),
        ]
        for (policy, expected) in cases {
            XCTAssertThrowsError(try policy.validate(forURL: "https://example.com/")) { error in
                XCTAssertEqual(error as? SecurityPolicyError, expected)
            }
        }
    }

    func testTrustStoreFromPath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("afcli-trust-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("ca.pem")
        try Data("x".utf8).write(to: file)

        XCTAssertEqual(try TrustStore.at(path: directory.path), .directory(path: directory.path))
        XCTAssertEqual(try TrustStore.at(path: file.path), .bundle(path: file.path))
        XCTAssertThrowsError(try TrustStore.at(path: directory.path + "/missing"))
        XCTAssertEqual(SecurityPolicy(trustStore: .directory(path: "/d")).tlsOptions.caPath, "/d")
        XCTAssertEqual(SecurityPolicy(trustStore: .bundle(path: "/f")).tlsOptions.caFile, "/f")
    }

    func testMinimumVersionAndClientCertificate() {
        let policy = SecurityPolicy(clientCertificate: "c.pem", clientKey: "k.pem", minimumTLSVersion: .tls13)

        XCTAssertEqual(policy.tlsOptions.minimumVersion, .tls13)
        XCTAssertEqual(policy.tlsOptions.clientCertificate, "c.pem")
        XCTAssertEqual(policy.tlsOptions.clientKey, "k.pem")
    }

    // MARK: - Pins

    func testPublicKeyPinParsing() throws {
        let pin = try PinnedPublicKey(parsing: pinText)

        XCTAssertEqual(pin.digest, pinBytes)
        XCTAssertEqual(pin.description, pinText)
        XCTAssertEqual(try PinnedPublicKey.parseList(pinText + ";" + pinText).count, 2)
        // Padding may be left out, as some tools print it.
        XCTAssertEqual(try PinnedPublicKey(parsing: String(pinText.dropLast())).digest, pinBytes)
    }

    func testMalformedPinsAreRefused() {
        let bad = [
            "", "sha256//", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", "sha1//AAECAwQFBgcICQoLDA0ODxAREhMU",
            "sha256//AAEC", "sha256//!!ECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", pinText + ";",
            "sha256//AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8f",
        ]
        for text in bad {
            XCTAssertThrowsError(try PinnedPublicKey.parseList(text), text)
        }
    }

    func testBase64DecodingVectors() {
        // RFC 4648 §10.
        let vectors = [
            "": "", "Zg==": "f", "Zm8=": "fo", "Zm9v": "foo", "Zm9vYg==": "foob", "Zm9vYmE=": "fooba",
            "Zm9vYmFy": "foobar",
        ]
        for (encoded, decoded) in vectors {
            XCTAssertEqual(Base64.decode(encoded), Array(decoded.utf8), encoded)
        }
        XCTAssertNil(Base64.decode("Zm9vY"))
        XCTAssertNil(Base64.decode("Zh=="), "non-zero leftover bits")
        XCTAssertNil(Base64.decode("Zg==="))
    }

    // MARK: - Certificate files

    func testCertificateFilesArePEMOrDER() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("afcli-certs-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pem = directory.appendingPathComponent("c.pem").path
        let der = directory.appendingPathComponent("c.cer").path
        let key = directory.appendingPathComponent("k.pem").path
        try openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", pem, "-days", "2",
            "-subj", "/CN=pinned.test",
        ])
        try openssl(["x509", "-in", pem, "-outform", "DER", "-out", der])

        let fromPEM = try PinnedCertificate.load(path: pem)
        let fromDER = try PinnedCertificate.load(path: der)

        XCTAssertEqual(fromPEM.certificates.count, 1)
        XCTAssertEqual(fromPEM.certificates[0].subject, "CN=pinned.test")
        XCTAssertEqual(fromPEM.certificates, fromDER.certificates)
        XCTAssertTrue(fromDER.pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
        XCTAssertThrowsError(try PinnedCertificate.load(path: key)) { error in
            XCTAssertEqual(error as? SecurityPolicyError, .notACertificate(path: key))
        }
        XCTAssertThrowsError(try PinnedCertificate.load(path: directory.path + "/missing.pem"))
    }

    /// Runs the openssl CLI, which makes the test certificates.
    private func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, arguments.joined(separator: " "))
    }
}
