import Foundation
import XCTest

@testable import AFCLI

/// The generated documents: committed copies are current, the man page renders cleanly, help fits
/// 80 columns, and every option appears everywhere.
final class DocsTests: XCTestCase {
    /// The repository root, three levels above this file (Tests/AFCLITests/DocsTests.swift).
    private let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Set `AFCLI_REGENERATE_DOCS=1` to rewrite the committed files instead of comparing them
    /// (the quick path until `make docs` exists: it runs the same functions).
    func testCommittedGeneratedFilesAreCurrent() throws {
        let regenerate = ProcessInfo.processInfo.environment["AFCLI_REGENERATE_DOCS"] == "1"
        for file in OptionDocs.generatedFiles {
            let url = repositoryRoot.appendingPathComponent(file.path)
            if regenerate {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url)
                continue
            }
            let committed = try? String(contentsOf: url, encoding: .utf8)
            XCTAssertEqual(
                committed, file.contents,
                "generated docs are stale: run 'make docs' (\(file.path) differs from '\(file.command)')")
        }
    }

    func testManPageRendersWithoutGroffWarnings() throws {
        // The default device, and latin1: the one `man` renders with under LANG=C.
        for device in [nil, "latin1"] {
            try checkGroffIsSilent(device: device)
        }
    }

    private func checkGroffIsSilent(device: String?) throws {
        let groff = ["/usr/bin/groff", "/usr/local/bin/groff"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let groff else { throw XCTSkip("groff is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: groff)
        process.arguments = ["-man", "-ww", "-z"] + (device.map { ["-T" + $0] } ?? [])
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C", "LC_ALL": "C"]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(ManPage.render().utf8))
        try input.fileHandleForWriting.close()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(stderr, "", "groff -T\(device ?? "default")")
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testManPageHasEverySectionInOrder() {
        let page = ManPage.render()
        let titles = page.split(separator: "\n").filter { $0.hasPrefix(".SH ") }.map { $0.dropFirst(4) }
        XCTAssertEqual(
            titles,
            [
                "NAME", "SYNOPSIS", "\"DESCRIPTION\"", "\"REQUEST ITEMS\"", "\"FILE UPLOADS\"", "\"DOWNLOADS\"",
                "\"TLS AND PINNING\"", "\"REACHABILITY\"", "\"RESPONSES\"", "\"JSONPATH\"",
                "\"VALIDATION AND THE REQUEST LOG\"", "\"STREAMING RESPONSES\"", "\"TIMEOUTS, LIMITS AND REDIRECTS\"",
                "\"RETRIES AND PACING\"",
                "\"HTTP VERSIONS AND HSTS\"", "\"SESSIONS, COOKIES AND NETRC\"", "\"THE CURL COMMAND\"", "\"AUTHENTICATION\"",
                "\"CONFIG FILE AND ENVIRONMENTS\"", "\"ENCRYPTION HOOKS AND ENVELOPES\"", "\"RESPONSE CACHE\"",
                "\"MANY REQUESTS: AFCLI RUN\"", "\"REQUEST FILES (.HTTP)\"",
                "\"VALUES FROM EARLIER RESPONSES\"", "\"REQUESTS ON STANDARD INPUT\"", "\"TESTING APIS WITH AFCLI RUN\"", "\"METRICS\"", "\"OPTIONS\"", "\"EXIT STATUS\"",
                "\"ENVIRONMENT\"", "\"FILES\"", "\"EXAMPLES\"",
            ])
    }

    func testManPageListsEveryOptionWithItsNoForm() {
        let page = ManPage.render()
        XCTAssertTrue(
            page.contains(
                ".TP\n\\fB\\-a\\fR, \\fB\\-\\-auth\\fR \\fIUSER\\fR[:\\fIPASS\\fR], \\fB\\-\\-no\\-auth\\fR\n"))
        for spec in OptionTable.all {
            XCTAssertTrue(page.contains(Roff.bold(spec.longFlag)), spec.long)
            XCTAssertTrue(page.contains(Roff.bold(spec.negatedFlag)), spec.long)
        }
        for status in ExitStatus.allCases {
            XCTAssertTrue(page.contains(".TP\n\\fB\(status.rawValue)\\fR\n"), "\(status)")
        }
    }

    func testRoffEscapesControlCharactersAndNonASCII() {
        XCTAssertEqual(Roff.escape("a-b\\c"), "a\\-b\\(rsc")
        XCTAssertEqual(Roff.escape(".x"), "\\&.x")
        XCTAssertEqual(Roff.escape("'q'"), "\\(aqq\\(aq")
        XCTAssertEqual(Roff.escape("José"), "Jos\\[u00E9]")
        XCTAssertEqual(Roff.escape("invalid…"), "invalid...")
        XCTAssertEqual(Roff.placeholder("[PROTOCOL:]URL"), "[\\fIPROTOCOL\\fR:]\\fIURL\\fR")
    }

    func testShortHelpFitsEightyColumnsAndListsEveryOption() {
        let help = HelpText.short()
        for line in help.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 80, String(line))
        }
        XCTAssertTrue(help.hasPrefix("usage: afcli [METHOD] URL [ITEM...] [OPTION...]\n"))
        XCTAssertTrue(help.contains("\n  -a, --auth USER[:PASS]"))
        XCTAssertTrue(help.contains("\n      --max-redirects N"))
        for spec in OptionTable.all {
            // A synopsis too long for its column has its help on the next line.
            XCTAssertTrue(
                help.contains("\n  " + spec.synopsis + " ") || help.contains("\n  " + spec.synopsis + "\n"), spec.long)
        }
    }

    func testLongHelpFitsEightyColumnsAndHasEverySection() {
        let help = HelpText.long()
        for line in help.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 80, String(line))
        }
        for title in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "REQUEST ITEMS", "OPTIONS", "EXIT STATUS", "ENVIRONMENT",
            "FILES", "EXAMPLES",
        ] {
            XCTAssertTrue(("\n" + help).contains("\n" + title + "\n"), title)
        }
        XCTAssertTrue(help.contains("\n    -F, --follow, --no-follow\n        Follow redirects"))
        XCTAssertTrue(help.contains("\n    130 Interrupted"))
        XCTAssertFalse(help.contains("`"))
        XCTAssertFalse(help.contains("\n\n\n"))
    }

    func testCompletionsOfferEveryOptionSpelling() {
        let bash = Completions.bash()
        let zsh = Completions.zsh()
        let fish = Completions.fish()
        let bashWords = Set(bash.split(whereSeparator: { " '|()\n".contains($0) }).map(String.init))
        for spec in OptionTable.all {
            for spelling in [spec.longFlag, spec.negatedFlag] + [spec.shortFlag].compactMap({ $0 }) {
                XCTAssertTrue(bashWords.contains(spelling), spelling)
                XCTAssertTrue(zsh.contains(spelling), spelling)
            }
            XCTAssertTrue(fish.contains(" -l \(spec.long) "), spec.long)
            XCTAssertTrue(fish.contains(" -l no-\(spec.long) "), spec.long)
        }
        XCTAssertTrue(bash.contains("-A|--auth-type) COMPREPLY=($(compgen -W 'basic digest bearer ntlm negotiate oauth2' -- \"$cur\"))"))
        XCTAssertTrue(zsh.contains("'(-o --output)'{-o+,--output=}'[write the output to FILE]:FILE:_files'"))
        XCTAssertTrue(
            zsh.contains("'(-a --auth)'{-a+,--auth=}'[credentials (or a TOKEN with -A bearer)]:USER[\\:PASS]: '"))
        XCTAssertTrue(
            fish.contains(
                "complete -c afcli -s A -l auth-type -x -a \"basic\\tauth-type digest\\tauth-type bearer\\tauth-type ntlm\\tauth-type "
                    + "negotiate\\tauth-type oauth2\\tauth-type\" -d "))
        // URL values offer http:// and https:// only, not zsh's ftp:, gopher: and file: prefixes.
        XCTAssertFalse(zsh.contains(":_urls"))
        XCTAssertTrue(zsh.contains("compadd -S '' -- http:// https://"))
        XCTAssertTrue(fish.contains("complete -c afcli -s o -l output -r -F"))
        for script in [bash, zsh, fish] {
            XCTAssertTrue(script.contains("get head post put patch delete options"))
            XCTAssertTrue(script.contains("completions"))
        }
    }

    func testCompletionScriptsParseInTheirShells() throws {
        let checks: [(shell: String, flag: String, script: String)] = [
            ("bash", "-n", Completions.bash()), ("zsh", "-n", Completions.zsh()),
            ("fish", "--no-execute", Completions.fish()),
        ]
        var ran = 0
        for check in checks {
            guard
                let path = ["/usr/bin/", "/bin/", "/usr/local/bin/"].map({ $0 + check.shell })
                    .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
            else { continue }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("afcli-completion-\(UUID())")
            try Data(check.script.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = [check.flag, file.path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "\(check.shell): \(stderr)")
            ran += 1
        }
        if ran == 0 { throw XCTSkip("no shell found to check syntax with") }
    }

    func testExitStatusTable() {
        XCTAssertEqual(ExitStatus.table.map(\.code), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 130])
        XCTAssertEqual(ExitStatus.forFinalResponse(code: 404, checkStatus: true), .clientError)
        XCTAssertEqual(ExitStatus.forFinalResponse(code: 301, checkStatus: true), .redirection)
        XCTAssertEqual(ExitStatus.forFinalResponse(code: 503, checkStatus: true), .serverError)
        XCTAssertEqual(ExitStatus.forFinalResponse(code: 503, checkStatus: false), .success)
        XCTAssertEqual(ExitStatus.forFinalResponse(code: 204, checkStatus: true), .success)
    }

    func testOutputForNonRequestCommands() {
        XCTAssertNil(OptionDocs.output(for: .request))
        XCTAssertEqual(OptionDocs.output(for: .version), "afcli 0.1.0\n")
        XCTAssertEqual(OptionDocs.output(for: .manPage(.roff)), ManPage.render())
        XCTAssertEqual(OptionDocs.output(for: .manPage(.markdown)), MarkdownReference.render())
        XCTAssertEqual(OptionDocs.output(for: .completions(.fish)), Completions.fish())
    }

    /// The Markdown reference is the man page's text: every section in order, every option with
    /// its `--no-X` form, every exit status, and no prose character left to Markdown's syntax.
    func testMarkdownReferenceHasEverySectionOptionAndExitStatus() {
        let reference = MarkdownReference.render()
        let headings = reference.split(separator: "\n").filter { $0.hasPrefix("## ") }.map {
            String($0.dropFirst(3))
        }
        XCTAssertEqual(headings, ["SYNOPSIS"] + ManualText.sections.map { Markdown.escape($0.title) })
        for spec in OptionTable.all {
            XCTAssertTrue(reference.contains("`\(spec.negatedFlag)`"), spec.longFlag)
        }
        for status in ExitStatus.allCases {
            XCTAssertTrue(reference.contains("\n| \(status.rawValue) | "), "exit status \(status.rawValue)")
        }
        XCTAssertEqual(
            Markdown.escape("<redacted> $HOME a_b *x* ~y~ [z]"), "\\<redacted\\> \\$HOME a\\_b \\*x\\* \\~y\\~ \\[z\\]")
        XCTAssertEqual(Markdown.prose("- `a|b` <c>"), "\\- `a|b` \\<c\\>")
        XCTAssertEqual(Markdown.anchor("REQUEST FILES (.HTTP)"), "request-files-http")
        XCTAssertEqual(Markdown.anchor("MANY REQUESTS: AFCLI RUN"), "many-requests-afcli-run")
    }

    /// The README is what a user reads first and the reference lives in docs/: the README stays at
    /// most 300 lines, and every relative link in it resolves, to a file and, after `#`, to one of
    /// that Markdown file's headings.
    func testReadmeIsShortAndItsLinksResolve() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lineCount =
            readme.split(separator: "\n", omittingEmptySubsequences: false).count
            - (readme.hasSuffix("\n") ? 1 : 0)
        XCTAssertLessThanOrEqual(lineCount, 300, "README.md is \(lineCount) lines; the reference belongs in docs/")
        let targets = readme.matches(of: /\]\(([^)\s]+)\)/).map { String($0.output.1) }.filter { !$0.contains("://") }
        XCTAssertTrue(targets.contains { $0.hasPrefix("docs/") }, "README.md links to nothing in docs/")
        for target in targets {
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let path = repositoryRoot.appendingPathComponent(parts[0]).path
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: path),
                "README.md links to \(target), which is not in the repository")
            guard parts.count == 2, let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let anchors = text.split(separator: "\n").filter { $0.hasPrefix("#") }.map {
                Markdown.anchor(String($0.drop(while: { $0 == "#" })).trimmingCharacters(in: .whitespaces))
            }
            XCTAssertTrue(
                anchors.contains(parts[1]), "README.md links to \(target), but \(parts[0]) has no such heading")
        }
    }
}
