#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Substitutes `{{name}}` in a `.http` file's text: file variables (`@name = value`) first, then
/// the chosen environment's, then the dynamic variables `{{$uuid}}` (also `$random.uuid`,
/// `$guid`), `{{$timestamp}}`, `{{$isoTimestamp}}` and `{{$randomInt}}` (`$randomInt MIN MAX`).
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

    /// Where dynamic variables take the time and randomness from (fixed in tests).
    package struct Sources {
        package var now: () -> Int64
        package var random: () -> UInt64

        package init(now: @escaping () -> Int64, random: @escaping () -> UInt64) {
            self.now = now
            self.random = random
        }

        /// The clock and the system's random generator.
        package static var system: Sources {
            Sources(now: { Int64(time(nil)) }, random: { UInt64.random(in: .min ... .max) })
        }
    }

    private var fileValues: [String: [UInt8]] = [:]
    private let environment: [String: [UInt8]]
    /// The longest text an expansion may produce.
    private let maximumLength: Int
    /// Added to the message for an undefined variable (which environment was used, if any).
    private let undefinedHint: String?
    private let sources: Sources

    /// Variables from `file` (a later definition of one name wins) over `environment`.
    package init(
        file: [HTTPFileVariable], environment: [String: String], undefinedHint: String? = nil,
        sources: Sources = .system, maximumLength: Int = defaultMaximumLength
    ) {
        for variable in file { fileValues[variable.name] = Array(variable.value.utf8) }
        self.environment = environment.mapValues { Array($0.utf8) }
        self.maximumLength = maximumLength
        self.undefinedHint = undefinedHint
        self.sources = sources
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
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result: [UInt8] = []
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
            let reference = String(decoding: text[(index + 2)..<close], as: UTF8.self)[...].trimmingBlanks()
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
        if reference.hasPrefix("$") {
            result += try dynamicValue(reference, line: line).utf8
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
        guard let raw = fileValues[reference] ?? environment[reference] else {
            var reason = "variable {{\(reference)}} is not defined"
            if reference.contains(".response.") {
                reason += " (values from other requests' responses are not supported)"
            } else if let undefinedHint {
                reason += " (\(undefinedHint))"
            }
            throw HTTPFileError(line: line, reason: reason)
        }
        try expand(raw[...], into: &result, references: &references, line: line, chain: chain + [reference])
    }

    /// `$uuid`, `$timestamp`, `$isoTimestamp`, `$randomInt [MIN MAX]`.
    private func dynamicValue(_ reference: String, line: Int) throws(HTTPFileError) -> String {
        let words = reference.split(separator: " ", omittingEmptySubsequences: true)
        switch words.first ?? "" {
        case "$uuid", "$random.uuid", "$guid":
            guard words.count == 1 else { break }
            return uuid()
        case "$timestamp":
            guard words.count == 1 else { break }
            return String(sources.now())
        case "$isoTimestamp":
            guard words.count == 1 else { break }
            return Self.isoTimestamp(sources.now())
        case "$randomInt", "$random.integer":
            if words.count == 1 { return String(sources.random() % 1000) }
            guard words.count == 3, let low = Int64(words[1]), let high = Int64(words[2]) else {
                throw HTTPFileError(
                    line: line, reason: "{{\(reference)}}: \(words[0]) takes no arguments or two integers, MIN MAX")
            }
            guard low < high else {
                throw HTTPFileError(
                    line: line, reason: "{{\(reference)}}: the minimum \(low) is not less than the maximum \(high)")
            }
            // The span is computed without trapping: the bounds may be any two 64-bit numbers.
            guard case (let span, let overflow) = high.subtractingReportingOverflow(low), !overflow,
                span <= Int64(Int32.max)
            else {
                throw HTTPFileError(
                    line: line, reason: "{{\(reference)}}: MAX - MIN may be at most \(Int32.max)")
            }
            return String(low + Int64(sources.random() % UInt64(span)))
        default:
            throw HTTPFileError(
                line: line,
                reason: "dynamic variable {{\(reference)}} is not supported "
                    + "(afcli knows $uuid, $timestamp, $isoTimestamp and $randomInt)")
        }
        throw HTTPFileError(line: line, reason: "{{\(reference)}}: unexpected arguments")
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

    /// `seconds` since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
    static func isoTimestamp(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return String(seconds) }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
