import AFKit

/// The single source of truth for afcli's options: the parser, `--help`, `afcli help`, the man page
/// and the completions are all generated from `OptionTable.all`.
///
/// Names follow HTTPie where HTTPie has the option. Entries are listed in display order within
/// their group. Help lines stay within 46 characters so `--help` fits 80 columns.
package enum OptionTable {
    /// Every option, in display order.
    package static let all: [OptionSpec] = request + authentication + output + network + general

    /// Options looked up by long name (`follow`).
    package static let byLong: [String: OptionSpec] = Dictionary(
        all.map { ($0.long, $0) }, uniquingKeysWith: { first, _ in first })

    /// Options looked up by short letter (`F`).
    package static let byShort: [Character: OptionSpec] = Dictionary(
        all.compactMap { spec in spec.short.map { ($0, spec) } }, uniquingKeysWith: { first, _ in first })

    /// The HTTP methods the METHOD word accepts (in any case); others need `--method`.
    package static let methodWords = ["get", "head", "post", "put", "patch", "delete", "options"]

    /// A body-encoding switch sharing the `encoding` destination: the last one given wins, and
    /// `--no-X` clears the destination only while it still holds X's encoding.
    private static func encodingSwitch(
        _ encoding: BodyEncoding, long: String, short: Character?, help: String, description: String
    ) -> OptionSpec {
        OptionSpec(
            long: long, short: short, group: .request, help: help, description: description,
            apply: { values, _ in values.encoding = encoding },
            reset: { values in if values.encoding == encoding { values.encoding = nil } })
    }

    /// A `--print` shorthand sharing the `printParts` destination with `--print`.
    private static func printSwitch(
        _ parts: OptionValues.PrintParts, long: String, short: Character, help: String, description: String
    ) -> OptionSpec {
        OptionSpec(
            long: long, short: short, group: .output, help: help, description: description,
            apply: { values, _ in values.printParts = parts },
            reset: { values in if values.printParts == parts { values.printParts = nil } })
    }

    /// An HTTP version switch sharing the `httpVersion` destination.
    private static func versionSwitch(_ version: OptionValues.HTTPVersion, help: String) -> OptionSpec {
        OptionSpec(
            long: "http" + version.rawValue, group: .network, help: help,
            description: "Use HTTP/\(version.rawValue) only, instead of letting libcurl negotiate the version. "
                + "--http1.1 and --http2 override each other.",
            apply: { values, _ in values.httpVersion = version },
            reset: { values in if values.httpVersion == version { values.httpVersion = nil } })
    }

    private static let request: [OptionSpec] = [
        OptionSpec(
            long: "method", short: "X", valueName: "NAME", group: .request,
            help: "use the method NAME (any token, case kept)",
            description: "Send the request with the method NAME, for methods without a METHOD word (PURGE, "
                + "PROPFIND) or to force one. NAME may be any HTTP token and is sent exactly as typed. It "
                + "overrides the METHOD word and method inference.",
            completion: .words(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]),
            apply: { values, text in values.method = try OptionValueParser.methodToken(text ?? "") },
            reset: { $0.method = nil }),
        encodingSwitch(
            .json, long: "json", short: "j", help: "send data items as a JSON object (default)",
            description: "Serialize data items as a compact UTF-8 JSON object, with keys in the order typed. "
                + "This is the default; the option matters only to override an earlier --form, --multipart "
                + "or --plist."),
        encodingSwitch(
            .form, long: "form", short: "f", help: "send data items as a urlencoded form",
            description: "Serialize data items as application/x-www-form-urlencoded with AFNetworking's "
                + "escaping (a space is %20). Structured := values are flattened AFNetworking style, as "
                + "a[b]=1 and a[]=2. With a file item the body becomes multipart instead."),
        encodingSwitch(
            .multipart, long: "multipart", short: nil, help: "send a multipart/form-data body",
            description: "Send data items and file items as multipart/form-data even when no file item "
                + "is present."),
        encodingSwitch(
            .plist, long: "plist", short: nil, help: "send data items as an XML property list",
            description: "Serialize data items as an XML property list (application/x-plist), as "
                + "AFNetworking's property list serializer does."),
        OptionSpec(
            long: "raw", valueName: "TEXT", group: .request, help: "send TEXT as the request body",
            description: "Send TEXT, byte for byte, as the request body. It cannot be combined with data or "
                + "file items. Without --method the request is a POST.",
            apply: { values, text in values.rawBody = text ?? "" },
            reset: { $0.rawBody = nil }),
        OptionSpec(
            long: "base-url", valueName: "URL", group: .request, help: "resolve relative request URLs against URL",
            description: "Resolve the request URL against URL as RFC 3986 does, so that a path such as /users "
                + "or users becomes a URL on the same server.",
            completion: .url,
            apply: { values, text in values.baseURL = try OptionValueParser.nonEmpty(text ?? "", what: "a URL") },
            reset: { $0.baseURL = nil }),
        OptionSpec(
            long: "ignore-stdin", short: "I", group: .request, help: "never read the body from standard input",
            description: "Do not read standard input, even when it is a pipe or a file. A terminal or "
                + "/dev/null on standard input is never read in any case.",
            apply: { values, _ in values.ignoreStdin = true },
            reset: { $0.ignoreStdin = false }),
        OptionSpec(
            long: "offline", group: .request, help: "print the request instead of sending it",
            description: "Build the request and print it (its headers and body, unless --print says "
                + "otherwise) without connecting to anything.",
            apply: { values, _ in values.offline = true },
            reset: { $0.offline = false }),
    ]

    private static let authentication: [OptionSpec] = [
        OptionSpec(
            long: "auth", short: "a", valueName: "USER[:PASS]", group: .authentication,
            help: "credentials (or a TOKEN with -A bearer)",
            description: "Authenticate as USER with password PASS, split at the first colon; without a colon "
                + "the password is empty. With --auth-type bearer the whole value is the token.",
            apply: { values, text in
                values.auth = try OptionValueParser.nonEmpty(text ?? "", what: "a user name or token")
            },
            reset: { $0.auth = nil }),
        OptionSpec(
            long: "auth-type", short: "A", valueName: "TYPE", group: .authentication,
            help: "basic (default), digest or bearer",
            description: "How to send the --auth credentials: basic (Authorization: Basic, computed by afcli), "
                + "digest (negotiated after the server's challenge) or bearer (Authorization: Bearer TOKEN).",
            completion: .words(OptionValues.AuthType.allCases.map(\.rawValue)),
            apply: { values, text in
                values.authType = try OptionValueParser.choice(text ?? "", of: OptionValues.AuthType.self)
            },
            reset: { $0.authType = .basic }),
    ]

    private static let output: [OptionSpec] = [
        OptionSpec(
            long: "print", short: "p", valueName: "WHAT", group: .output,
            help: "parts to print, from the letters HBhbm",
            description: "Print the parts named by the letters of WHAT: H request headers, B request body, "
                + "h response headers, b response body, m metadata such as the elapsed time. The default is hb "
                + "when standard output is a terminal and b otherwise.",
            completion: .words(["b", "h", "hb", "Hh", "HBhb", "HBhbm"]),
            apply: { values, text in values.printParts = try OptionValueParser.printParts(text ?? "") },
            reset: { $0.printParts = nil }),
        OptionSpec(
            long: "verbose", short: "v", group: .output, help: "print the request as well as the response",
            description: "Print the request headers and body before the response headers and body, like "
                + "--print=HBhb. An explicit --print, --headers or --body takes precedence.",
            apply: { values, _ in values.verbose = true },
            reset: { $0.verbose = false }),
        printSwitch(
            .responseHeaders, long: "headers", short: "h", help: "print only the response headers",
            description: "Print only the response status line and headers; a shortcut for --print=h."),
        printSwitch(
            .responseBody, long: "body", short: "b", help: "print only the response body",
            description: "Print only the response body, even on a terminal; a shortcut for --print=b."),
        OptionSpec(
            long: "quiet", short: "q", group: .output, help: "print nothing but errors",
            description: "Print nothing on standard output (except into the --output file) and no warnings "
                + "on standard error. Errors are still reported, and the exit status is unchanged.",
            apply: { values, _ in values.quiet = true },
            reset: { $0.quiet = false }),
        OptionSpec(
            long: "output", short: "o", valueName: "FILE", group: .output, help: "write the output to FILE",
            description: "Write the output to FILE instead of standard output, as if standard output were "
                + "redirected: by default only the response body, byte for byte.",
            completion: .file,
            apply: { values, text in
                values.outputFile = try OptionValueParser.nonEmpty(text ?? "", what: "a file name")
            },
            reset: { $0.outputFile = nil }),
    ]

    private static let network: [OptionSpec] = [
        OptionSpec(
            long: "follow", short: "F", group: .network, help: "follow redirects",
            description: "Follow redirects, at most --max-redirects of them. A 307 or 308 resends the method "
                + "and body; other redirects turn a POST into a GET, as browsers do.",
            apply: { values, _ in values.follow = true },
            reset: { $0.follow = false }),
        OptionSpec(
            long: "max-redirects", valueName: "N", group: .network, help: "follow at most N redirects (30)",
            description: "With --follow, give up with exit status 6 after N redirects. The default is 30.",
            apply: { values, text in values.maxRedirects = try OptionValueParser.positiveInteger(text ?? "") },
            reset: { $0.maxRedirects = 30 }),
        OptionSpec(
            long: "timeout", valueName: "SECONDS", group: .network, help: "give up after SECONDS in total",
            description: "Fail with exit status 7 when the whole exchange takes longer than SECONDS, which "
                + "may have a fraction (0.5). There is no limit by default.",
            apply: { values, text in values.timeout = try OptionValueParser.positiveSeconds(text ?? "") },
            reset: { $0.timeout = nil }),
        OptionSpec(
            long: "connect-timeout", valueName: "SECONDS", group: .network, help: "give up connecting after SECONDS",
            description: "Fail with exit status 7 when connecting (including name resolution and the TLS "
                + "handshake) takes longer than SECONDS.",
            apply: { values, text in values.connectTimeout = try OptionValueParser.positiveSeconds(text ?? "") },
            reset: { $0.connectTimeout = nil }),
        OptionSpec(
            long: "proxy", valueName: "[PROTOCOL:]URL", group: .network, help: "use the proxy at URL",
            description: "Send requests through the proxy at URL, for PROTOCOL http, https or all (the "
                + "default), as in --proxy=https:http://proxy:3128. It overrides the proxy environment "
                + "variables.",
            completion: .url,
            apply: { values, text in values.proxy = try OptionValueParser.proxy(text ?? "") },
            reset: { $0.proxy = nil }),
        versionSwitch(.http1_1, help: "use HTTP/1.1 only"),
        versionSwitch(.http2, help: "use HTTP/2 only"),
        OptionSpec(
            long: "check-status", group: .network, help: "exit with 3, 4 or 5 for 3xx, 4xx, 5xx (on)",
            description: "Exit with status 3, 4 or 5 when the final response is a 3xx, 4xx or 5xx. This is on "
                + "by default; --no-check-status makes such responses exit with 0.",
            apply: { values, _ in values.checkStatus = true },
            // Unlike every other --no-X, this one is the only way to turn the behaviour off.
            reset: { $0.checkStatus = false }),
    ]

    private static let general: [OptionSpec] = [
        OptionSpec(
            long: "help", group: .general, help: "show this help (afcli help shows more)",
            description: "Print a short summary of usage and options and exit. afcli help prints the whole "
                + "manual.",
            apply: { values, _ in values.showHelp = true },
            reset: { $0.showHelp = false }),
        OptionSpec(
            long: "version", group: .general, help: "show the version",
            description: "Print the version and exit.",
            apply: { values, _ in values.showVersion = true },
            reset: { $0.showVersion = false }),
    ]
}
