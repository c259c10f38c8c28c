/// Reading and writing the session JSON (both HTTPie layouts in, the 3.2 layout out).
extension SessionFile {
    /// Parses session JSON; `path` names the file in errors (syntax errors carry line:column).
    package static func decode(_ text: String, path: String) throws(SessionError) -> SessionFile {
        try decode(bytes: Array(text.utf8), path: path)
    }

    /// Parses session JSON given as UTF-8 bytes (invalid UTF-8 is a syntax error).
    package static func decode(bytes: [UInt8], path: String) throws(SessionError) -> SessionFile {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes: bytes)
        } catch {
            let (line, column) = lineAndColumn(of: error.offset, in: String(decoding: bytes, as: UTF8.self))
            throw .malformed(path: path, line: line, column: column, reason: error.reason)
        }
        guard let members = root.objectMembers else {
            throw .invalid(path: path, reason: "the top level is not an object")
        }
        var session = SessionFile()
        for member in members {
            switch member.key {
            case "__meta__": break
            case "headers": session.headers = try decodeHeaders(member.value, path: path)
            case "cookies": session.cookies = try decodeCookies(member.value, path: path)
            case "auth": session.auth = try decodeAuth(member.value, path: path)
            default: session.otherMembers.append(member)
            }
        }
        return session
    }

    /// 1-based line and column (in characters) of a UTF-8 byte offset.
    static func lineAndColumn(of offset: Int, in text: String) -> (Int, Int) {
        var line = 1
        var column = 1
        var position = 0
        for scalar in text.unicodeScalars {
            if position >= offset { break }
            position += String(scalar).utf8.count
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    /// `[{"name": …, "value": …}]` (3.2) or `{"Name": "value"}` (older); null values are skipped.
    private static func decodeHeaders(_ value: JSONValue, path: String) throws(SessionError) -> [HTTPField] {
        switch value {
        case .null:
            return []
        case .object(let members):
            return members.compactMap { member in
                member.value.stringValue.map { HTTPField(name: member.key, value: $0) }
            }
        case .array(let elements):
            var fields: [HTTPField] = []
            for element in elements {
                guard let name = element.member("name")?.stringValue else {
                    throw .invalid(path: path, reason: "a header has no \"name\"")
                }
                if let text = element.member("value")?.stringValue { fields.append(HTTPField(name: name, value: text)) }
            }
            return fields
        default:
            throw .invalid(path: path, reason: "\"headers\" is neither a list nor an object")
        }
    }

    /// A list of cookie objects (3.2) or `{"name": {value, path, secure, expires}}` (older).
    private static func decodeCookies(_ value: JSONValue, path: String) throws(SessionError) -> [SessionCookie] {
        switch value {
        case .null:
            return []
        case .object(let members):
            var cookies: [SessionCookie] = []
            for member in members {
                cookies.append(try decodeCookie(member.value, name: member.key, path: path))
            }
            return cookies
        case .array(let elements):
            var cookies: [SessionCookie] = []
            for element in elements {
                guard let name = element.member("name")?.stringValue else {
                    throw .invalid(path: path, reason: "a cookie has no \"name\"")
                }
                cookies.append(try decodeCookie(element, name: name, path: path))
            }
            return cookies
        default:
            throw .invalid(path: path, reason: "\"cookies\" is neither a list nor an object")
        }
    }

    /// One cookie's attributes; missing ones take HTTPie's defaults.
    private static func decodeCookie(_ value: JSONValue, name: String, path: String) throws(SessionError)
        -> SessionCookie
    {
        guard value.objectMembers != nil else {
            throw .invalid(path: path, reason: "cookie \"\(name)\" is not an object")
        }
        var cookie = SessionCookie(name: name, value: value.member("value")?.stringValue ?? "")
        cookie.domain = value.member("domain")?.stringValue ?? ""
        if let cookiePath = value.member("path")?.stringValue, !cookiePath.isEmpty { cookie.path = cookiePath }
        if case .bool(let secure)? = value.member("secure") { cookie.secure = secure }
        switch value.member("expires") {
        case .number(let literal)?:
            let whole = literal.prefix { $0 != "." && $0 != "e" && $0 != "E" }
            guard let seconds = Int64(whole) else {
                throw .invalid(path: path, reason: "cookie \"\(name)\" has an unusable \"expires\"")
            }
            cookie.expires = seconds
        case .null?, nil:
            break
        default:
            throw .invalid(path: path, reason: "cookie \"\(name)\" has an unusable \"expires\"")
        }
        return cookie
    }

    /// `{type, raw_auth}` (3.2) or `{type, username, password}` (older); a null type is no auth.
    private static func decodeAuth(_ value: JSONValue, path: String) throws(SessionError) -> SessionAuth? {
        guard value.objectMembers != nil, let type = value.member("type")?.stringValue else { return nil }
        let raw: String
        if let text = value.member("raw_auth")?.stringValue {
            raw = text
        } else if let user = value.member("username")?.stringValue {
            raw = user + ":" + (value.member("password")?.stringValue ?? "")
        } else {
            return nil
        }
        guard ["basic", "digest", "bearer"].contains(type) else {
            throw .invalid(path: path, reason: "auth type \"\(type)\" is not supported (basic, digest, bearer)")
        }
        return SessionAuth(type: type, rawAuth: raw)
    }

    /// The file's bytes: HTTPie's layout and spelling (keys sorted, indent 4, trailing newline).
    package func encoded() -> [UInt8] {
        var members = [JSONMember(key: "__meta__", value: SessionFile.meta)]
        let auth: JSONValue = .object([
            JSONMember(key: "raw_auth", value: self.auth.map { .string($0.rawAuth) } ?? .null),
            JSONMember(key: "type", value: self.auth.map { .string($0.type) } ?? .null),
        ])
        members.append(JSONMember(key: "auth", value: auth))
        members.append(JSONMember(key: "cookies", value: .array(cookies.map(\.json))))
        let headers = headers.map { field in
            JSONValue.object([
                JSONMember(key: "name", value: .string(field.name)),
                JSONMember(key: "value", value: .string(field.value)),
            ])
        }
        members.append(JSONMember(key: "headers", value: .array(headers)))
        members += otherMembers
        members.sort { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        var output: [UInt8] = []
        SessionFile.writePretty(.object(members), indent: 0, into: &output)
        output.append(0x0A)
        return output
    }

    /// Writes JSON indented by 4 per level, as Python's `json.dump(indent=4)`.
    private static func writePretty(_ value: JSONValue, indent: Int, into output: inout [UInt8]) {
        let pad = { (level: Int) in [UInt8](repeating: 0x20, count: level * 4) }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                output.append(contentsOf: (position > 0 ? ",\n" : "\n").utf8)
                output += pad(indent + 1)
                writePretty(element, indent: indent + 1, into: &output)
            }
            output.append(0x0A)
            output += pad(indent)
            output.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            output.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                output.append(contentsOf: (position > 0 ? ",\n" : "\n").utf8)
                output += pad(indent + 1)
                JSONWriter.writeString(member.key, into: &output)
                output.append(contentsOf: ": ".utf8)
                writePretty(member.value, indent: indent + 1, into: &output)
            }
            output.append(0x0A)
            output += pad(indent)
            output.append(UInt8(ascii: "}"))
        default:
            // Numbers come from afcli's own integers or from parsed files, so they are valid.
            try? JSONWriter.write(value, into: &output)
        }
    }
}

extension SessionCookie {
    /// The cookie object, keys sorted as HTTPie writes them.
    var json: JSONValue {
        .object([
            JSONMember(key: "domain", value: .string(domain)),
            JSONMember(key: "expires", value: expires.map { .number(String($0)) } ?? .null),
            JSONMember(key: "name", value: .string(name)),
            JSONMember(key: "path", value: .string(path)),
            JSONMember(key: "secure", value: .bool(secure)),
            JSONMember(key: "value", value: .string(value)),
        ])
    }
}

extension JSONValue {
    /// The member named `key` of an object; nil for a missing member or a non-object.
    func member(_ key: String) -> JSONValue? {
        objectMembers?.last { $0.key == key }?.value
    }

    /// The text of a string value; nil for anything else.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
