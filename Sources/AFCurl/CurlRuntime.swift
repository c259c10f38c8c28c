import CCurlShim

/// Process-wide facts about the libcurl runtime: its version and the encodings it decodes.
package enum CurlRuntime {
    /// The libcurl version string, e.g. `7.88.1`.
    package static var version: String {
        String(cString: afcurl_version())
    }

    /// The Accept-Encoding value this libcurl can decode, e.g. `gzip, deflate, br, zstd`.
    package static var supportedEncodings: String {
        String(cString: afcurl_supported_encodings())
    }
}

/// The process's SIGINT/SIGTERM flag, kept in C (Swift 6 has no mutable globals) and polled by
/// every transfer so an interrupt stops it within a progress tick.
package enum Interruption {
    /// Installs the SIGINT/SIGTERM handlers (no SA_RESTART); call once at start-up.
    package static func install() {
        afcurl_install_interrupt_handlers()
    }

    /// Whether SIGINT or SIGTERM has arrived since start-up (or the last `clear`).
    package static var isInterrupted: Bool {
        afcurl_interrupted() != 0
    }

    /// The signal that interrupted the process, or nil.
    package static var signal: Int32? {
        let signal = afcurl_interrupt_signal()
        return signal == 0 ? nil : signal
    }

    /// Forgets an interrupt that has been handled.
    package static func clear() {
        afcurl_clear_interrupt()
    }
}

/// The parts of an absolute URL as libcurl's own parser sees them, so redirect decisions agree
/// with what libcurl will connect to.
package struct CurlURL: Equatable, Sendable {
    /// The scheme in lower case (`http`, `https`).
    package var scheme: String
    /// The host name in lower case, or the address (IPv6 keeps its brackets).
    package var host: String
    /// The port, the scheme's default when the URL has none.
    package var port: Int

    package init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Parses an absolute URL; nil when libcurl rejects it.
    package init?(_ url: String) {
        guard let parsed = afcurl_url() else { return nil }
        defer { afcurl_url_cleanup(parsed) }
        guard afcurl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK,
            let scheme = CurlURL.part(parsed, CURLUPART_SCHEME, flags: 0),
            let host = CurlURL.part(parsed, CURLUPART_HOST, flags: 0),
            let port = CurlURL.part(parsed, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)).flatMap({ Int($0) })
        else { return nil }
        self.init(scheme: ASCIICase.lowercased(scheme), host: ASCIICase.lowercased(host), port: port)
    }

    /// Resolves `reference` against `base` the way libcurl resolves a Location header;
    /// `allowingAnyScheme` also accepts schemes libcurl does not know (`javascript:`).
    package static func resolve(_ reference: String, against base: String, allowingAnyScheme: Bool = false) -> String? {
        guard let parsed = afcurl_url() else { return nil }
        defer { afcurl_url_cleanup(parsed) }
        let flags = allowingAnyScheme ? UInt32(CURLU_NON_SUPPORT_SCHEME) : 0
        guard afcurl_url_set(parsed, CURLUPART_URL, base, 0) == CURLUE_OK,
            afcurl_url_set(parsed, CURLUPART_URL, reference, flags) == CURLUE_OK
        else { return nil }
        return part(parsed, CURLUPART_URL, flags: 0)
    }

    /// One part of a parsed URL, copied out of libcurl's allocation.
    private static func part(_ url: OpaquePointer, _ which: CURLUPart, flags: UInt32) -> String? {
        var text: UnsafeMutablePointer<CChar>?
        guard afcurl_url_get(url, which, &text, flags) == CURLUE_OK, let text else { return nil }
        defer { afcurl_curl_free(text) }
        return String(cString: text)
    }
}

/// IDNA conversion of host names (RFC 5891, UTS #46), with the libidn2 libcurl links.
package enum IDNA {
    /// `host` with every Unicode label turned into its A-label (`bücher.example` →
    /// `xn--bcher-kva.example`); an ASCII host is returned unchanged. Throws the reason (lower
    /// case) when the name is not a valid internationalized domain name.
    package static func asciiHost(_ host: String) throws(IDNAError) -> String {
        guard !host.utf8.allSatisfy({ $0 < 0x80 }) else { return host }
        var output: UnsafeMutablePointer<CChar>?
        let code = afcurl_idna_to_ascii(host, &output)
        guard code == 0, let output else {
            let reason = afcurl_idna_strerror(code).map { String(cString: $0) } ?? "error \(code)"
            throw IDNAError(reason: CurlError.lowercasingFirstLetter(reason))
        }
        defer { afcurl_idna_free(output) }
        return String(cString: output)
    }
}

/// A host name that IDNA cannot convert; `reason` is libidn2's explanation in lower case.
package struct IDNAError: Error, Sendable {
    package var reason: String

    package init(reason: String) {
        self.reason = reason
    }
}
