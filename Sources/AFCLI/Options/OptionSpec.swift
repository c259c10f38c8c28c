import AFKit

/// One command-line option as data: its spellings, its documentation, and what it does to
/// `Settings`.
///
/// The parser, `--help`, `afcli help`, the man page and the shell completions all read the same
/// `OptionTable.all`, so an option exists everywhere or nowhere. Every option also has a generated
/// `--no-X` form that runs `reset`.
package struct OptionSpec: Sendable {
    /// Applies an option's value (nil for a flag) to the settings, or throws an `OptionValueError`
    /// explaining why the value is bad.
    package typealias Apply = @Sendable (inout Settings, String?) throws -> Void
    /// Makes the settings as if the option had never been given (the `--no-X` form).
    package typealias Reset = @Sendable (inout Settings) -> Void

    /// The long name without dashes (`follow` for `--follow`).
    package let long: String
    /// The commands the option does something for. Typed on another command's line it is refused
    /// (exit status 2, nothing sent) rather than silently ignored; from the config's
    /// `default_options` it is passed over there (`ArgumentParser`, `OptionScope`).
    package let scope: CommandScope
    /// The short letter (`F` for `-F`), if any.
    package let short: Character?
    /// The value's placeholder (`SECONDS`); nil for a flag.
    package let valueName: String?
    /// The section the option is listed in.
    package let group: OptionGroup
    /// A one-line summary for `--help`, lower case, no final period, at most 46 characters
    /// (the longest synopsis plus this fits 80 columns).
    package let help: String
    /// A paragraph for the man page and `afcli help`, in sentences.
    package let description: String
    /// What shells offer when completing the value.
    package let completion: ValueCompletion
    /// Applies the option.
    package let apply: Apply
    /// Undoes the option (runs for `--no-X`).
    package let reset: Reset
    /// For a flag that may also take a value after `=` (`--simulate[=URL]`): the value's
    /// placeholder. The value is never taken from the next argument.
    package private(set) var optionalValueName: String? = nil

    package init(
        long: String, scope: CommandScope, short: Character? = nil, valueName: String? = nil, group: OptionGroup,
        help: String,
        description: String, completion: ValueCompletion = .none, apply: @escaping Apply,
        reset: @escaping Reset
    ) {
        self.long = long
        self.scope = scope
        self.short = short
        self.valueName = valueName
        self.group = group
        self.help = help
        self.description = description
        self.completion = completion
        self.apply = apply
        self.reset = reset
    }

    /// Whether the option takes a value.
    package var takesValue: Bool { valueName != nil }

    /// This flag, also accepting `--long=VALUE` (`apply` then gets the value, else nil).
    package func withOptionalValue(_ name: String) -> OptionSpec {
        var spec = self
        spec.optionalValueName = name
        return spec
    }

    /// The long spelling with dashes (`--follow`).
    package var longFlag: String { "--" + long }

    /// The short spelling with a dash (`-F`), if any.
    package var shortFlag: String? { short.map { "-" + String($0) } }

    /// The generated negative spelling (`--no-follow`).
    package var negatedFlag: String { "--no-" + long }

    /// The spellings and value as shown in help: `-a, --auth USER[:PASS]` or `    --offline`.
    package var synopsis: String {
        var text = shortFlag.map { $0 + ", " } ?? "    "
        text += longFlag
        if let valueName { text += " " + valueName }
        if let optionalValueName { text += "[=" + optionalValueName + "]" }
        return text
    }
}

/// The sections options are grouped into, in display order.
package enum OptionGroup: String, CaseIterable, Sendable {
    case request
    case authentication
    case output
    case network
    case general

    /// The heading used in help and the man page (`Request`).
    package var title: String {
        switch self {
        case .request: return "Request"
        case .authentication: return "Authentication"
        case .output: return "Output"
        case .network: return "Network"
        case .general: return "General"
        }
    }
}

/// What a shell completion offers for an option's value.
package enum ValueCompletion: Equatable, Sendable {
    /// Nothing in particular (free text or a number).
    case none
    /// These words (enum values or common choices).
    case words([String])
    /// File names.
    case file
    /// URLs.
    case url
    /// The names of the config's environments, as `afcli env` lists them.
    case environmentNames
}

/// Why an option's value was rejected, without the option's name; the parser adds the name and
/// the value to make a `UsageError`.
package struct OptionValueError: ClassifiedError, Equatable, Sendable {
    /// A lower-case predicate such as `is not a positive integer`.
    package let reason: String

    /// A refused option value (the parser reports it as a `UsageError`).
    package var failureClass: FailureClass { .badInput }

    package init(_ reason: String) {
        self.reason = reason
    }
}

/// Checks and converts option values; each function states its rule in its error reason.
package enum OptionValueParser {
    /// A positive decimal integer without sign, such as `30`.
    package static func positiveInteger(_ text: String) throws(OptionValueError) -> Int {
        guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit), let number = Int(text), number > 0 else {
            throw OptionValueError("is not a positive integer")
        }
        return number
    }

    /// A positive number of seconds in plain decimal notation (`5`, `0.5`, `2.`), so that `inf`,
    /// `nan`, exponents and hex floats, which `Double.init` would accept, are refused.
    package static func positiveSeconds(_ text: String) throws(OptionValueError) -> Double {
        let dots = text.filter { $0 == "." }.count
        let digits = text.filter(\.isASCIIDigit).count
        guard digits > 0, dots <= 1, digits + dots == text.count, let seconds = Double(text), seconds.isFinite,
            seconds > 0
        else {
            throw OptionValueError("is not a positive number of seconds")
        }
        return seconds
    }

    /// A byte count as curl's `--max-filesize` takes it: decimal digits with an optional k, m or
    /// g suffix (KiB, MiB, GiB; either case), such as `500k` or `2G`.
    package static func byteCount(_ text: String) throws(OptionValueError) -> Int64 {
        let units: [Character: Int64] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.lowercased())] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let number = Int64(digits), number > 0,
            number <= Int64.max / (unit ?? 1)
        else { throw OptionValueError("is not a positive number of bytes, optionally with k, m or g (500k, 2g)") }
        return number * (unit ?? 1)
    }

    /// A non-negative decimal integer without sign, such as `0` or `1000`.
    package static func nonNegativeInteger(_ text: String) throws(OptionValueError) -> Int {
        guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit), let number = Int(text) else {
            throw OptionValueError("is not a whole number from 0 up")
        }
        return number
    }

    /// An HTTP method: one or more token characters (RFC 9110 §5.6.2), kept as typed.
    package static func methodToken(_ text: String) throws(OptionValueError) -> String {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy(isTokenCharacter) else {
            throw OptionValueError("is not a valid method name (letters, digits and !#$%&'*+-.^_`|~ only)")
        }
        return text
    }

    /// `--print` letters: one or more of `HBhbm`.
    package static func printParts(_ text: String) throws(OptionValueError) -> Settings.PrintParts {
        guard let parts = Settings.PrintParts(letters: text) else {
            throw OptionValueError("may only contain the letters H, B, h, b and m")
        }
        return parts
    }

    /// A value that must not be empty, such as a file name or URL.
    package static func nonEmpty(_ text: String, what: String) throws(OptionValueError) -> String {
        guard !text.isEmpty else { throw OptionValueError("is not \(what)") }
        return text
    }

    /// One of an enum's raw values, listed in the error when missing.
    package static func choice<Choice: RawRepresentable & CaseIterable>(
        _ text: String, of type: Choice.Type
    ) throws(OptionValueError) -> Choice where Choice.RawValue == String {
        guard let value = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue)
            throw OptionValueError("is not one of " + names.joined(separator: ", "))
        }
        return value
    }

    /// `[PROTOCOL:]URL` where PROTOCOL is `http`, `https` or `all`, as HTTPie spells it.
    ///
    /// `http://proxy:3128` is a URL for every protocol, not PROTOCOL `http` with URL `//proxy:3128`:
    /// a prefix counts as PROTOCOL only when what follows it does not start with `//`.
    package static func proxy(_ text: String) throws(OptionValueError) -> Settings.Proxy {
        if let colon = text.firstIndex(of: ":"),
            let scope = Settings.Proxy.Scope(rawValue: String(text[..<colon]).lowercased())
        {
            let rest = String(text[text.index(after: colon)...])
            if !rest.hasPrefix("//") {
                guard !rest.isEmpty else { throw OptionValueError("has no proxy URL after the protocol") }
                return Settings.Proxy(scope: scope, url: rest)
            }
        }
        guard !text.isEmpty else { throw OptionValueError("is not a proxy URL") }
        return Settings.Proxy(scope: .all, url: text)
    }

    /// Whether a scalar is an RFC 9110 `tchar`.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        default: return "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
        }
    }
}

extension Character {
    /// Whether the character is one of the ASCII digits 0 to 9.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
