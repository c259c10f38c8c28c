import AFCurl

/// The `Cache-Control` directives of a request or response (RFC 9111 §5.2) that a private cache
/// acts on; unknown directives are ignored, as the RFC requires.
package struct CacheControl: Equatable, Sendable {
    package var noStore = false
    package var noCache = false
    package var mustRevalidate = false
    package var isPrivate = false
    package var isPublic = false
    package var onlyIfCached = false
    /// `max-age` in seconds; nil when absent or invalid (an invalid value counts as stale).
    package var maxAge: Int64?
    /// Whether a `max-age` was present but not a valid number, which makes a response stale.
    package var invalidMaxAge = false
    /// A request's `min-fresh`: the response must stay fresh this many seconds more.
    package var minFresh: Int64?
    /// A request's `max-stale`: a response stale by at most this many seconds will do; infinity
    /// for `max-stale` without a value (any staleness).
    package var maxStale: Double?
    /// `stale-while-revalidate` (RFC 5861 §3): seconds a stale response may answer while it is
    /// revalidated.
    package var staleWhileRevalidate: Int64?
    /// `stale-if-error` (RFC 5861 §4): seconds a stale response may answer a server error or a
    /// failed connection.
    package var staleIfError: Int64?
    /// Fields named by a qualified `no-cache="a, b"`: the response is reused without them.
    package var noCacheFields: [String] = []
    /// `must-understand`: no-store yields to a status whose caching the cache implements.
    package var mustUnderstand = false

    package init() {}

    /// The directives of every `Cache-Control` field value, in order; at most 64 directives are read.
    /// A directive is `name` or `name=value` with nothing around the `=` (`max-age =60` is some
    /// other directive, `max-age= 60` an invalid max-age); the first `max-age` wins, as in browsers.
    package init(_ values: [String]) {
        var seen = 0
        for value in values {
            for raw in Self.directives(value) {
                seen += 1
                if seen > 64 { return }
                let part = raw.cacheTrimmed
                let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = pieces.first, !first.isEmpty else { continue }
                let name = ASCIICase.lowercased(String(first))
                var argument = pieces.count > 1 ? String(pieces[1]) : nil
                if let quoted = argument, quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") {
                    argument = String(quoted.dropFirst().dropLast())
                }
                apply(name, argument)
            }
        }
    }

    /// Records one directive.
    private mutating func apply(_ name: String, _ argument: String?) {
        switch name {
        case "no-store": noStore = true
        case "no-cache":
            // The qualified form names fields to drop, the response itself may be reused (§5.2.2.4).
            if let fields = argument {
                noCacheFields += fields.split(separator: ",").map { ASCIICase.lowercased($0.cacheTrimmed) }
            } else {
                noCache = true
            }
        case "must-revalidate": mustRevalidate = true
        case "must-understand": mustUnderstand = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "only-if-cached": onlyIfCached = true
        case "stale-while-revalidate": staleWhileRevalidate = argument.flatMap(Self.deltaSeconds)
        case "stale-if-error": staleIfError = argument.flatMap(Self.deltaSeconds)
        case "min-fresh": minFresh = argument.flatMap(Self.deltaSeconds)
        case "max-stale": maxStale = argument.map { Self.deltaSeconds($0).map(Double.init) ?? 0 } ?? .infinity
        case "max-age":
            guard maxAge == nil, !invalidMaxAge else { return }
            if let seconds = argument.flatMap(Self.lenientSeconds) {
                maxAge = seconds
            } else {
                invalidMaxAge = true
            }
        default: return
        }
    }

    /// The comma-separated members of one field value, commas inside a quoted string kept.
    static func directives(_ value: String) -> [Substring] {
        var members: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var escaped = false
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                members.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        members.append(value[start...])
        return members
    }
}

extension CacheControl {
    /// A max-age value: delta-seconds, or digits with a decimal fraction (`3600.0`, `3600.5`), which
    /// Firefox and Safari read as the whole seconds; nil for anything else.
    static func lenientSeconds(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return deltaSeconds(text) }
        guard !parts[1].isEmpty, parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return deltaSeconds(String(parts[0]))
    }

    /// A delta-seconds value (RFC 9111 §1.2.2): digits only, larger than 2^31 counting as 2^31;
    /// nil for anything else (signs, exponents, `inf`, blanks inside).
    package static func deltaSeconds(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return text.utf8.count > 10 ? 2_147_483_648 : min(Int64(text) ?? 0, 2_147_483_648)
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    var cacheTrimmed: String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

extension Substring {
    var cacheTrimmed: String { String(self).cacheTrimmed }
}
