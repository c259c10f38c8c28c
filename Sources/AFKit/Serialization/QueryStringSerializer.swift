/// One flattened parameter: a field such as `a[b][]` and its value; nil for a null (field alone).
package struct QueryPair: Equatable, Sendable {
    package var field: String
    /// The value as text; nil writes the field alone, without `=` (AF's `NSNull`).
    package var value: String?

    package init(field: String, value: String?) {
        self.field = field
        self.value = value
    }

    /// `field=value` (or just `field`) with both sides AF-escaped.
    package var encoded: String {
        let field = QueryStringSerializer.percentEscape(field)
        guard let value else { return field }
        return field + "=" + QueryStringSerializer.percentEscape(value)
    }
}

/// AFNetworking's `AFQueryStringFromParameters` and `AFPercentEscapedStringFromString`, plus the
/// way afcli appends a query to a URL.
package enum QueryStringSerializer {
    /// Flattens a parameter tree into ordered pairs the way AF does (spec §1).
    ///
    /// Objects recurse as `key[sub]` (just `sub` at the top) with keys sorted by UTF-16 code unit
    /// (a repeated key's pairs in typed order),
    /// arrays as `key[]` in order, null gives the field alone, booleans `1`/`0`, numbers their
    /// literal; empty containers give nothing. A top-level array uses the field `[]` and a top-level
    /// scalar the empty field, since AF only ever starts from a dictionary.
    package static func pairs(from parameters: JSONValue) -> [QueryPair] {
        var pairs: [QueryPair] = []
        flatten(parameters, field: nil, into: &pairs)
        return pairs
    }

    /// The AF query string of a parameter tree: escaped pairs joined by `&`; empty for no pairs.
    package static func queryString(from parameters: JSONValue) -> String {
        var query = ""
        for pair in pairs(from: parameters) {
            if !query.isEmpty { query += "&" }
            query += pair.encoded
        }
        return query
    }

    /// `name==value` items, AF-escaped and joined by `&` in the order typed.
    package static func queryString(from items: [QueryItem]) -> String {
        // Appended in place: a map and a join cost more than the escaping itself.
        var query = ""
        for (index, item) in items.enumerated() {
            if index > 0 { query += "&" }
            query += percentEscape(item.name)
            query += "="
            query += percentEscape(item.value)
        }
        return query
    }

    /// `AFPercentEscapedStringFromString`: every UTF-8 byte outside the literal set becomes `%XX`.
    package static func percentEscape(_ string: String) -> String {
        // Most names and values need no escape: they are returned without a copy of their bytes.
        if string.utf8.allSatisfy(isLiteral) { return string }
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isLiteral(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(upperHexDigits[Int(byte >> 4)])
                output.append(upperHexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends an encoded query to `url`, before any `#fragment`; an empty query changes nothing.
    ///
    /// Joins with `&` when the URL already has a query (AF) and adds no separator when the URL
    /// already ends in `?` or `&`. AF appends after the fragment; afcli deliberately does not.
    package static func appendQuery(_ query: String, to url: String) -> String {
        guard !query.isEmpty else { return url }
        if let appended = appendQueryASCII(query, to: url) { return appended }
        let base: Substring
        let fragment: Substring
        if let hash = url.firstIndex(of: "#") {
            base = url[..<hash]
            fragment = url[hash...]
        } else {
            base = url[...]
            fragment = ""
        }
        let separator: String
        if base.hasSuffix("?") || base.hasSuffix("&") {
            separator = ""
        } else {
            separator = base.contains("?") ? "&" : "?"
        }
        return String(base) + separator + query + String(fragment)
    }

    /// `appendQuery` on the bytes of an ASCII `url`, written into the result in one pass; nil when
    /// `url` holds a non-ASCII byte (or either text has no contiguous bytes).
    ///
    /// Every URL the serializer makes is ASCII (the rest is percent-encoded), and among ASCII
    /// bytes `#`, `?` and `&` are whole Characters: cutting at bytes gives the same text as the
    /// Character rules, without grapheme breaking or a substring search.
    private static func appendQueryASCII(_ query: String, to url: String) -> String? {
        url.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            var hash = bytes.count
            var hasQuery = false
            for index in bytes.indices {
                let byte = bytes[index]
                if byte >= 0x80 { return nil }
                if hash == bytes.count {
                    if byte == UInt8(ascii: "#") {
                        hash = index
                    } else if byte == UInt8(ascii: "?") {
                        hasQuery = true
                    }
                }
            }
            let last = hash > 0 ? bytes[hash - 1] : nil
            let separator: UInt8? =
                last == UInt8(ascii: "?") || last == UInt8(ascii: "&")
                ? nil : hasQuery ? UInt8(ascii: "&") : UInt8(ascii: "?")
            return query.utf8.withContiguousStorageIfAvailable { queryBytes in
                // Capacity: the URL's bytes, at most one separator and the query's bytes; each
                // copy below writes into the slice of `output` that its own length fits.
                String(unsafeUninitializedCapacity: bytes.count + 1 + queryBytes.count) { output in
                    var written = 0
                    func write(_ part: UnsafeBufferPointer<UInt8>) {
                        _ = UnsafeMutableBufferPointer(rebasing: output[written..<(written + part.count)])
                            .initialize(from: part)
                        written += part.count
                    }
                    write(UnsafeBufferPointer(rebasing: bytes[..<hash]))
                    if let separator {
                        output[written] = separator
                        written += 1
                    }
                    write(queryBytes)
                    write(UnsafeBufferPointer(rebasing: bytes[hash...]))
                    return written
                }
            }
        } ?? nil
    }

    /// Whether `lhs` sorts before `rhs` comparing UTF-16 code units, as `-[NSString compare:]` and
    /// `CFStringCompare` order dictionary keys (`1` < `B` < `a`).
    package static func precedesByCodeUnit(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }

    /// Appends the pairs of `value` under `field` (nil at the top level).
    private static func flatten(_ value: JSONValue, field: String?, into pairs: inout [QueryPair]) {
        switch value {
        case .object(let members):
            // A key given twice (`a=1 a=2`) sends both pairs in typed order: the sort is stable.
            let ordered = members.enumerated().sorted { lhs, rhs in
                lhs.element.key == rhs.element.key
                    ? lhs.offset < rhs.offset : precedesByCodeUnit(lhs.element.key, rhs.element.key)
            }
            for member in ordered.map(\.element) {
                let nested = field.map { "\($0)[\(member.key)]" } ?? member.key
                flatten(member.value, field: nested, into: &pairs)
            }
        case .array(let elements):
            // Brackets go in before escaping, so they reach the wire as %5B%5D (AF).
            let nested = (field ?? "") + "[]"
            for element in elements {
                flatten(element, field: nested, into: &pairs)
            }
        case .null:
            if let field { pairs.append(QueryPair(field: field, value: nil)) }
        case .bool(let flag):
            // NSNumber booleans describe themselves as 1 and 0.
            pairs.append(QueryPair(field: field ?? "", value: flag ? "1" : "0"))
        case .number(let literal):
            pairs.append(QueryPair(field: field ?? "", value: literal))
        case .string(let text):
            pairs.append(QueryPair(field: field ?? "", value: text))
        }
    }

    /// Whether `byte` stays literal: AF removes the RFC 3986 general and sub-delimiters
    /// `:#[]@!$&'()*+,;=` from `URLQueryAllowedCharacterSet`, leaving `A-Z a-z 0-9 - . _ ~ / ?`.
    private static func isLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
            UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }

    /// Upper-case hex digits, as AF's `stringByAddingPercentEncodingWithAllowedCharacters` writes.
    private static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
