import CCurlShim
import XCTest

@testable import AFCurl

/// libcurl's TLS result codes and OpenSSL's verification results become named reasons that
/// name the host (X509_V_ERR_* values from OpenSSL's x509_vfy.h, written out here).
final class SecurityTLSFailureTests: XCTestCase {
    private func classify(
        _ code: CURLcode, message: String = "", verify: Int = 0, mismatched: Bool = false,
        certificatePinning: Bool = false
    ) -> TLSFailure {
        TLSFailureClassifier.classify(
            code: code, message: message, verifyResult: verify, mismatched: mismatched,
            certificatePinning: certificatePinning, host: "api.test")
    }

    func testCertificateProblems() {
        XCTAssertEqual(classify(CURLE_PEER_FAILED_VERIFICATION, verify: 10).reason, .expiredCertificate)
        XCTAssertEqual(classify(CURLE_PEER_FAILED_VERIFICATION, verify: 9).reason, .notYetValidCertificate)
        XCTAssertEqual(classify(CURLE_PEER_FAILED_VERIFICATION, verify: 18).reason, .untrustedCertificate)
        XCTAssertEqual(classify(CURLE_PEER_FAILED_VERIFICATION, verify: 20).reason, .untrustedCertificate)
        XCTAssertEqual(classify(CURLE_PEER_FAILED_VERIFICATION, verify: 23).reason, .revokedCertificate)
        XCTAssertEqual(
            classify(CURLE_PEER_FAILED_VERIFICATION, verify: 20).message,
            "the certificate of api.test is not trusted (unable to get local issuer certificate)")
        XCTAssertEqual(
            classify(CURLE_PEER_FAILED_VERIFICATION, verify: 10).message, "the certificate of api.test has expired")
    }

    func testHostNameMismatchIsLibcurlsOwnCheck() {
        let failure = classify(
            CURLE_PEER_FAILED_VERIFICATION,
            message: "SSL: no alternative certificate subject name matches target host name 'api.test'", verify: 1)

        XCTAssertEqual(failure.reason, .hostMismatch)
        XCTAssertEqual(failure.message, "the certificate of api.test is for another host name")
    }

    func testPinMismatchesUseAFsRejectionText() {
        let expected =
            "pin mismatch: The certificate for this server is invalid. You might be connecting to a "
            + "server that is pretending to be \u{201C}api.test\u{201D} which could put your confidential "
            + "information at risk."
        XCTAssertEqual(classify(CURLE_SSL_PINNEDPUBKEYNOTMATCH).message, expected)
        XCTAssertEqual(classify(CURLE_PEER_FAILED_VERIFICATION, verify: 50, mismatched: true).reason, .pinMismatch)
        // With certificate pins the pinned certificates are the only anchors.
        XCTAssertEqual(
            classify(CURLE_PEER_FAILED_VERIFICATION, verify: 20, certificatePinning: true).reason, .pinMismatch)
    }

    func testHandshakeAndFileFailures() {
        let handshake = classify(
            CURLE_SSL_CONNECT_ERROR, message: "error:0A00042E:SSL routines::tlsv1 alert protocol version")
        XCTAssertEqual(handshake.reason, .handshakeFailed)
        XCTAssertEqual(handshake.message, "the TLS handshake with api.test failed (tlsv1 alert protocol version)")
        XCTAssertEqual(classify(CURLE_SSL_CERTPROBLEM, message: "could not load").reason, .clientCertificate)
        XCTAssertEqual(classify(CURLE_SSL_CACERT_BADFILE, message: "bad").reason, .unreadableTrustStore)
    }

    func testRedirectToPlainHTTPWhilePinningIsRefused() throws {
        var tls = TLSOptions()
        tls.pinnedKeyDigests = [[UInt8](repeating: 1, count: 32)]
        let handle = try XCTUnwrap(afcurl_easy_init())
        defer { afcurl_easy_cleanup(handle) }

        XCTAssertThrowsError(
            try TLSConfigurator.apply(tls, url: "http://api.test/", to: handle, recordsChain: false)
        ) { error in
            XCTAssertEqual((error as? CurlError)?.tlsFailure?.reason, .pinningNeedsHTTPS)
        }
    }
}
