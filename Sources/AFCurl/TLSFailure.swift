import CCurlShim

/// Why a TLS connection failed, in terms a user can act on, with the host it concerned.
///
/// libcurl reports most certificate problems as one code (60) with OpenSSL's text; afcli names
/// the problem (unknown CA, expired, wrong host, pin mismatch, handshake) and the host instead.
package struct TLSFailure: Equatable, Sendable {
    /// The kinds of TLS failure afcli tells apart.
    package enum Reason: String, Sendable, CaseIterable {
        /// The chain does not lead to a trusted certificate (unknown CA, self-signed).
        case untrustedCertificate
        /// A certificate of the chain has expired.
        case expiredCertificate
        /// A certificate of the chain is not valid yet.
        case notYetValidCertificate
        /// The certificate does not name the host that was asked for.
        case hostMismatch
        /// A certificate of the chain has been revoked.
        case revokedCertificate
        /// No certificate of the chain carries a pinned key or is a pinned certificate.
        case pinMismatch
        /// Pins were set for a plain-http URL (a redirect to one, since the CLI refuses it).
        case pinningNeedsHTTPS
        /// The handshake itself failed: protocol version, cipher, alert from the server.
        case handshakeFailed
        /// The client certificate or key could not be loaded or was refused.
        case clientCertificate
        /// The CA bundle or directory could not be read.
        case unreadableTrustStore
        /// Any other TLS failure.
        case other
    }

    /// What failed.
    package var reason: Reason
    /// The host name (or address) of the URL the connection was for.
    package var host: String
    /// OpenSSL's or libcurl's own words for the problem, lower case, possibly empty.
    package var detail: String

    package init(reason: Reason, host: String, detail: String = "") {
        self.reason = reason
        self.host = host
        self.detail = detail
    }

    /// AFSecurityPolicy's rejection text (spec/AFNETWORKING.md §6), naming the host.
    package static func rejectionText(host: String) -> String {
        "The certificate for this server is invalid. You might be connecting to a server that is pretending to be "
            + "\u{201C}\(host)\u{201D} which could put your confidential information at risk."
    }

    /// One line naming the host and the reason, without the `afcli: error:` prefix.
    package var message: String {
        let suffix = detail.isEmpty ? "" : " (\(detail))"
        switch reason {
        case .untrustedCertificate:
            return "the certificate of \(host) is not trusted\(suffix)"
        case .expiredCertificate:
            return "the certificate of \(host) has expired"
        case .notYetValidCertificate:
            return "the certificate of \(host) is not valid yet"
        case .hostMismatch:
            return "the certificate of \(host) is for another host name"
        case .revokedCertificate:
            return "the certificate of \(host) has been revoked"
        case .pinMismatch:
            return "pin mismatch: " + TLSFailure.rejectionText(host: host)
        case .pinningNeedsHTTPS:
            return "pinning needs https, refusing to connect to \(host) over plain http"
        case .handshakeFailed:
            return "the TLS handshake with \(host) failed\(suffix)"
        case .clientCertificate:
            return "the client certificate for \(host) could not be used\(suffix)"
        case .unreadableTrustStore:
            return "the CA certificates to verify \(host) could not be read\(suffix)"
        case .other:
            return "TLS failure with \(host)\(suffix)"
        }
    }
}

/// Turns a failed libcurl result into a `CurlError` with a `TLSFailure` when it is a TLS one.
enum TLSFailureClassifier {
    /// The error for a failed transfer on `handle`; TLS codes get a `TLSFailure` and its message.
    static func error(
        code: CURLcode, message: String, handle: UnsafeMutableRawPointer, hook: TrustHook?, tls: TLSOptions,
        url: String
    ) -> CurlError {
        var error = CurlError(code: code, errorBuffer: message)
        if let hook, hook.mismatched {
            // The hook failed the handshake; libcurl only saw a verification error.
            error.kind = .tls
        }
        guard error.kind == .tls else { return error }
        let host = CurlURL(url)?.host ?? url
        let failure = classify(
            code: code, message: message, verifyResult: verifyResult(handle: handle, hook: hook),
            mismatched: hook?.mismatched ?? false, certificatePinning: !tls.pinnedCertificateDigests.isEmpty,
            host: host)
        error.tlsFailure = failure
        error.description = failure.message
        return error
    }

    /// OpenSSL's verification result for the last handshake: the hook's when it ran, else libcurl's.
    private static func verifyResult(handle: UnsafeMutableRawPointer, hook: TrustHook?) -> Int {
        if let hook, hook.ran { return hook.verifyError }
        var result = 0
        _ = afcurl_getinfo_long(handle, CURLINFO_SSL_VERIFYRESULT, &result)
        return result
    }

    /// Chooses the reason from libcurl's code, OpenSSL's verification result and the hook's verdict.
    static func classify(
        code: CURLcode, message: String, verifyResult: Int, mismatched: Bool, certificatePinning: Bool, host: String
    ) -> TLSFailure {
        if mismatched || code == CURLE_SSL_PINNEDPUBKEYNOTMATCH {
            return TLSFailure(reason: .pinMismatch, host: host)
        }
        switch code {
        case CURLE_SSL_CERTPROBLEM, CURLE_SSL_CLIENTCERT:
            return TLSFailure(reason: .clientCertificate, host: host, detail: cleaned(message))
        case CURLE_SSL_CACERT_BADFILE:
            return TLSFailure(reason: .unreadableTrustStore, host: host, detail: cleaned(message))
        default:
            break
        }
        // libcurl checks the host name itself after OpenSSL verified the chain, and says so.
        if code == CURLE_PEER_FAILED_VERIFICATION && message.contains("target host name") {
            return TLSFailure(reason: .hostMismatch, host: host)
        }
        // libcurl presets the result to 1 (X509_V_ERR_UNSPECIFIED) until verification has run.
        let result = verifyResult == 1 ? 0 : verifyResult
        let detail = result == 0 ? "" : String(cString: afcurl_x509_error_string(result))
        switch afcurl_x509_error_problem(result) {
        case AFCURL_CERT_UNTRUSTED:
            // With certificate pinning the pinned certificates are the only anchors: an unknown
            // issuer means no pinned certificate is in the chain, which AF rejects as such.
            if certificatePinning { return TLSFailure(reason: .pinMismatch, host: host) }
            return TLSFailure(reason: .untrustedCertificate, host: host, detail: detail)
        case AFCURL_CERT_EXPIRED:
            return TLSFailure(reason: .expiredCertificate, host: host)
        case AFCURL_CERT_NOT_YET_VALID:
            return TLSFailure(reason: .notYetValidCertificate, host: host)
        case AFCURL_CERT_HOST_MISMATCH:
            return TLSFailure(reason: .hostMismatch, host: host)
        case AFCURL_CERT_REVOKED:
            return TLSFailure(reason: .revokedCertificate, host: host)
        case AFCURL_CERT_REJECTED:
            return TLSFailure(reason: .pinMismatch, host: host)
        case AFCURL_CERT_OTHER:
            return TLSFailure(reason: .other, host: host, detail: detail)
        default:
            break
        }
        if code == CURLE_PEER_FAILED_VERIFICATION {
            // The chain verified, so libcurl's own host-name check is what failed.
            return TLSFailure(reason: .hostMismatch, host: host)
        }
        if code == CURLE_SSL_CONNECT_ERROR {
            return TLSFailure(reason: .handshakeFailed, host: host, detail: cleaned(message))
        }
        return TLSFailure(reason: .other, host: host, detail: cleaned(message))
    }

    /// libcurl's text without OpenSSL's code prefix: `error:0A00042E:SSL routines::tlsv1 alert
    /// protocol version` becomes `tlsv1 alert protocol version`.
    static func cleaned(_ message: String) -> String {
        var text = Substring(message)
        if let range = text.firstRange(of: "routines::") {
            text = text[range.upperBound...]
        } else if let range = text.firstRange(of: "SSL routines:") {
            text = text[range.upperBound...]
        }
        let trimmed = text.drop(while: { $0 == " " || $0 == ":" })
        return CurlError.lowercasingFirstLetter(String(trimmed))
    }
}
