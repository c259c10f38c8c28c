import CCurlShim
import Glibc

/// A failed libcurl transfer or setup step, classified for exit codes and described in lower case.
package struct CurlError: Error, CustomStringConvertible {
    /// The stage or cause of a failure, coarse enough to map onto exit statuses.
    package enum Kind: String, Sendable, CaseIterable {
        /// The connect, idle or total timeout expired.
        case timeout
        /// The URL was malformed (libcurl refused it before connecting).
        case badURL
        /// The response exceeded a `ResponseLimits` bound; `limitViolation` says which.
        case limitExceeded
        /// The host or proxy name did not resolve.
        case couldNotResolve
        /// The TCP connection to the host or proxy failed.
        case couldNotConnect
        /// Any TLS failure: handshake, certificate verification, pinning, client certificate.
        case tls
        /// SIGINT/SIGTERM arrived or the events object asked to abort.
        case interrupted
        /// The request body source threw; `underlyingError` holds its error.
        case bodyReadFailed
        /// A `TransferEvents` method threw; `underlyingError` holds its error.
        case responseHandlerFailed
        /// Writing the request to the connection failed.
        case sendFailed
        /// Reading the response failed, or it ended early or malformed.
        case receiveFailed
        /// Anything else (bad URL, unsupported protocol, out of memory, a rejected option).
        case other
    }

    /// What went wrong.
    package var kind: Kind
    /// libcurl's result code (`CURLcode`), or 0 for failures raised on the Swift side.
    package var code: Int
    /// A lower-case, human-readable description.
    package var description: String
    /// The Swift error behind `.bodyReadFailed` and `.responseHandlerFailed`.
    package var underlyingError: (any Error)?
    /// What exactly failed, for `.tls` errors (see `EasyHandle+TLS.swift`).
    package var tlsFailure: TLSFailure?
    /// Which limit was exceeded, for `.limitExceeded` errors.
    package var limitViolation: ResponseLimitViolation?
    /// libcurl's facts about a transfer that failed in libcurl (the phase times up to the
    /// failure, the address reached), for `--write-out`; nil for failures raised before or
    /// outside the transfer.
    package var metrics: TransferMetrics?

    package init(
        kind: Kind, code: Int = 0, description: String, underlyingError: (any Error)? = nil,
        tlsFailure: TLSFailure? = nil
    ) {
        self.kind = kind
        self.code = code
        self.description = description
        self.underlyingError = underlyingError
        self.tlsFailure = tlsFailure
    }

    // MARK: - Classification helpers

    /// Whether the server's chain held no pinned key or certificate.
    package var isPinMismatch: Bool { tlsFailure?.reason == .pinMismatch }

    // MARK: - Construction from libcurl

    /// Builds the error for a libcurl result code, preferring the handle's error buffer text.
    package init(code: CURLcode, errorBuffer: String) {
        let message = errorBuffer.isEmpty ? CurlError.strerror(code) : errorBuffer
        self.init(
            kind: CurlError.kind(for: code), code: Int(code.rawValue),
            description: CurlError.lowercasingErrnoTexts(CurlError.lowercasingFirstLetter(message)))
    }

    /// The C library's error texts (`Broken pipe`, `Connection reset by peer`), which libcurl
    /// quotes after a colon.
    private static let errnoTexts: Set<String> = Set((1..<134).map { String(cString: Glibc.strerror($0)) })

    /// Lower-cases the first letter of an errno text quoted after `: ` (`send failure: Broken
    /// pipe` becomes `send failure: broken pipe`), so every message reads in one casing.
    static func lowercasingErrnoTexts(_ message: String) -> String {
        let parts = message.split(separator: ": ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return message }
        return ([parts[0]] + parts.dropFirst().map { errnoTexts.contains($0) ? lowercasingFirstLetter($0) : $0 })
            .joined(separator: ": ")
    }

    /// libcurl's generic text for a result code.
    package static func strerror(_ code: CURLcode) -> String {
        guard let text = afcurl_easy_strerror(code) else { return "libcurl error \(code.rawValue)" }
        return String(cString: text)
    }

    /// Maps libcurl result codes onto the coarse kinds afcli reports.
    package static func kind(for code: CURLcode) -> Kind {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_URL_MALFORMAT:
            return .badURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .couldNotResolve
        case CURLE_COULDNT_CONNECT, CURLE_INTERFACE_FAILED:
            // A local interface or address that cannot be bound (--interface) is a failure to connect.
            return .couldNotConnect
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            return .tls
        case CURLE_ABORTED_BY_CALLBACK:
            return .interrupted
        case CURLE_READ_ERROR:
            return .bodyReadFailed
        case CURLE_WRITE_ERROR:
            return .responseHandlerFailed
        case CURLE_SEND_ERROR, CURLE_SEND_FAIL_REWIND:
            return .sendFailed
        case CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM,
            CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP3, CURLE_QUIC_CONNECT_ERROR:
            return .receiveFailed
        default:
            return .other
        }
    }

    // MARK: - Errors raised on the Swift side

    /// The transfer was stopped by a signal or by `TransferEvents.shouldAbort`.
    package static func interrupted(signal: Int32) -> CurlError {
        let name: String
        switch signal {
        case 2: name = " by SIGINT"
        case 15: name = " by SIGTERM"
        default: name = ""
        }
        return CurlError(
            kind: .interrupted, code: Int(CURLE_ABORTED_BY_CALLBACK.rawValue), description: "interrupted\(name)")
    }

    /// HTTP/3 was asked of a libcurl built without it; names the libcurl version.
    package static var http3Unsupported: CurlError {
        CurlError(
            kind: .other, code: Int(CURLE_UNSUPPORTED_PROTOCOL.rawValue),
            description: "HTTP/3 is not supported by libcurl \(CurlRuntime.version), which was built without it")
    }

    /// A time limit that spans several transfers (redirect hops) ran out between them.
    package static func timedOut(afterSeconds seconds: Double) -> CurlError {
        CurlError(
            kind: .timeout, code: Int(CURLE_OPERATION_TIMEDOUT.rawValue),
            description: "operation timed out after \(Int(seconds * 1000)) milliseconds")
    }

    /// No byte was received or sent for `seconds` (the idle timeout).
    package static func idle(seconds: Double) -> CurlError {
        let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        return CurlError(
            kind: .timeout, code: Int(CURLE_OPERATION_TIMEDOUT.rawValue),
            description: "timed out: no data received or sent for \(shown) second\(seconds == 1 ? "" : "s")")
    }

    /// The response went beyond one of its limits.
    package static func limitExceeded(_ violation: ResponseLimitViolation) -> CurlError {
        var error = CurlError(
            kind: .limitExceeded, code: Int(CURLE_FILESIZE_EXCEEDED.rawValue), description: violation.description)
        error.limitViolation = violation
        return error
    }

    /// The body source threw while libcurl was pulling the body.
    package static func bodyReadFailed(_ error: any Error) -> CurlError {
        CurlError(
            kind: .bodyReadFailed, code: Int(CURLE_READ_ERROR.rawValue),
            description: "reading the request body failed: \(error)", underlyingError: error)
    }

    /// A `TransferEvents` method threw while a response was arriving.
    package static func responseHandlerFailed(_ error: any Error) -> CurlError {
        CurlError(
            kind: .responseHandlerFailed, code: Int(CURLE_WRITE_ERROR.rawValue), description: "\(error)",
            underlyingError: error)
    }

    /// A setup call that libcurl rejected (a bad option value, an unsupported feature).
    package static func setup(_ what: String, code: CURLcode) -> CurlError {
        CurlError(
            kind: .other, code: Int(code.rawValue),
            description: "\(what): \(lowercasingFirstLetter(strerror(code)))")
    }

    /// Lower-cases the first letter so curl's sentences read as afcli's own messages, except at
    /// the start of an acronym (`SSL certificate problem` stays as it is).
    static func lowercasingFirstLetter(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars.prefix(2))
        func isUpper(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x41 && scalar.value <= 0x5A }
        guard let first = scalars.first, isUpper(first) else { return text }
        if scalars.count > 1 && isUpper(scalars[1]) { return text }
        return String(Character(Unicode.Scalar(first.value + 0x20) ?? first)) + text.dropFirst()
    }
}
