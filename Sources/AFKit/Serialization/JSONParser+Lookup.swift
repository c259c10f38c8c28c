extension JSONParser {
    /// The value at `path` (member names, and array indices counted from the end when
    /// negative) in the JSON text `bytes`; nil when the path reaches nothing.
    ///
    /// The whole text is checked as `parse(bytes:)` checks it, with the same errors, but only the
    /// value found is built: a singular JSONPath query (`$.items[0].id`) against a response costs
    /// one scan of it rather than a tree of all of it. A repeated key's last value is the one
    /// found, as in the object `parse` builds.
    package static func value(
        at path: [JSONPathElement], inBytes bytes: [UInt8], replacingLoneSurrogates: Bool = false,
        maximumDepth: Int = JSONParser.maximumDepth
    ) throws(JSONParseError) -> JSONValue? {
        var cursor = JSONCursor(bytes: bytes, maximumDepth: maximumDepth)
        cursor.replacesLoneSurrogates = replacingLoneSurrogates
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { cursor.index = 3 }
        cursor.skipWhitespace()
        let found = try cursor.locate(path[...])
        cursor.skipWhitespace()
        guard cursor.index == bytes.count else { throw cursor.failure("expected end of input") }
        guard let found else { return nil }
        // Checked already: building the value found cannot fail.
        cursor.index = found
        return try cursor.parseValue()
    }
}

extension JSONCursor {
    /// Moves past the value at the cursor, checking it, and returns where the value `path`
    /// leads to inside it starts; nil when it leads nowhere.
    mutating func locate(_ path: ArraySlice<JSONPathElement>) throws(JSONParseError) -> Int? {
        guard let step = path.first, index < bytes.count else {
            let start = index
            try skipValue()
            return start
        }
        switch (step, bytes[index]) {
        case (.name(let name), UInt8(ascii: "{")):
            var found: Int?
            guard try enter(closing: UInt8(ascii: "}")) else { return nil }
            repeat {
                if try skipKey(matching: name) {
                    found = try locate(path.dropFirst())
                } else {
                    try skipValue()
                }
            } while try next(closing: UInt8(ascii: "}"))
            return found
        case (.index(let wanted), UInt8(ascii: "[")):
            return try locateElement(wanted, then: path.dropFirst())
        default:
            try skipValue()
            return nil
        }
    }

    /// `locate` for an array and the index `wanted` in it.
    private mutating func locateElement(_ wanted: Int, then rest: ArraySlice<JSONPathElement>)
        throws(JSONParseError) -> Int?
    {
        if wanted < 0 {
            // Counted from the end: the array is walked once to count it, then again.
            let start = index
            var count = 0
            if try enter(closing: UInt8(ascii: "]")) {
                repeat {
                    try skipValue()
                    count += 1
                } while try next(closing: UInt8(ascii: "]"))
            }
            guard count + wanted >= 0 else { return nil }
            let end = index
            index = start
            let found = try locateElement(count + wanted, then: rest)
            index = end
            return found
        }
        var found: Int?
        var position = 0
        guard try enter(closing: UInt8(ascii: "]")) else { return nil }
        repeat {
            if position == wanted {
                found = try locate(rest)
            } else {
                try skipValue()
            }
            position += 1
        } while try next(closing: UInt8(ascii: "]"))
        return found
    }

    /// Moves past the value at the cursor, checking it, without building it.
    mutating func skipValue() throws(JSONParseError) {
        guard index < bytes.count else { throw failure("expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            guard try enter(closing: UInt8(ascii: "}")) else { return }
            repeat {
                _ = try skipKey(matching: nil)
                try skipValue()
            } while try next(closing: UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            guard try enter(closing: UInt8(ascii: "]")) else { return }
            repeat {
                try skipValue()
            } while try next(closing: UInt8(ascii: "]"))
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            index = try JSONParser.scanNumber(bytes, from: index)
        default:
            _ = try parseValue()
        }
    }

    /// Moves past a member's key and its `:`; whether the key is `name` (compared as bytes).
    private mutating func skipKey(matching name: String?) throws(JSONParseError) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a string key") }
        let start = index + 1
        let end = plainRunEnd(from: start)
        let matches: Bool
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            index = end + 1
            matches = name.map { bytes[start..<end].elementsEqual($0.utf8) } ?? false
        } else {
            let decoded = try parseString()
            matches = name.map { decoded.elementsEqual($0.utf8) } ?? false
        }
        try skipColon()
        return matches
    }

    /// Moves past the string literal at the cursor, checking it.
    private mutating func skipString() throws(JSONParseError) {
        let end = plainRunEnd(from: index + 1)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            index = end + 1
        } else {
            _ = try parseString()
        }
    }
}
