/// A source of `afcli run`'s requests, declared as data: what it cannot honour of the options
/// `afcli run` itself takes, each with why. `OptionScopes.check` reads it with the option scopes,
/// so an option a source cannot honour is refused with a reason, never accepted and ignored.
struct RunSource: Sendable {
    /// Why a source refuses an option.
    enum Refusal: Equatable, Sendable {
        /// The option would do nothing for the source's requests, for this reason (a clause).
        case doesNotApply(String)
        /// The option shapes the whole run (its output, its program), so a line cannot give it.
        case belongsToTheRun
    }

    /// How messages name the command with this source (`run with a .http file`).
    let word: String
    /// The options the source cannot honour, by long name.
    let refusals: [String: Refusal]

    /// The source the SOURCE word of `afcli run SOURCE` names: command lines on standard input
    /// for `-`, else a `.http` file.
    static func of(_ word: String) -> RunSource {
        word == "-" || word.isEmpty ? commandLines : httpFile
    }

    /// `afcli run -`: every line is built from items, so the run takes what `afcli run` takes,
    /// but for the bounds of a `.http` file: its lines are afcli command lines, which name files
    /// (and commands, `--auth-cmd`) as typed, as a shell script does.
    static let commandLines: RunSource = {
        let typed = Refusal.doesNotApply(
            "its lines are afcli command lines, which read the files and variables they name as typed")
        return RunSource(
            word: "run -",
            refusals: [
                "file-root": typed, "allow-env": typed,
                "variable": .doesNotApply("its lines are afcli command lines, which hold no {{variables}}"),
            ])
    }()

    /// A `.http` file writes each request's method, headers and body itself, and its URLs do not
    /// go through a config environment.
    static let httpFile: RunSource = {
        let written = Refusal.doesNotApply("the file writes each request's method, headers and body")
        let itemBody = ["method", "json", "form", "multipart", "plist", "raw", "boundary"]
        var refusals = Dictionary(uniqueKeysWithValues: itemBody.map { ($0, written) })
        refusals["simulate"] = .doesNotApply("its URLs are its own; --base-url joins the paths it writes")
        return RunSource(word: "run with a .http file", refusals: refusals)
    }()

    /// One line of `afcli run -`: the options that shape output or the program (the output and
    /// general groups) and those that belong to the run, or make no sense for one request of it,
    /// are given on the `afcli run` command line instead.
    static let line: RunSource = {
        let runGroups: Set<OptionGroup> = [.output, .general]
        let runOptions: Set<String> = [
            "offline", "curl", "show-secrets", "env", "session", "session-read-only",
            "session-store-auth", "cookie-jar", "probe", "watch", "retry", "retry-delay",
            "retry-max-time", "retry-all-errors",
            "parallel", "first", "keep-going", "output-dir", "write-out", "meta", "cache", "cache-ttl",
            "cache-namespace", "oauth2-token-url", "oauth2-scope",
        ]
        var refusals: [String: Refusal] = [:]
        for spec in OptionTable.all where runGroups.contains(spec.group) || runOptions.contains(spec.long) {
            refusals[spec.long] = .belongsToTheRun
        }
        return RunSource(word: "run", refusals: refusals)
    }()
}
