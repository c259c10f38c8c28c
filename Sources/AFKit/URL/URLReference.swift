import AFCurl

/// A URI reference split into its RFC 3986 components, absolute (`http://h/p`) or relative (`p?q`).
///
/// Parsing never fails (RFC 3986 Appendix B accepts every string); `validatedForRequest` then
/// checks what afcli can send. Components keep their percent-encoding as written.
package struct URLReference: Equatable, Sendable {
    /// The scheme without `:`, or nil for a relative reference.
    package var scheme: String?
    /// The user information before `@`, still percent-encoded; nil when there is no `@`.
    package var userInfo: String?
    /// The host (an IPv6 literal keeps its brackets); nil when there is no `//` authority.
    package var host: String?
    /// The port text after `:`; nil when there is no `:`.
    package var port: String?
    /// The path, possibly empty.
    package var path: String
    /// The query without `?`; nil when there is no `?`.
    package var query: String?
    /// The fragment without `#`; nil when there is no `#`.
    package var fragment: String?

    package init(
        scheme: String? = nil, userInfo: String? = nil, host: String? = nil, port: String? = nil,
        path: String = "", query: String? = nil, fragment: String? = nil
    ) {
        self.scheme = scheme
        self.userInfo = userInfo
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Whether the reference has an authority (`//…`), even an empty one.
    package var hasAuthority: Bool { host != nil }

    /// The `userinfo@host:port` text, or nil without an authority.
    package var authority: String? {
        guard let host else { return nil }
        var text = ""
        if let userInfo { text += userInfo + "@" }
        text += host
        if let port { text += ":" + port }
        return text
    }

    /// The reference recomposed as text (RFC 3986 §5.3). Assembled as bytes: every request
    /// composes its URL more than once.
    package var string: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            (scheme?.utf8.count ?? 0) + (userInfo?.utf8.count ?? 0) + (host?.utf8.count ?? 0)
                + (port?.utf8.count ?? 0) + path.utf8.count + (query?.utf8.count ?? 0)
                + (fragment?.utf8.count ?? 0) + 8)
        if let scheme {
            bytes.append(contentsOf: scheme.utf8)
            bytes.append(UInt8(ascii: ":"))
        }
        if let host {
            bytes.append(UInt8(ascii: "/"))
            bytes.append(UInt8(ascii: "/"))
            if let userInfo {
                bytes.append(contentsOf: userInfo.utf8)
                bytes.append(UInt8(ascii: "@"))
            }
            bytes.append(contentsOf: host.utf8)
            if let port {
                bytes.append(UInt8(ascii: ":"))
                bytes.append(contentsOf: port.utf8)
            }
        }
        bytes.append(contentsOf: path.utf8)
        if let query {
            bytes.append(UInt8(ascii: "?"))
            bytes.append(contentsOf: query.utf8)
        }
        if let fragment {
            bytes.append(UInt8(ascii: "#"))
            bytes.append(contentsOf: fragment.utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Splits `text` with the RFC 3986 Appendix B grammar, then the authority into its parts.
    ///
    /// Delimiters are found among UTF-8 bytes: every delimiter is ASCII and an ASCII byte is always
    /// a whole Unicode scalar, so a combining mark typed after `#` or `/` cannot hide it (as it
    /// would among Characters), and the parts are cut at scalar boundaries. Bytes rather than
    /// scalars: this runs for every URL of every request, several times.
    package init(parsing text: String) {
        self.init()
        var text = text
        text.withUTF8 { parse($0) }
    }

    /// The body of `init(parsing:)`, on the text's UTF-8 bytes.
    private mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) {
        func text(_ start: Int, _ end: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        var start = 0
        var end = bytes.count
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) {
            fragment = text(hash + 1, end)
            end = hash
        }
        if let question = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = text(question + 1, end)
            end = question
        }
        if let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")),
            URLReference.isScheme(UnsafeBufferPointer(rebasing: bytes[..<colon]))
        {
            scheme = text(0, colon)
            start = colon + 1
        }
        if end - start >= 2, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") {
            start += 2
            let authorityEnd = bytes[start..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            setAuthority(bytes, from: start, to: authorityEnd)
            start = authorityEnd
        }
        path = text(start, end)
    }

    /// Whether `text` is an RFC 3986 scheme: a letter, then letters, digits, `+`, `-` or `.`.
    package static func isScheme(_ text: Substring) -> Bool {
        var text = text
        return text.withUTF8 { isScheme($0) }
    }

    /// `isScheme` on UTF-8 bytes.
    static func isScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, isLetter(first) else { return false }
        return bytes.allSatisfy {
            isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    /// Splits the authority in `bytes[start..<end]` at its last `@` (as curl and browsers do) and
    /// the host from the port.
    private mutating func setAuthority(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        func text(_ start: Int, _ end: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        var hostStart = start
        if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) {
            userInfo = text(start, at)
            hostStart = at + 1
        }
        if hostStart < end, bytes[hostStart] == UInt8(ascii: "[") {
            // An unclosed `[` stays whole in the host so the error quotes it as typed.
            guard let close = bytes[hostStart..<end].firstIndex(of: UInt8(ascii: "]")) else {
                host = text(hostStart, end)
                return
            }
            host = text(hostStart, close + 1)
            // Anything after `]` other than `:port` is kept in the port so validation rejects it.
            if close + 1 < end {
                port = bytes[close + 1] == UInt8(ascii: ":") ? text(close + 2, end) : text(close + 1, end)
            }
        } else if let colon = bytes[hostStart..<end].lastIndex(of: UInt8(ascii: ":")) {
            host = text(hostStart, colon)
            port = text(colon + 1, end)
        } else {
            host = text(hostStart, end)
        }
    }

    /// Whether `byte` is an ASCII letter.
    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}

extension URLReference {
    /// Parses, validates and normalizes a URL afcli will send; `original` names it in errors.
    package static func parseRequestURL(_ text: String) throws(SerializationError) -> URLReference {
        try URLReference(parsing: text).validatedForRequest(original: text)
    }

    /// This reference checked for sending: scheme `http` or `https` (lower-cased), a non-empty
    /// host without forbidden characters, a port from 1 to 65535 (an empty port is dropped), and
    /// the user information, path, query and fragment percent-encoded where they must be.
    package func validatedForRequest(original: String) throws(SerializationError) -> URLReference {
        func invalid(_ reason: String) -> SerializationError { .invalidURL(original, reason: reason) }
        guard let scheme else { throw invalid("it has no scheme") }
        // A scheme is ASCII (`isScheme`): ASCII case folding is all it needs.
        let lowerScheme = ASCIICase.lowercased(scheme)
        guard lowerScheme == "http" || lowerScheme == "https" else {
            throw invalid("the scheme must be http or https, not \(scheme)")
        }
        guard let host, !host.isEmpty else { throw invalid("the host is empty") }
        guard URLReference.isValidHost(host) else { throw invalid("the host \(host) is not valid") }
        var result = self
        result.scheme = lowerScheme
        if !host.hasPrefix("[") {
            // What is printed and what libcurl sends must agree: both get the A-label.
            do {
                result.host = try IDNA.asciiHost(host)
            } catch {
                throw invalid("the host \(host) is not a valid internationalized domain name: \(error.reason)")
            }
        }
        if let port {
            if port.isEmpty {
                result.port = nil
            } else {
                guard URLReference.isValidPort(port) else {
                    throw invalid("the port must be a number from 1 to 65535, not \(port)")
                }
            }
        }
        return result.percentEncoded()
    }

    /// This reference with the user information, path, query and fragment percent-encoded where
    /// they hold characters a URL cannot (host and port untouched).
    package func percentEncoded() -> URLReference {
        var result = self
        result.userInfo = userInfo.map(URLPercentEncoding.encodeInvalidCharacters)
        result.path = URLPercentEncoding.encodeInvalidCharacters(path)
        result.query = query.map(URLPercentEncoding.encodeInvalidCharacters)
        result.fragment = fragment.map(URLPercentEncoding.encodeInvalidCharacters)
        return result
    }

    /// Removes the user information and returns it split at the first `:` and percent-decoded;
    /// nil when there was none. A missing `:` gives a nil password.
    package mutating func removeUserInfo() -> (user: String, password: String?)? {
        guard let info = userInfo else { return nil }
        userInfo = nil
        let scalars = info.unicodeScalars
        guard let colon = scalars.firstIndex(of: ":") else { return (URLPercentEncoding.decode(info), nil) }
        let user = URLPercentEncoding.decode(String(scalars[..<colon]))
        let password = URLPercentEncoding.decode(String(scalars[scalars.index(after: colon)...]))
        return (user, password)
    }

    /// `url` without its user information, and the decoded user and password it held.
    package static func removingUserInfo(from url: String) -> (url: String, user: String?, password: String?) {
        var reference = URLReference(parsing: url)
        guard let credentials = reference.removeUserInfo() else { return (url, nil, nil) }
        return (reference.string, credentials.user, credentials.password)
    }

    /// Whether `port` is decimal digits naming a port from 1 to 65535.
    package static func isValidPort(_ port: String) -> Bool {
        guard !port.isEmpty, port.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return false
        }
        // Leading zeros are allowed; more than five significant digits are out of range anyway.
        var value = 0
        for digit in port.utf8.drop(while: { $0 == UInt8(ascii: "0") }) {
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
            if value > 65535 { return false }
        }
        return value >= 1
    }

    /// Whether `host` is a bracketed IPv6 literal (hex, `:`, `.`, an optional `%25` zone) or a
    /// registered name free of characters that would end or corrupt the authority. Non-ASCII names
    /// are allowed: `validatedForRequest` converts them with IDNA.
    package static func isValidHost(_ host: String) -> Bool {
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.utf8.count > 2 else { return false }
            let inner = host.dropFirst().dropLast()
            let address = inner.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
            guard address[0].contains(":") else { return false }
            // A zone (RFC 6874) is `%25` and at least one unreserved character, as libcurl takes it.
            if address.count == 2 {
                let zone = address[1].utf8
                guard zone.count >= 3, zone.starts(with: "25".utf8) else { return false }
                guard zone.dropFirst(2).allSatisfy(isUnreservedByte) else { return false }
            }
            return address[0].utf8.allSatisfy {
                ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
                    || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F")) || $0 == UInt8(ascii: ":")
                    || $0 == UInt8(ascii: ".")
            }
        }
        return host.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F && !isForbiddenHostByte($0) }
    }

    /// Whether `byte` is an RFC 3986 unreserved character: a letter, a digit, `-`, `.`, `_` or `~`.
    static func isUnreservedByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Whether `byte` is an ASCII byte that cannot appear in a registered name (RFC 3986 §3.2.2
    /// plus the characters that are never valid in a URL): `"#/:<>?@[\]^`{|}`.
    static func isForbiddenHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "<"),
            UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"),
            UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"),
            UInt8(ascii: "}"):
            return true
        default:
            return false
        }
    }
}
