/// The system (dynamic) variables of the JetBrains HTTP Client and the VS Code REST Client:
/// `{{$uuid}}` (`$guid`, `$random.uuid`), `{{$timestamp [OFFSET UNIT]}}`, `{{$isoTimestamp}}`,
/// `{{$datetime FORMAT [OFFSET UNIT]}}`, `{{$localDatetime FORMAT [OFFSET UNIT]}}` (FORMAT is
/// `rfc1123`, `iso8601` or a quoted Day.js format), `{{$randomInt [MIN MAX]}}`,
/// `{{$random.integer(FROM, TO)}}`, `{{$random.float(FROM, TO)}}`, `{{$random.alphabetic(N)}}`,
/// `{{$random.alphanumeric(N)}}`, `{{$random.hexadecimal(N)}}`, `{{$random.email}}`,
/// `{{$processEnv [%]NAME}}` and `{{$dotenv [%]NAME}}`. Anything else is refused by name.
extension HTTPFileVariables {
    /// The longest `$random.alphabetic(N)` and its kin (1 MiB).
    static let maximumRandomLength = 1 << 20

    /// The value of `reference`, which starts with `$`.
    func systemValue(_ reference: String, line: Int) throws(HTTPFileError) -> String {
        func failure(_ reason: String) -> HTTPFileError {
            HTTPFileError(line: line, reason: "{{\(reference)}}: \(reason)")
        }
        // JetBrains' calls, `$random.integer(1, 10)`, take their arguments in parentheses.
        if let open = reference.firstIndex(of: "("), reference.hasSuffix(")") {
            let name = String(reference[..<open])[...].trimmingBlanks()
            let inside = reference[reference.index(after: open)..<reference.index(before: reference.endIndex)]
            let arguments =
                inside.trimmingBlanks().isEmpty
                ? [] : inside.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingBlanks() }
            return try call(name, arguments, failure: failure)
        }
        let words = reference.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let name = words.first ?? ""
        let rest = Array(words.dropFirst())
        switch name {
        case "$datetime", "$localDatetime":
            return try datetime(reference, isLocal: name == "$localDatetime", failure: failure)
        case "$timestamp":
            return String(Self.floorSeconds(try offset(rest, from: sources.milliseconds(), failure: failure)))
        case "$processEnv", "$dotenv":
            guard rest.count == 1 else { throw failure("\(name) takes one name, [%]NAME") }
            return try externalValue(name, rest[0], failure: failure)
        case "$randomInt", "$random.integer", "$random.float":
            return try call(name, rest, failure: failure)
        case "$aadToken", "$aadV2Token", "$oidcAccessToken":
            // REST Client signs in to Azure AD (Microsoft Entra ID) or an OpenID provider in a
            // browser window for these.
            let provider = name == "$oidcAccessToken" ? "an OpenID Connect provider" : "Azure AD (Microsoft Entra ID)"
            throw failure(
                "\(name) is not supported: it signs in to \(provider) in a browser, which afcli does not do (it signs "
                    + "in to no cloud account); get a token"
                    + (name == "$oidcAccessToken" ? "" : " (az account get-access-token)")
                    + " and give it with --variable NAME=TOKEN")
        default:
            guard rest.isEmpty else { throw failure("unexpected arguments") }
            return try call(name, [], failure: failure)
        }
    }

    /// A variable without arguments, or one of the random calls with its arguments.
    private func call(
        _ name: String, _ arguments: [String], failure: (String) -> HTTPFileError
    ) throws(HTTPFileError) -> String {
        switch name {
        case "$uuid", "$random.uuid", "$guid":
            guard arguments.isEmpty else { break }
            return uuid()
        case "$isoTimestamp":
            guard arguments.isEmpty else { break }
            return HTTPFileDateFormat.format(
                "YYYY-MM-DD[T]HH:mm:ss[Z]", milliseconds: sources.now() * 1000, offsetSeconds: 0)
        case "$randomInt", "$random.integer":
            if arguments.isEmpty { return String(sources.random() % 1000) }
            guard arguments.count == 2, let low = Int64(arguments[0]), let high = Int64(arguments[1]) else {
                throw failure("\(name) takes no arguments or two integers, MIN MAX")
            }
            guard low < high else { throw failure("the minimum \(low) is not less than the maximum \(high)") }
            // The span is computed without trapping: the bounds may be any two 64-bit numbers.
            guard case (let span, false) = high.subtractingReportingOverflow(low), span <= Int64(Int32.max) else {
                throw failure("MAX - MIN may be at most \(Int32.max)")
            }
            return String(low + Int64(sources.random() % UInt64(span)))
        case "$random.float":
            let bounds = arguments.isEmpty ? [0, 1000] : arguments.compactMap { Double($0) }.filter(\.isFinite)
            guard bounds.count == 2, arguments.count == 2 || arguments.isEmpty else {
                throw failure("\(name) takes no arguments or two numbers, FROM, TO")
            }
            guard bounds[0] < bounds[1] else {
                throw failure("FROM \(arguments[0]) is not less than TO \(arguments[1])")
            }
            let fraction = Double(sources.random() >> 11) / Double(UInt64(1) << 53)
            return String(min(bounds[0] + fraction * (bounds[1] - bounds[0]), bounds[1].nextDown))
        case "$random.alphabetic", "$random.alphanumeric", "$random.hexadecimal":
            guard arguments.count == 1, let length = Int(arguments[0]), (0...Self.maximumRandomLength).contains(length)
            else { throw failure("\(name) takes a length from 0 to \(Self.maximumRandomLength), \(name)(N)") }
            let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
            let alphabet =
                name == "$random.alphabetic"
                ? letters : name == "$random.hexadecimal" ? "0123456789abcdef" : letters + "0123456789_"
            return randomText(length, from: Array(alphabet.utf8))
        case "$random.email":
            guard arguments.isEmpty else { break }
            // A reserved domain (RFC 2606): a generated address never reaches anyone.
            return randomText(10, from: Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)) + "@example.com"
        default:
            throw failure(
                "not a system variable afcli knows ($uuid, $guid, $timestamp, $isoTimestamp, $datetime, "
                    + "$localDatetime, $randomInt, $processEnv, $dotenv and $random.uuid, .integer, .float, "
                    + ".alphabetic, .alphanumeric, .hexadecimal, .email)")
        }
        throw failure("unexpected arguments")
    }

    /// `$datetime` and `$localDatetime`: a format (`rfc1123`, `iso8601`, `'…'` or `"…"`) and an
    /// optional offset.
    private func datetime(
        _ reference: String, isLocal: Bool, failure: (String) -> HTTPFileError
    ) throws(HTTPFileError) -> String {
        let name = isLocal ? "$localDatetime" : "$datetime"
        let text = reference.dropFirst(name.count).drop(while: { $0 == " " || $0 == "\t" })
        let format: String
        let rest: Substring
        if let quote = text.first, quote == "'" || quote == "\"" {
            // As REST Client's pattern: the format runs to the last quote of its kind.
            guard let close = text.lastIndex(of: quote), close > text.startIndex else {
                throw failure("the format is not closed with \(quote)")
            }
            format = String(text[text.index(after: text.startIndex)..<close])
            rest = text[text.index(after: close)...]
        } else {
            let word = text.prefix(while: { $0 != " " && $0 != "\t" })
            guard word == "rfc1123" || word == "iso8601" else {
                throw failure("\(name) needs a format: rfc1123, iso8601 or a quoted format such as 'YYYY-MM-DD'")
            }
            format = String(word)
            rest = text.dropFirst(word.count)
        }
        let words = rest.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let now = sources.milliseconds()
        var instant = try offset(words, from: now, failure: failure)
        if isLocal, words.count == 2, !["h", "m", "s", "ms"].contains(words[1]) {
            // As Day.js in local mode: days to years move the local calendar date (Jan 31 + 1 M is
            // the local Feb 29 even where it is still Jan 30 in UTC); hours and less move the instant.
            let zone = Int64(sources.utcOffset(Self.floorSeconds(now))) * 1000
            let wall = try offset(words, from: now + zone, failure: failure)
            instant = wall - Int64(sources.utcOffset(Self.floorSeconds(wall - zone))) * 1000
        }
        guard isLocal else {
            switch format {
            case "rfc1123": return HTTPFileDateFormat.rfc1123(instant)
            case "iso8601": return HTTPFileDateFormat.iso8601(instant)
            default: return HTTPFileDateFormat.format(format, milliseconds: instant, offsetSeconds: 0)
            }
        }
        let zone = sources.utcOffset(Self.floorSeconds(instant))
        let pattern: String
        switch format {
        case "rfc1123": pattern = "ddd, DD MMM YYYY HH:mm:ss ZZ"
        case "iso8601": pattern = "YYYY-MM-DD[T]HH:mm:ssZ"
        default: pattern = format
        }
        return HTTPFileDateFormat.format(pattern, milliseconds: instant, offsetSeconds: zone)
    }

    /// `milliseconds` moved by `[OFFSET UNIT]` (`-3 h`, `1 y`); no words leave it as it is.
    private func offset(
        _ words: [String], from milliseconds: Int64, failure: (String) -> HTTPFileError
    ) throws(HTTPFileError) -> Int64 {
        if words.isEmpty { return milliseconds }
        guard words.count == 2, let amount = Int64(words[0]) else {
            throw failure("an offset is a whole number and a unit (y, Q, M, w, d, h, m, s, ms), such as -3 h")
        }
        guard let moved = HTTPFileDateFormat.adding(amount, words[1], to: milliseconds) else {
            let units: Set = ["y", "Q", "M", "w", "d", "h", "m", "s", "ms"]
            throw failure(
                units.contains(words[1])
                    ? "the date is outside years 1 to 9999"
                    : "\(words[1]) is not a unit (y, Q, M, w, d, h, m, s, ms)")
        }
        return moved
    }

    /// `$processEnv NAME` (the process's environment) or `$dotenv NAME` (the `.env` file beside
    /// the `.http` file); `%NAME` names the variable of the chosen environment whose value is the
    /// name, or the name itself when the environment has no such variable (REST Client).
    private func externalValue(
        _ kind: String, _ word: String, failure: (String) -> HTTPFileError
    ) throws(HTTPFileError) -> String {
        var key = word
        if key.hasPrefix("%") {
            key.removeFirst()
            key = environmentValue(key) ?? key
        }
        if kind == "$processEnv" {
            if let allowsProcessVariable, !allowsProcessVariable(key) {
                throw failure(
                    "a .http file reads only the environment variables allowed by name, and \(key) is not one: "
                        + "--allow-env \(key) allows it")
            }
            guard let value = processEnvironment(key) else {
                throw failure("the environment variable \(key) is not set")
            }
            return value
        }
        switch dotenv?.values() ?? .success(nil) {
        case .failure(let error):
            throw failure(error.reason)
        case .success(nil):
            throw failure("there is no .env file beside the .http file")
        case .success(let values?):
            guard let value = values[key] else { throw failure("\(key) is not in the .env file") }
            return value
        }
    }

    /// `length` characters drawn from `alphabet`.
    private func randomText(_ length: Int, from alphabet: [UInt8]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        for _ in 0..<length { bytes.append(alphabet[Int(sources.random() % UInt64(alphabet.count))]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A random (version 4) UUID in lower case.
    private func uuid() -> String {
        var bytes: [UInt8] = []
        for _ in 0..<2 {
            var word = sources.random()
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
            separator: "-")
    }

    /// Whole seconds of `milliseconds`, rounded down.
    static func floorSeconds(_ milliseconds: Int64) -> Int64 {
        milliseconds / 1000 - (milliseconds % 1000 < 0 ? 1 : 0)
    }
}
