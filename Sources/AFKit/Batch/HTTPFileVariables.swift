#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Substitutes `{{name}}` in a `.http` file's text: file variables (`@name = value`) first, then
/// the chosen environment's; `{{%name}}` is a variable's value percent-encoded (REST Client);
/// `{{$…}}` is a system variable (`HTTPFileVariables+System.swift`).
///
/// A value may itself hold `{{…}}`; expansion stops at a variable that refers to itself, at
/// `maximumDepth` levels, at `maximumReferences` references replaced in one text (values that
/// expand to nothing many times over grow no result, only time) and at `maximumLength` bytes of
/// result (16 MiB unless told), so no file can make it explode.
/// An undefined variable is an error at the line it is used on. Text without `{{` is untouched.
package struct HTTPFileVariables {
    /// The deepest a value may refer to other values.
    package static let maximumDepth = 16
    /// The most references one text may expand to, counting those inside values.
    package static let maximumReferences = 100_000
    /// The longest text an expansion may produce by default (16 MiB).
    package static let defaultMaximumLength = 16 << 20

    /// Where system variables take the time, the time zone and randomness from (fixed in tests).
    package struct Sources {
        /// Seconds since the epoch.
        package var now: () -> Int64
        package var random: () -> UInt64
        /// Milliseconds since the epoch.
        package var milliseconds: () -> Int64
        /// The local time zone's offset east of UTC, in seconds, at an instant (seconds since the epoch).
        package var utcOffset: (Int64) -> Int

        package init(
            now: @escaping () -> Int64, random: @escaping () -> UInt64, milliseconds: (() -> Int64)? = nil,
            utcOffset: @escaping (Int64) -> Int = { _ in 0 }
        ) {
            self.now = now
            self.random = random
            self.milliseconds = milliseconds ?? { now() * 1000 }
            self.utcOffset = utcOffset
        }

        /// The clock, the system's time zone (`TZ`, `/etc/localtime`) and random generator.
        package static var system: Sources {
            Sources(
                now: { Int64(time(nil)) }, random: { UInt64.random(in: .min ... .max) },
                milliseconds: { Int64((WallClock.now() * 1000).rounded(.down)) },
                utcOffset: { seconds in
                    var time = time_t(seconds)
                    var parts = tm()
                    return localtime_r(&time, &parts) == nil ? 0 : Int(parts.tm_gmtoff)
                })
        }
    }

    /// Values over every other of their name: `--variable NAME=VALUE`, and a request's own
    /// `# @prompt` answers (`overriding`).
    private var overrides: [String: [UInt8]] = [:]
    private var fileValues: [String: [UInt8]] = [:]
    private let environment: [String: [UInt8]]
    /// The longest text an expansion may produce.
    private let maximumLength: Int
    /// Added to the message for an undefined variable (which environment was used, if any).
    private let undefinedHint: String?
    let sources: Sources
    /// The process's environment, for `{{$processEnv NAME}}`.
    let processEnvironment: (String) -> String?
    /// The `.env` file beside the `.http` file, for `{{$dotenv NAME}}`; nil when there is none.
    let dotenv: HTTPFileDotenv.Loader?
    /// Gives the value of a reference to another request of the run, written as between the
    /// braces (`login.response.body.$.token`), at a line; nil when the text is no such
    /// reference. Nil when the file is expanded outside a run, where such a reference is an
    /// undefined variable.
    package var requestValues: ((String, Int) throws(HTTPFileError) -> String?)?
    /// Whether `{{$processEnv NAME}}` may read the environment variable NAME (`--allow-env`); nil
    /// lets it read any.
    package var allowsProcessVariable: (@Sendable (String) -> Bool)?

    /// Variables from `file` (a later definition of one name wins) over `environment`.
    package init(
        file: [HTTPFileVariable], environment: [String: String], undefinedHint: String? = nil,
        sources: Sources = .system, processEnvironment: @escaping (String) -> String? = HTTPFileVariables.getenvValue,
        dotenv: HTTPFileDotenv.Loader? = nil,
        maximumLength: Int = defaultMaximumLength
    ) {
        for variable in file { fileValues[variable.name] = Array(variable.value.utf8) }
        self.environment = environment.mapValues { Array($0.utf8) }
        self.maximumLength = maximumLength
        self.undefinedHint = undefinedHint
        self.sources = sources
        self.processEnvironment = processEnvironment
        self.dotenv = dotenv
    }

    /// These variables with `values` over every other of their names.
    package func overriding(_ values: [String: String]) -> HTTPFileVariables {
        if values.isEmpty { return self }
        var variables = self
        for (name, value) in values { variables.overrides[name] = Array(value.utf8) }
        return variables
    }

    /// Whether `name` may name a variable: letters, digits, `_`, `.` and `-`.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            }
    }

    /// `text` with every `{{name}}` replaced; errors name `line`.
    package func expand(_ text: String, line: Int) throws(HTTPFileError) -> String {
        guard text.containsVariableOpening() else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 32)
        var references = 0
        try expand(Array(text.utf8)[...], into: &result, references: &references, line: line, chain: [])
        return String(decoding: result, as: UTF8.self)
    }

    /// Appends `text` to `result` with its references replaced (bytes, so long bodies stay fast).
    private func expand(
        _ text: ArraySlice<UInt8>, into result: inout [UInt8], references: inout Int, line: Int, chain: [String]
    ) throws(HTTPFileError) {
        let brace = UInt8(ascii: "{")
        let closing = UInt8(ascii: "}")
        var index = text.startIndex
        var copied = index
        while index + 1 < text.endIndex {
            guard text[index] == brace, text[index + 1] == brace else {
                index += 1
                continue
            }
            var close = index + 2
            while close + 1 < text.endIndex, !(text[close] == closing && text[close + 1] == closing) { close += 1 }
            guard close + 1 < text.endIndex else { break }
            result += text[copied..<index]
            // Blanks around the name are not part of it (`{{ host }}`).
            var start = index + 2
            var end = close
            while start < end, text[start] == 0x20 || text[start] == 0x09 { start += 1 }
            while end > start, text[end - 1] == 0x20 || text[end - 1] == 0x09 { end -= 1 }
            let reference = String(decoding: text[start..<end], as: UTF8.self)
            references += 1
            guard references <= Self.maximumReferences else {
                throw HTTPFileError(
                    line: line, reason: "variables expand to more than \(Self.maximumReferences) references")
            }
            try appendValue(of: reference, into: &result, references: &references, line: line, chain: chain)
            guard result.count <= maximumLength else {
                throw HTTPFileError(line: line, reason: "variables expand to more than \(maximumLength >> 20) MiB")
            }
            index = close + 2
            copied = index
        }
        result += text[copied...]
    }

    /// Appends the value of one `{{reference}}`, itself expanded.
    private func appendValue(
        of reference: String, into result: inout [UInt8], references: inout Int, line: Int, chain: [String]
    ) throws(HTTPFileError) {
        let first = reference.utf8.first
        if first == UInt8(ascii: "$") {
            result += try systemValue(reference, line: line).utf8
            return
        }
        if first == UInt8(ascii: "%") {
            // REST Client's `{{%name}}`: the value, expanded, then percent-encoded as a URI component.
            var value: [UInt8] = []
            let name = reference.dropFirst()[...].trimmingBlanks()
            try appendValue(of: name, into: &value, references: &references, line: line, chain: chain)
            Self.appendPercentEncoded(value, into: &result)
            return
        }
        if chain.contains(reference) {
            let cycle = (chain.drop(while: { $0 != reference }) + [reference]).joined(separator: " → ")
            throw HTTPFileError(line: line, reason: "variable \(reference) refers to itself (\(cycle))")
        }
        guard chain.count < Self.maximumDepth else {
            throw HTTPFileError(
                line: line, reason: "variables refer to each other more than \(Self.maximumDepth) levels deep")
        }
        // Looked up only where there are values: a lookup hashes the whole reference.
        guard
            let raw = (overrides.isEmpty ? nil : overrides[reference])
                ?? (fileValues.isEmpty ? nil : fileValues[reference])
                ?? (environment.isEmpty ? nil : environment[reference])
        else {
            if let requestValues, let value = try requestValues(reference, line) {
                result += value.utf8
                return
            }
            var reason = "variable {{\(reference)}} is not defined"
            if reference.contains(".response.") {
                reason += " (a value from another request's response is given only in afcli run)"
            } else if let undefinedHint {
                reason += " (\(undefinedHint))"
            }
            throw HTTPFileError(line: line, reason: reason)
        }
        try expand(raw[...], into: &result, references: &references, line: line, chain: chain + [reference])
    }

    /// The value of the process's environment variable `name` (getenv).
    package static func getenvValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The value of a name in the chosen environment (`{{$processEnv %name}}` looks a name up there).
    func environmentValue(_ name: String) -> String? {
        environment[name].map { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends `bytes` percent-encoded as JavaScript's `encodeURIComponent` does: letters, digits
    /// and `-_.!~*'()` are kept, every other byte is `%XX`.
    static func appendPercentEncoded(_ bytes: [UInt8], into result: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                result.append(byte)
            case _ where "-_.!~*'()".utf8.contains(byte):
                result.append(byte)
            default:
                result += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
    }
}
