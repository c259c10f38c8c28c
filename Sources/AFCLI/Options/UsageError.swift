import AFKit

/// A mistake on the command line, found before anything is sent; afcli reports it on stderr as
/// `afcli: error: <description>` and exits with status 2 (`ExitStatus.usage`).
package enum UsageError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    /// An option that is not in the table, with the closest known spelling if there is one.
    case unknownOption(String, suggestion: String?)
    /// An option that takes a value came last, with nothing after it.
    case missingValue(option: String, valueName: String)
    /// An option's value was rejected; `reason` is a predicate such as `is not a positive integer`.
    case invalidValue(option: String, value: String, reason: String)
    /// A flag (or a `--no-X` form) was given a value with `=`.
    case unexpectedValue(option: String)
    /// A flag that cannot work here (`--http3` without HTTP/3 in libcurl); `reason` is a clause.
    case refusedFlag(option: String, reason: String)
    /// `afcli completions` without a shell name.
    case missingShell
    /// `afcli completions NAME` with a shell afcli has no script for.
    case unknownShell(String)
    /// A subcommand was followed by an argument it does not take.
    case unexpectedArgument(command: String, argument: String)
    /// No URL (no positional argument at all) for a request.
    case missingURL
    /// `afcli run` without a SOURCE (a `.http` file, or `-` for standard input).
    case missingSource
    /// A first positional that reads as a method afcli does not know, followed by a URL.
    case unknownMethod(String)
    /// An option that has no meaning for the subcommand it was given to (`pin --offline`).
    case notForCommand(option: String, command: String, reason: String)

    /// Every case is a mistake on the command line.
    package var failureClass: FailureClass { .badInput }

    /// The message, in lower case, without the `afcli: error: ` prefix.
    package var description: String {
        switch self {
        case .unknownOption(let option, let suggestion):
            guard let suggestion else { return "unknown option \(option)" }
            return "unknown option \(option) (did you mean \(suggestion)?)"
        case .missingValue(let option, let valueName):
            return "\(option) requires a value (\(valueName))"
        case .invalidValue(let option, let value, let reason):
            return "\(option): \"\(value)\" \(reason)"
        case .unexpectedValue(let option):
            return "\(option) takes no value"
        case .refusedFlag(let option, let reason):
            return "\(option): \(reason)"
        case .missingShell:
            return "completions: missing shell (expected \(Self.shellList))"
        case .unknownShell(let name):
            return "completions: unknown shell \"\(name)\" (expected \(Self.shellList))"
        case .unexpectedArgument(let command, let argument):
            return "\(command): unexpected argument \"\(argument)\""
        case .notForCommand(let option, let command, let reason):
            return "\(option) does not apply to afcli \(command) (\(reason))"
        case .missingURL:
            return "missing URL (see afcli --help)"
        case .missingSource:
            return "run: missing SOURCE (a .http file, or - for command lines on standard input)"
        case .unknownMethod(let word):
            return
                "\"\(word)\" is not a URL, and METHOD is one of get, head, post, put, patch, delete or options "
                + "(did you mean --method \(word.uppercased())?)"
        }
    }

    /// `bash, zsh or fish`, from `Shell.allCases`.
    private static var shellList: String {
        let names = Shell.allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}

/// Finds the known option a mistyped one most likely meant.
package enum OptionSuggester {
    /// Every long spelling the parser accepts, `--no-X` forms included, in table order.
    package static let knownSpellings: [String] =
        OptionTable.all.map(\.longFlag) + OptionTable.all.map(\.negatedFlag)

    /// The closest known spelling to `typed` (a long option with its dashes, without `=value`):
    /// the smallest edit distance if it is small for the name's length (one edit up to 7
    /// characters, two from 8, so `--session` is not taken for `--version`), else the first
    /// spelling `typed` is a prefix of, else nil.
    package static func suggestion(for typed: String) -> String? {
        let name = Array(typed.drop(while: { $0 == "-" }))
        guard !name.isEmpty else { return nil }
        let allowed = name.count >= 8 ? 2 : 1
        var best: (spelling: String, distance: Int)?
        for spelling in knownSpellings {
            let distance = editDistance(name, Array(spelling.dropFirst(2)))
            if distance <= allowed, distance < (best?.distance ?? Int.max) {
                best = (spelling, distance)
            }
        }
        if let best { return best.spelling }
        return knownSpellings.first { $0.dropFirst(2).hasPrefix(String(name)) }
    }

    /// The optimal-string-alignment distance between two strings: insertions, deletions,
    /// substitutions and swaps of two neighbours (`--follwo`) each count one.
    package static func editDistance(_ source: [Character], _ target: [Character]) -> Int {
        if source.isEmpty { return target.count }
        if target.isEmpty { return source.count }
        var beforePrevious = Array(repeating: 0, count: target.count + 1)
        var previous = Array(0...target.count)
        var current = Array(repeating: 0, count: target.count + 1)
        for row in 1...source.count {
            current[0] = row
            for column in 1...target.count {
                let cost = source[row - 1] == target[column - 1] ? 0 : 1
                current[column] = min(previous[column - 1] + cost, previous[column] + 1, current[column - 1] + 1)
                if row > 1, column > 1, source[row - 1] == target[column - 2], source[row - 2] == target[column - 1] {
                    current[column] = min(current[column], beforePrevious[column - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[target.count]
    }
}
