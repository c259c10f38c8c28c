/// The hand-written part of afcli's manual, kept as a small structured template so that one text
/// renders both as the roff man page (`ManPage`) and as plain text (`afcli help`).
///
/// Only the option list and the exit status table are generated, from `OptionTable` and
/// `ExitStatus`; everything else is prose here. In the prose, text between backticks is literal
/// input (bold in the man page, as-is in plain text).
package enum ManualText {
    /// The man page's one-line summary (after `afcli -`).
    package static let summary = "HTTP client with HTTPie's syntax and AFNetworking's semantics"

    /// The synopsis lines; lower-case words are literal, upper-case words are placeholders.
    package static let synopsis = [
        "afcli [METHOD] URL [ITEM...] [OPTION...]",
        "afcli help",
        "afcli completions bash|zsh|fish",
        "afcli man",
    ]

    /// The sections after NAME and SYNOPSIS, in order.
    package static let sections: [ManualSection] = [
        ManualSection(
            "DESCRIPTION",
            [
                .paragraph(
                    "afcli sends one HTTP request and prints the response. Its command line is HTTPie's: an optional "
                        + "METHOD, a URL, and request items that become headers, query parameters and the body. "
                        + "Requests and responses are handled as AFNetworking handles them, and libcurl does the "
                        + "transfer."),
                .paragraph(
                    "METHOD is one of `get`, `head`, `post`, `put`, `patch`, `delete` or `options`, in any case; "
                        + "other methods are given with `--method`. Without either, the method is POST when there "
                        + "is a data item, a raw body (`--raw` or an `@file` item) or standard input that yields at "
                        + "least one byte, and GET otherwise. Standard input is never read when it is a terminal or "
                        + "/dev/null, or with `--ignore-stdin`."),
                .paragraph(
                    "URL may be abbreviated: `:3000/x` means `http://localhost:3000/x`, and a URL without a "
                        + "scheme gets `http://`. With `--base-url`, a relative URL is resolved against the base."),
                .paragraph(
                    "Data fields form the request body, a JSON object by default (`--form`, `--multipart` and "
                        + "`--plist` choose other encodings). For GET, HEAD and DELETE they go into the query string "
                        + "instead, as AFNetworking does."),
                .paragraph(
                    "When standard output is a terminal, afcli prints the response status line, the headers and "
                        + "the formatted body. When it is a pipe or a file, afcli writes the exact body bytes and "
                        + "nothing else. Errors and warnings go to standard error, after `afcli: error:` or "
                        + "`afcli: warning:`."
                ),
                .paragraph(
                    "`afcli help` prints this manual as plain text, `afcli completions` prints a completion "
                        + "script for bash, zsh or fish, and `afcli man` prints this page's roff source. These words "
                        + "are commands only as the first argument before `--`: `afcli -- help` requests http://help."),
            ]),
        ManualSection(
            "REQUEST ITEMS",
            [
                .paragraph(
                    "Each ITEM is a name and a value joined by a separator. The earliest separator in the item "
                        + "wins, the longest one when several start at the same place. A backslash makes the next "
                        + "character literal, so `a\\=b=c` is the field `a=b` with the value `c`."),
                .definitions([
                    ("Name:Value", "A request header. Repeated names send repeated headers."),
                    ("Name;", "A request header with an empty value."),
                    ("Name:", "Removes the header, including a default one such as User-Agent."),
                    ("Name:@file", "A request header whose value is read from file."),
                    ("name==value", "A query parameter, added to the URL's query string."),
                    ("name==@file", "A query parameter whose value is read from file."),
                    ("name=value", "A data field with a string value."),
                    (
                        "name:=json",
                        "A data field with a raw JSON value: a number, true, false, null, an array or an object."
                    ),
                    ("name=@file", "A data field whose string value is read from file."),
                    ("name:=@file", "A data field whose JSON value is read from file."),
                    (
                        "name@file",
                        "A file upload, which makes the body multipart/form-data. `;type=MIME` and `;filename=NAME` "
                            + "after the path set the part's Content-Type and file name."
                    ),
                    (
                        "@file",
                        "The file's contents are the request body, sent as they are; `;type=MIME` sets its "
                            + "Content-Type."
                    ),
                ]),
                .paragraph(
                    "Data field names may nest: `a[b]=x` makes `{\"a\":{\"b\":\"x\"}}`, `a[]=x` appends to an "
                        + "array, and `a[b][]=x` does both. Fields keep the order they were typed in."),
            ]),
        ManualSection(
            "OPTIONS",
            [
                .paragraph(
                    "Options may appear anywhere on the command line, and `--` ends them. A value follows its "
                        + "option as `--timeout 5`, `--timeout=5`, `-o out.json` or `-oout.json`; flags combine, as in "
                        + "`-vF`. When an option is repeated the last one wins, and every option has a `--no-X` "
                        + "form that makes it as if the option had not been given (`--no-check-status` turns the "
                        + "status check off)."),
                .options,
            ]),
        ManualSection(
            "EXIT STATUS",
            [
                .paragraph("afcli exits with one of these statuses:"),
                .exitStatuses,
            ]),
        ManualSection(
            "ENVIRONMENT",
            [
                .definitions([
                    ("NO_COLOR", "When set and not empty, output is never coloured."),
                    ("TERM", "When `dumb`, output is never coloured."),
                    (
                        "http_proxy, https_proxy, all_proxy, no_proxy",
                        "The proxy for http, https or all URLs, and the hosts reached without one, as libcurl reads "
                            + "them (the upper-case names work too, except HTTP_PROXY). `--proxy` overrides them."
                    ),
                    (
                        "LANGUAGE, LC_ALL, LC_MESSAGES, LANG",
                        "Consulted in this order to choose the Accept-Language header afcli sends by default."
                    ),
                ])
            ]),
        ManualSection(
            "FILES",
            [
                .paragraph(
                    "afcli reads no configuration file. The completion scripts printed by `afcli completions` are "
                        + "usually installed as:"),
                .definitions([
                    ("/usr/share/bash-completion/completions/afcli", "bash"),
                    ("/usr/share/zsh/vendor-completions/_afcli", "zsh (or any directory in fpath)"),
                    ("/usr/share/fish/vendor_completions.d/afcli.fish", "fish"),
                ]),
            ]),
        ManualSection(
            "EXAMPLES",
            [
                .example("Query parameters and a header:", "afcli get :8080/get page==2 'q==hello world' X-Trace:abc"),
                .example(
                    "A JSON body with a number, an array and a nested object:",
                    "afcli post api.example.com/users name=José age:=41 \\\n"
                        + "    'tags[]=a' 'tags[]=b' 'address[city]=Oslo'"
                ),
                .example(
                    "A urlencoded form; the JSON value is sent as meta[a][]=1&meta[a][]=2:",
                    "afcli post --form :8080/post user=ann 'meta:={\"a\":[1,2]}'"),
                .example("A property list body:", "afcli put --plist :8080/put key=value"),
                .example("A DELETE whose data field goes into the query string:", "afcli delete :8080/delete id=7"),
                .example("A JSON body from standard input:", "echo '{\"a\":1}' | afcli post :8080/anything"),
                .example("A body from a file:", "afcli post :8080/post @body.json"),
                .example("Print the request without sending it:", "afcli get --offline example.org/x a==1"),
            ]),
    ]
}

/// A top-level section of the manual (`.SH` in roff).
package struct ManualSection: Sendable {
    /// The heading, in capitals.
    package let title: String
    /// The content, in order.
    package let blocks: [ManualBlock]

    package init(_ title: String, _ blocks: [ManualBlock]) {
        self.title = title
        self.blocks = blocks
    }
}

/// One piece of a manual section.
package enum ManualBlock: Sendable {
    /// A paragraph of prose, with `literal` spans.
    case paragraph(String)
    /// A list of terms (shown literally) and their explanations.
    case definitions([(term: String, text: String)])
    /// A caption and a shell command, whose lines are split at `\n` (continued with a backslash).
    case example(String, String)
    /// The generated option list, grouped.
    case options
    /// The generated exit status table.
    case exitStatuses
}

/// A run of manual prose, either plain or `literal`.
package struct InlineSpan: Equatable, Sendable {
    /// The text without backticks.
    package let text: String
    /// Whether the text was between backticks.
    package let isLiteral: Bool

    /// Splits prose at backticks; odd-numbered pieces are literal.
    package static func parse(_ prose: String) -> [InlineSpan] {
        prose.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { index, piece in
            piece.isEmpty ? nil : InlineSpan(text: String(piece), isLiteral: index % 2 == 1)
        }
    }

    /// The prose with the backticks removed, for plain text.
    package static func plain(_ prose: String) -> String {
        parse(prose).map(\.text).joined()
    }
}
