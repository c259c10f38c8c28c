/// A mistake on the command line, found before anything is sent; afcli reports it on stderr as
/// `afcli: error: <description>` and exits with status 2 (`ExitStatus.usage`).
package enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An option that is not in the table, with the closest known spelling if there is one.
    case unknownOption(String, suggestion: String?)
    /// An option that takes a value came last, with nothing after it.
    case missingValue(option: String, valueName: String)
    /// An option's value was rejected; `reason` is a predicate such as `is not a positive integer`.
    case invalidValue(option: String, value: String, reason: String)
    /// A flag (or a `--no-X` form) was given a value with `=`.
    case unexpectedValue(option: String)
    /// `afcli completions` without a shell name.
    case missingShell
    /// `afcli completions NAME` with a shell afcli has no script for.
    case unknownShell(String)
    /// A subcommand was followed by an argument it does not take.
    case unexpectedArgument(command: String, argument: String)
    /// No URL (no positional argument at all) for a request.
    case missingURL
    /// An option that has no meaning for the subcommand it was given to (`pin --offline`).
    case notForCommand(option: String, command: String, reason: String)

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
    /// the smallest edit distance if it is at most 2, else the first spelling `typed` is a prefix
    /// of, else nil.
    package static func suggestion(for typed: String) -> String? {
        let name = Array(typed.drop(while: { $0 == "-" }))
        guard !name.isEmpty else { return nil }
        var best: (spelling: String, distance: Int)?
        for spelling in knownSpellings {
            let distance = editDistance(name, Array(spelling.dropFirst(2)))
            if distance <= 2, distance < (best?.distance ?? Int.max) {
                best = (spelling, distance)
            }
        }
        if let best { return best.spelling }
        return knownSpellings.first { $0.dropFirst(2).hasPrefix(String(name)) }
    }

    /// The Levenshtein distance between two strings: insertions, deletions and substitutions.
    package static func editDistance(_ source: [Character], _ target: [Character]) -> Int {
        if source.isEmpty { return target.count }
        if target.isEmpty { return source.count }
        var previous = Array(0...target.count)
        var current = Array(repeating: 0, count: target.count + 1)
        for (row, sourceCharacter) in source.enumerated() {
            current[0] = row + 1
            for (column, targetCharacter) in target.enumerated() {
                let substitution = previous[column] + (sourceCharacter == targetCharacter ? 0 : 1)
                current[column + 1] = min(substitution, previous[column + 1] + 1, current[column] + 1)
            }
            swap(&previous, &current)
        }
        return previous[target.count]
    }
}
