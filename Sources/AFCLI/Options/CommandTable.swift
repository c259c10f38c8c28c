/// One subcommand: the word that selects it, what follows it, and how it is described.
///
/// `CommandTable` holds one per subcommand and is the single source for the parser's dispatch,
/// the command list of `--help`, the man page's synopsis and the completion scripts, as
/// `OptionTable` is for options.
package struct CommandSpec: Equatable, Sendable {
    /// What the words after the subcommand may be.
    package enum Arguments: Equatable, Sendable {
        /// Nothing.
        case none
        /// At most one word.
        case optionalOne
        /// Exactly one word; `missing` is the error when it is absent.
        case exactlyOne(missing: UsageError)
        /// One word or more; `missing` is the error when there is none.
        case oneOrMore(missing: UsageError)
        /// Up to this many words; the command checks what they say.
        case atMost(Int)
    }

    /// The word typed as the first positional (`download`).
    package let word: String
    /// What follows the word in a synopsis (`URL... [OPTION...]`).
    package let usage: String
    /// A short description for `--help` and the completions (lower case, no final period).
    package let summary: String
    /// The words the subcommand accepts after its own.
    package let arguments: Arguments

    /// The synopsis line, `afcli WORD USAGE`.
    package var synopsis: String {
        usage.isEmpty ? "afcli \(word)" : "afcli \(word) \(usage)"
    }

    /// The word and its arguments without the options, compact for `--help`'s command list
    /// (`reachability [HOST[:PORT]|URL]`).
    package var briefUsage: String {
        let arguments = usage.replacingSpacedBars.split(separator: " ").filter {
            $0 != "[OPTION...]" && !$0.hasPrefix("[--")
        }
        return ([word] + arguments.map(String.init)).joined(separator: " ")
    }
}

/// The subcommands, in the order help and the man page list them. A subcommand is a reserved
/// word only as the first positional before `--` (`afcli -- help` requests `http://help`);
/// `--version` and `--help` are options, in `OptionTable`.
package enum CommandTable {
    package static let all: [CommandSpec] = [
        CommandSpec(word: "help", usage: "", summary: "show the whole manual", arguments: .none),
        CommandSpec(
            word: "completions", usage: "bash|zsh|fish", summary: "print a completion script",
            arguments: .exactlyOne(missing: .missingShell)),
        CommandSpec(
            word: "man", usage: "[markdown]", summary: "print the man page (or the Markdown reference)",
            arguments: .optionalOne),
        CommandSpec(
            word: "download", usage: "URL... [OPTION...]", summary: "download files, with resume",
            arguments: .oneOrMore(missing: .missingURL)),
        CommandSpec(
            word: "run", usage: "SOURCE [OPTION...]",
            summary: "send the requests of a .http file or stdin (-)",
            arguments: .exactlyOne(missing: .missingSource)),
        CommandSpec(
            word: "pin", usage: "URL [OPTION...]", summary: "print the key pins of a server's certificates",
            arguments: .exactlyOne(missing: .missingURL)),
        CommandSpec(
            word: "reachability", usage: "[HOST[:PORT] | URL] [--probe] [--watch] [--json]",
            summary: "tell whether and how a host can be reached", arguments: .optionalOne),
        CommandSpec(
            word: "env", usage: "[show NAME]", summary: "list the config's environments, or show one",
            arguments: .atMost(2)),
        CommandSpec(
            word: "config", usage: "path", summary: "print where the config file is read from", arguments: .atMost(1)),
        CommandSpec(
            word: "cache", usage: "ls | show URL | rm URL|--all | prune | path [OPTION...]",
            summary: "list, show, remove or prune stored responses",
            arguments: .oneOrMore(missing: .refusedFlag(option: "cache", reason: "missing action (ls, show URL, rm URL|--all, prune or path)"))),
    ]

    /// The subcommand selected by `word`, or nil when the word is a METHOD or URL.
    package static func spec(for word: String) -> CommandSpec? {
        all.first { $0.word == word }
    }

    /// The subcommand words.
    package static var words: [String] { all.map(\.word) }

    /// Checks the words after a subcommand against its `arguments`; throws the usage error for a
    /// missing or an extra word.
    static func checkArguments(_ arguments: ArraySlice<String>, of spec: CommandSpec) throws(UsageError) {
        let extra: String?
        switch spec.arguments {
        case .none:
            extra = arguments.first
        case .optionalOne:
            extra = arguments.dropFirst().first
        case .exactlyOne(let missing):
            guard !arguments.isEmpty else { throw missing }
            extra = arguments.dropFirst().first
        case .oneOrMore(let missing):
            guard !arguments.isEmpty else { throw missing }
            extra = nil
        case .atMost(let count):
            extra = arguments.dropFirst(count).first
        }
        if let extra { throw UsageError.unexpectedArgument(command: spec.word, argument: extra) }
    }
}

extension String {
    /// The text with ` | ` written `|`, so an alternative stays one word.
    fileprivate var replacingSpacedBars: String {
        split(separator: " | ", omittingEmptySubsequences: false).joined(separator: "|")
    }
}
