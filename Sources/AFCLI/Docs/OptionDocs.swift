import AFKit

/// The program's name, version and release date, as printed by `--version` and the man page.
package enum ProgramInfo {
    /// The command's name.
    package static let name = "afcli"
    /// The release version, the one `User-Agent` also reports.
    package static var version: String { AFKitVersion.current }
    /// The release date shown in the man page's footer; fixed, so the page is reproducible.
    package static let releaseDate = "2026-11-22"
    /// The `--version` output line (without newline), `afcli 0.1.0`.
    package static var versionLine: String { name + " " + version }
}

/// The entry points for every text generated from the option table, for the `afcli help`,
/// `completions` and `man` commands, `--help`, `--version` and the Makefile's `docs` target.
package enum OptionDocs {
    /// The `--help` text.
    package static func shortHelp() -> String { HelpText.short() }

    /// The `afcli help` text: the manual as plain text.
    package static func longHelp() -> String { HelpText.long() }

    /// The man page's roff source, as committed in `man/afcli.1`.
    package static func manPage() -> String { ManPage.render() }

    /// The manual in a format: the man page, or the Markdown reference committed in `docs/`.
    package static func manual(_ format: ManualFormat) -> String {
        switch format {
        case .roff: return manPage()
        case .markdown: return MarkdownReference.render()
        }
    }

    /// The completion script for a shell, as committed in `completions/`.
    package static func completions(_ shell: Shell) -> String { Completions.script(for: shell) }

    /// The text a non-request command prints on stdout (ending in a newline), or nil for
    /// `.request`, which the caller runs.
    package static func output(for command: Command) -> String? {
        switch command {
        case .request, .download, .run, .pin, .reachability, .environments, .configPath, .cache: return nil
        case .help(.short): return shortHelp()
        case .help(.long): return longHelp()
        case .help(.cache): return HelpText.cache()
        case .completions(let shell): return completions(shell)
        case .manPage(let format): return manual(format)
        case .version: return ProgramInfo.versionLine + "\n"
        }
    }

    /// The committed generated files, relative to the repository root, with the command that
    /// prints each one and its expected contents.
    package static var generatedFiles: [(path: String, command: String, contents: String)] {
        [
            ("man/afcli.1", "afcli man", manPage()),
            (MarkdownReference.path, "afcli man markdown", MarkdownReference.render()),
            ("completions/afcli.bash", "afcli completions bash", completions(.bash)),
            ("completions/_afcli", "afcli completions zsh", completions(.zsh)),
            ("completions/afcli.fish", "afcli completions fish", completions(.fish)),
        ]
    }
}
