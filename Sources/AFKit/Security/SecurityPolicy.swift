import AFCurl
import Glibc

/// AFSecurityPolicy's pinning modes.
package enum SSLPinningMode: String, Equatable, Sendable, CaseIterable {
    /// Trust the chain as the trust store judges it (AFSSLPinningModeNone).
    case none
    /// Accept only when a certificate of the chain carries a pinned public key
    /// (AFSSLPinningModePublicKey).
    case publicKey
    /// Trust only the pinned certificates (AFSSLPinningModeCertificate).
    case certificate
}

/// Where trusted certificate authorities come from when nothing is pinned.
package enum TrustStore: Equatable, Sendable {
    /// The system's CA bundle, as libcurl was built to find it.
    case system
    /// A PEM bundle file that replaces the system's.
    case bundle(path: String)
    /// A directory of hashed CA certificates (`c_rehash`) that replaces the system's.
    case directory(path: String)

    /// The store for a path the user gave: a directory, else a file; throws when neither exists.
    package static func at(path: String) throws(SecurityPolicyError) -> TrustStore {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .missingTrustStore(path: path) }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory(path: path) : .bundle(path: path)
    }
}

/// How the server's certificate is judged: AFSecurityPolicy's settings, checked as AF checks
/// them and mapped onto libcurl's TLS options.
///
/// | AF | afcli |
/// | --- | --- |
/// | default policy | verify the chain against the trust store and the host name |
/// | `allowInvalidCertificates` | `verifyPeer` off (unless certificates are pinned) |
/// | `validatesDomainName = NO` | `verifyHost` off |
/// | PublicKey mode | chain-wide SPKI SHA-256 pins, checked during the handshake |
/// | Certificate mode | the pinned certificates are the only anchors, and one must be in the chain |
package struct SecurityPolicy: Equatable, Sendable {
    /// Accept a chain that does not verify (AF `allowInvalidCertificates`).
    package var allowInvalidCertificates: Bool
    /// Check that the certificate names the host (AF `validatesDomainName`).
    package var validatesDomainName: Bool
    /// Pinned public keys (AF `pinnedPublicKeys`, PublicKey mode).
    package var pinnedPublicKeys: [PinnedPublicKey]
    /// Pinned certificates (AF `pinnedCertificates`, Certificate mode).
    package var pinnedCertificates: [PinnedCertificate]
    /// The CAs trusted when no certificate is pinned.
    package var trustStore: TrustStore
    /// A client certificate file (PEM) for mutual TLS, and its key when it is a separate file.
    package var clientCertificate: String?
    package var clientKey: String?
    /// The oldest TLS version accepted; nil for libcurl's default.
    package var minimumTLSVersion: TLSVersion?

    /// AF's `defaultPolicy`: verify the chain and the host name, pin nothing.
    package init(
        allowInvalidCertificates: Bool = false, validatesDomainName: Bool = true,
        pinnedPublicKeys: [PinnedPublicKey] = [], pinnedCertificates: [PinnedCertificate] = [],
        trustStore: TrustStore = .system, clientCertificate: String? = nil, clientKey: String? = nil,
        minimumTLSVersion: TLSVersion? = nil
    ) {
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
        self.pinnedPublicKeys = pinnedPublicKeys
        self.pinnedCertificates = pinnedCertificates
        self.trustStore = trustStore
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
        self.minimumTLSVersion = minimumTLSVersion
    }

    /// The pinning mode the pins imply; `validate` refuses pins of both kinds.
    package var pinningMode: SSLPinningMode {
        if !pinnedCertificates.isEmpty { return .certificate }
        if !pinnedPublicKeys.isEmpty { return .publicKey }
        return .none
    }

    /// Refuses what AF refuses, before anything is sent, for a request to `url`.
    ///
    /// AF's `evaluateServerTrust:forDomain:` rejects every server when invalid certificates are
    /// allowed while the domain name is validated without pins ("In order to validate a domain
    /// name for self signed certificates, you MUST use pinning"), and a pinning mode on a
    /// plain-http URL is a configuration error (spec/AFNETWORKING.md §6).
    package func validate(forURL url: String) throws(SecurityPolicyError) {
        if !pinnedPublicKeys.isEmpty && !pinnedCertificates.isEmpty { throw .mixedPinningModes }
        if pinningMode == .certificate && trustStore != .system { throw .pinnedCertificatesWithTrustStore }
        if allowInvalidCertificates && validatesDomainName && pinningMode == .none {
            throw .domainValidationNeedsPinning
        }
        if pinningMode != .none, CurlURL(url)?.scheme != "https" { throw .pinningOverPlainHTTP(url: url) }
        if clientKey != nil && clientCertificate == nil { throw .clientKeyWithoutCertificate }
    }

    /// The libcurl settings that enforce this policy.
    package var tlsOptions: TLSOptions {
        var tls = TLSOptions()
        // Certificate mode verifies against the pinned certificates even when invalid
        // certificates are allowed: AF then evaluates the chain with the pins as its only anchors.
        tls.verifyPeer = !allowInvalidCertificates || pinningMode == .certificate
        tls.verifyHost = validatesDomainName
        switch trustStore {
        case .system: break
        case .bundle(let path): tls.caFile = path
        case .directory(let path): tls.caPath = path
        }
        switch pinningMode {
        case .none:
            break
        case .publicKey:
            tls.pinnedKeyDigests = pinnedPublicKeys.map(\.digest)
            tls.pinnedPublicKey = pinnedPublicKeys.map(\.description).joined(separator: ";")
        case .certificate:
            let certificates = pinnedCertificates.flatMap(\.certificates)
            tls.pinnedCertificateDigests = certificates.map(\.certificateSHA256)
            tls.trustedCertificatesPEM = pinnedCertificates.map(\.pem).joined()
        }
        tls.clientCertificate = clientCertificate
        tls.clientKey = clientKey
        tls.minimumVersion = minimumTLSVersion
        return tls
    }
}

/// A security policy AFNetworking would refuse, or pins that cannot be used; found before
/// anything is sent (the CLI reports these as usage errors, exit status 2).
package enum SecurityPolicyError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    /// Invalid certificates are allowed while the domain name is validated, with no pins:
    /// `evaluateServerTrust:forDomain:` always returns NO for this combination.
    case domainValidationNeedsPinning
    /// Pins on a plain-http URL (AF: a pinning mode other than none needs https).
    case pinningOverPlainHTTP(url: String)
    /// Both public keys and certificates are pinned; AF has one pinning mode at a time.
    case mixedPinningModes
    /// Certificate pinning with a custom CA bundle or directory: the pinned certificates are
    /// already the only trust anchors.
    case pinnedCertificatesWithTrustStore
    /// A client key without the client certificate it belongs to.
    case clientKeyWithoutCertificate
    /// A public key pin that is not `sha256//` followed by the base64 of 32 bytes.
    case malformedPublicKeyPin(String)
    /// A pinned certificate file that could not be read; `reason` is the system's.
    case unreadableCertificateFile(path: String, reason: String)
    /// A pinned certificate file with no PEM or DER certificate in it.
    case notACertificate(path: String)
    /// A CA bundle or directory that does not exist.
    case missingTrustStore(path: String)

    /// Every refused policy is a mistake in the options; nothing is sent.
    package var failureClass: FailureClass { .badInput }

    package var description: String {
        switch self {
        case .domainValidationNeedsPinning:
            return "allowing invalid certificates while validating the domain name needs pinning: in order to "
                + "validate a domain name for self signed certificates, you MUST use pinning"
        case .pinningOverPlainHTTP(let url):
            return "pinning needs an https URL, not \(url)"
        case .mixedPinningModes:
            return "public keys and certificates cannot both be pinned (one pinning mode at a time)"
        case .pinnedCertificatesWithTrustStore:
            return "pinned certificates are the only trusted certificates; a CA bundle or directory cannot be added"
        case .clientKeyWithoutCertificate:
            return "a client key needs its client certificate"
        case .malformedPublicKeyPin(let text):
            return "\"\(text)\" is not a public key pin (expected sha256// and the base64 of a SHA-256 digest)"
        case .unreadableCertificateFile(let path, let reason):
            return "cannot read the certificate file \(path): \(reason)"
        case .notACertificate(let path):
            return "\(path) holds no PEM or DER certificate"
        case .missingTrustStore(let path):
            return "\(path) is neither a CA bundle file nor a directory"
        }
    }
}
