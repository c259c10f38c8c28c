/// The plain-text help: the one-screen `--help` and the whole manual for `afcli help`.
///
/// Both are generated from `OptionTable` (and the long one from `ManualText` and `ExitStatus`, like
/// the man page), and both fit 80 columns.
package enum HelpText {
    /// The width every line fits in.
    package static let width = 80

    /// The `--help` text: usage, a summary of request items, and each option's one-line help,
    /// grouped and aligned.
    package static func short() -> String {
        var lines = [
            "usage: afcli [METHOD] URL [ITEM...] [OPTION...]",
            "       afcli COMMAND [ARGUMENT...] [OPTION...]",
            "",
            "Send an HTTP request with HTTPie's syntax and AFNetworking's semantics.",
            "METHOD is get, head, post, put, patch, delete or options, in any case.",
            "",
            "Commands:",
        ]
        // One column for the commands and every option group, so the lists read as one table.
        let column = min(30, OptionTable.all.map(\.synopsis.count).max() ?? 0)
        let commands = CommandTable.all.map { ($0.briefUsage, $0.summary) }
        lines += aligned(commands, indent: 2, column: column)
        lines += ["", "Request items:"]
        lines += aligned(
            [
                ("Name:Value", "request header (Name; sends it empty, Name: removes it)"),
                ("name==value", "query parameter"),
                ("name=value", "data field with a string value"),
                ("name:=json", "data field with a raw JSON value (42, true, [1])"),
                ("name@file", "file upload (multipart/form-data)"),
                ("@file", "request body from a file"),
            ], indent: 2, column: 11)
        lines.append("  Add @ to read a value from a file: Name:@f, name==@f, name=@f, name:=@f.")
        for group in OptionGroup.allCases {
            let specs = OptionTable.all.filter { $0.group == group }
            guard !specs.isEmpty else { continue }
            lines += ["", group.title + ":"]
            lines += aligned(specs.map { ($0.synopsis, $0.help) }, indent: 2, column: column)
        }
        lines += [
            "",
            "Every option has a --no-X form that undoes it. Exit status: 0 ok, 2 usage,",
            "3/4/5 for a 3xx/4xx/5xx response. 'afcli help' shows the whole manual.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `afcli help` text: every section of the man page, as plain text.
    package static func long() -> String {
        var lines = ["NAME"] + wrap("afcli - " + ManualText.summary, indent: 4) + ["", "SYNOPSIS"]
        lines += ManualText.synopsis.map { "    " + $0 }
        for section in ManualText.sections {
            lines += ["", section.title]
            for (index, block) in section.blocks.enumerated() {
                if index > 0 { lines.append("") }
                lines += render(block)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `afcli cache --help` text: its usage, the RESPONSE CACHE section of the manual (every
    /// rule the cache follows) and the cache's options.
    package static func cache() -> String {
        var lines = [
            "usage: afcli cache ls|show URL|rm URL|rm --all|prune [--verify-bodies]|path",
            "       afcli [METHOD] URL --cache[=MODE] [OPTION...]",
        ]
        for section in ManualText.cacheSections {
            lines += ["", section.title]
            for (index, block) in section.blocks.enumerated() {
                if index > 0 { lines.append("") }
                lines += render(block)
            }
        }
        let specs = OptionTable.cache
        let column = min(30, specs.map(\.synopsis.count).max() ?? 0)
        lines += ["", "CACHE OPTIONS"] + aligned(specs.map { ($0.synopsis, $0.help) }, indent: 2, column: column)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines for one block of a manual section, indented under its heading.
    private static func render(_ block: ManualBlock) -> [String] {
        switch block {
        case .paragraph(let prose):
            return wrap(InlineSpan.plain(prose), indent: 4)
        case .definitions(let entries):
            return entries.flatMap { definition(term: $0.term, text: InlineSpan.plain($0.text)) }
        case .example(let caption, let command):
            let commandLines = command.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.isEmpty ? "" : "        " + $0
            }
            return wrap(InlineSpan.plain(caption), indent: 4) + [""] + commandLines
        case .options:
            var lines: [String] = []
            for group in OptionGroup.allCases {
                let specs = OptionTable.all.filter { $0.group == group }
                guard !specs.isEmpty else { continue }
                lines += (lines.isEmpty ? [] : [""]) + ["  " + group.title]
                for spec in specs {
                    lines += definition(
                        term: spec.synopsis.trimmingLeadingSpaces + ", " + spec.negatedFlag,
                        text: spec.description)
                }
            }
            return lines
        case .exitStatuses:
            return ExitStatus.allCases.flatMap { definition(term: String($0.rawValue), text: $0.meaning) }
        }
    }

    /// A term at indent 4 and its text at indent 8, on the term's line when the term is short
    /// enough (as man(1) lays out `.TP`), below it otherwise.
    private static func definition(term: String, text: String) -> [String] {
        let body = wrap(text, indent: 8)
        guard term.count + 5 <= 8, let first = body.first else { return ["    " + term] + body }
        let head = "    " + term + String(repeating: " ", count: 4 - term.count) + first.trimmingLeadingSpaces
        return [head] + body.dropFirst()
    }

    /// Two columns: terms padded to `column` characters, then the explanations wrapped in the
    /// remaining width; a longer term puts its explanation on the next line.
    package static func aligned(_ rows: [(term: String, text: String)], indent: Int, column: Int) -> [String] {
        let textIndent = indent + column + 2
        var lines: [String] = []
        for row in rows {
            let body = wrap(row.text, indent: textIndent)
            let head = String(repeating: " ", count: indent) + row.term
            if row.term.count <= column, let first = body.first {
                let padding = String(repeating: " ", count: column - row.term.count + 2)
                lines.append(head + padding + first.trimmingLeadingSpaces)
                lines += body.dropFirst()
            } else {
                lines.append(head)
                lines += body
            }
        }
        return lines
    }

    /// Word-wraps text into lines of at most `width` columns, each starting with `indent` spaces;
    /// a word longer than a line gets a line of its own.
    package static func wrap(_ text: String, indent: Int) -> [String] {
        let prefix = String(repeating: " ", count: indent)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if indent + current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(prefix + current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(prefix + current) }
        return lines
    }
}

extension String {
    /// The string without its leading spaces.
    fileprivate var trimmingLeadingSpaces: String {
        String(drop(while: { $0 == " " }))
    }
}
