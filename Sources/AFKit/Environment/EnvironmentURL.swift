/// The environment stage's URL join (CJNetwork's base URL + API path), without CJNetwork's bugs.
///
/// A relative URL (`/users`, `users?page=2`, `a/../b`) is joined to the base with exactly one `/`
/// between the base's path and the URL's path, whatever slashes either side has; the base's query
/// is kept and the URL's query follows it with `&`. Only characters that cannot stand in a URL are
/// percent-encoded, so `%20` stays `%20` (CJNetwork encoded the whole URL again: `%2520`). Dot
/// segments are then removed as libcurl would, so `..` may climb above the base's path, and what
/// afcli prints is what is sent. An absolute URL (`scheme://…`, or the `:PORT/path` localhost
/// shorthand) ignores the base, in every mode (CJNetwork glued it onto the base).
package enum EnvironmentURL {
    /// A joined URL and the API path it was made from.
    package struct Joined: Equatable, Sendable {
        /// The absolute URL to send.
        package var url: String
        /// The path as given, without leading `/` or query (`api/card/list`): what `--local`
        /// names its answer file after. For an absolute URL, its path.
        package var apiPath: String
        /// Whether `url` holds no user information, and so goes out exactly as it is
        /// (`RequestSpec.urlIsFinal`); false when unknown.
        package var isFinal: Bool

        package init(url: String, apiPath: String, isFinal: Bool = false) {
            self.url = url
            self.apiPath = apiPath
            self.isFinal = isFinal
        }
    }

    /// `input` joined to `base`, or resolved alone when it is absolute or there is no base.
    package static func join(_ input: String, base: String?) throws(SerializationError) -> Joined {
        guard let base, !isAbsolute(input) else {
            if let apiPath = PlainRequestURL.apiPath(input) {
                return Joined(url: input, apiPath: apiPath, isFinal: true)
            }
            let reference = try RequestURL.makeReference(from: input)
            return Joined(
                url: reference.string, apiPath: trimmingSlashes(reference.path), isFinal: reference.userInfo == nil)
        }
        // A plain base (the usual one) is its own shorthand expansion and validation: only parsed.
        var reference =
            PlainRequestURL.pathRange(base) != nil
            ? URLReference(parsing: base)
            : try URLReference(parsing: RequestURL.expandShorthand(base)).validatedForRequest(original: base)
        var rest = Substring(input)
        var fragment: Substring?
        var query: Substring?
        if isASCII(input) {
            // Among ASCII bytes `#` and `?` are whole Characters: found among bytes, without
            // grapheme breaking.
            if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
                fragment = rest[rest.utf8.index(after: hash)...]
                rest = rest[..<hash]
            }
            if let question = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
                query = rest[rest.utf8.index(after: question)...]
                rest = rest[..<question]
            }
        } else {
            if let hash = rest.firstIndex(of: "#") {
                fragment = rest[rest.index(after: hash)...]
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: "?") {
                query = rest[rest.index(after: question)...]
                rest = rest[..<question]
            }
        }
        let path = trimmingSlashes(String(rest))
        if !path.isEmpty {
            var basePath = Substring(reference.path)
            // A validated path is ASCII: its last byte is its last Character.
            while basePath.utf8.last == UInt8(ascii: "/") { basePath = basePath.dropLast() }
            reference.path = basePath + "/" + URLPercentEncoding.encodeInvalidCharacters(path)
        }
        reference.path = URLReference.removeDotSegments(reference.path)
        if let query {
            let encoded = URLPercentEncoding.encodeInvalidCharacters(query)
            if let baseQuery = reference.query, !baseQuery.isEmpty {
                reference.query = encoded.isEmpty ? baseQuery : baseQuery + "&" + encoded
            } else {
                reference.query = encoded
            }
        }
        reference.fragment = fragment.map(URLPercentEncoding.encodeInvalidCharacters)
        return Joined(url: reference.string, apiPath: path, isFinal: reference.userInfo == nil)
    }

    /// Whether `input` names its own origin: `scheme://…` or HTTPie's `:PORT` localhost shorthand
    /// (`:8080/x`, `:/x`, `:`).
    package static func isAbsolute(_ input: String) -> Bool {
        if let answer = input.utf8.withContiguousStorageIfAvailable(isAbsoluteASCII) ?? nil { return answer }
        if input.hasPrefix(":") {
            let afterColon = input.dropFirst()
            let rest = afterColon.drop { $0.isASCII && $0.isNumber }
            return rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") || rest.hasPrefix("#")
        }
        guard let separator = input.firstRange(of: "://") else { return false }
        return URLReference.isScheme(input[..<separator.lowerBound])
    }

    /// `isAbsolute` on the bytes of an ASCII input; nil for any other. Among ASCII bytes every
    /// byte is a Character but `\r\n`, which is neither a digit nor part of `://`.
    private static func isAbsoluteASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        if bytes.first == UInt8(ascii: ":") {
            var index = 1
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            guard index < bytes.count else { return true }
            let next = bytes[index]
            return next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#")
        }
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                bytes[index + 2] == UInt8(ascii: "/")
            {
                return URLReference.isScheme(UnsafeBufferPointer(rebasing: bytes[..<index]))
            }
            index += 1
        }
        return false
    }

    /// Whether every byte of `text` is ASCII.
    private static func isASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { !$0.contains { $0 >= 0x80 } } ?? false
    }

    /// `path` without its leading `/` characters.
    private static func trimmingSlashes(_ path: String) -> String {
        // A path that does not start with a slash byte does not start with a `/` Character either.
        guard path.utf8.first == UInt8(ascii: "/") else { return path }
        // In ASCII text a `/` byte is a whole Character.
        if isASCII(path) { return String(Substring(path.utf8.drop { $0 == UInt8(ascii: "/") })) }
        return String(path.drop { $0 == "/" })
    }
}
