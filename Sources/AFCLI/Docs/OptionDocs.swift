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
    /// The manual in a format: the man page's roff source (`man/afcli.1`), or the Markdown
    /// reference committed in `docs/`.
    package static func manual(_ format: ManualFormat) -> String {
        switch format {
        case .roff: return ManPage.render()
        case .markdown: return MarkdownReference.render()
        }
    }

    /// The text a command that only prints prints on stdout (ending in a newline): `--help`, the
    /// `afcli help` manual, completions, the man page, `--version`; nil for the commands that run.
    package static func output(for command: Command) -> String? {
        switch command {
        case .request, .download, .run, .pin, .reachability, .environments, .configPath, .cache: return nil
        case .help(.short): return HelpText.short()
        case .help(.long): return HelpText.long()
        case .help(.cache): return HelpText.cache()
        case .completions(let shell): return Completions.script(for: shell)
        case .manPage(let format): return manual(format)
        case .version: return ProgramInfo.versionLine + "\n"
        }
    }

    /// The committed generated files, relative to the repository root, with the command that
    /// prints each one and its expected contents.
    package static var generatedFiles: [(path: String, command: String, contents: String)] {
        [
            ("man/afcli.1", "afcli man", manual(.roff)),
            (MarkdownReference.path, "afcli man markdown", manual(.markdown)),
            ("completions/afcli.bash", "afcli completions bash", Completions.script(for: .bash)),
            ("completions/_afcli", "afcli completions zsh", Completions.script(for: .zsh)),
            ("completions/afcli.fish", "afcli completions fish", Completions.script(for: .fish)),
        ]
    }
}
