import AFKit

/// The single source of truth for afcli's options: the parser, `--help`, `afcli help`, the man page
/// and the completions are all generated from `OptionTable.all`.
///
/// Names follow HTTPie where HTTPie has the option. Entries are listed in display order within
/// their group. Help lines stay within 46 characters so `--help` fits 80 columns.
package enum OptionTable {
    /// Every option, in display order. Made in one array: a chain of `+` would copy every spec
    /// once per group, at every start.
    package static let all: [OptionSpec] = {
        let groups = [
            request, authentication, authStages, output, responseDisplay, network, networkRouting, responseChecks, general,
            uploads, downloads, security, reachability, sessions, environments, crypto, cache, metrics, batch,
        ]
        var specs: [OptionSpec] = []
        specs.reserveCapacity(groups.reduce(0) { $0 + $1.count })
        for group in groups { specs.append(contentsOf: group) }
        return specs
    }()

    /// Options looked up by long name (`follow`); the first spec of a name wins.
    package static let byLong: [String: OptionSpec] = {
        var specs = [String: OptionSpec](minimumCapacity: all.count)
        for spec in all where specs[spec.long] == nil { specs[spec.long] = spec }
        return specs
    }()

    /// Options looked up by short letter (`F`); the first spec of a letter wins.
    package static let byShort: [Character: OptionSpec] = {
        var specs: [Character: OptionSpec] = [:]
        for spec in all { if let short = spec.short, specs[short] == nil { specs[short] = spec } }
        return specs
    }()

    /// The HTTP methods the METHOD word accepts (in any case); others need `--method`.
    package static let methodWords = ["get", "head", "post", "put", "patch", "delete", "options"]

    /// A body-encoding switch sharing the `request.encoding` destination: the last one given
    /// wins, and `--no-X` clears the destination only while it still holds X's encoding.
    private static func encodingSwitch(
        _ encoding: BodyEncoding, long: String, scope: CommandScope, short: Character?, help: String,
        description: String
    ) -> OptionSpec {
        OptionSpec(
            long: long, scope: scope, short: short, group: .request, help: help, description: description,
            apply: { values, _ in values.request.encoding = encoding },
            reset: { values in if values.request.encoding == encoding { values.request.encoding = nil } })
    }

    /// A `--print` shorthand sharing the `output.printParts` destination with `--print`.
    private static func printSwitch(
        _ parts: Settings.PrintParts, long: String, scope: CommandScope, short: Character, help: String,
        description: String
    ) -> OptionSpec {
        OptionSpec(
            long: long, scope: scope, short: short, group: .output, help: help, description: description,
            apply: { values, _ in values.output.printParts = parts },
            reset: { values in if values.output.printParts == parts { values.output.printParts = nil } })
    }

    private static let request: [OptionSpec] = [
        OptionSpec(
            long: "method", scope: [.request, .run], short: "X", valueName: "NAME", group: .request,
            help: "use the method NAME (any token, case kept)",
            description: "Send the request with the method NAME, for methods without a METHOD word (PURGE, "
                + "PROPFIND) or to force one. NAME may be any HTTP token and is sent exactly as typed. It "
                + "overrides the METHOD word and method inference.",
            completion: .words(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]),
            apply: { values, text in values.request.method = try OptionValueParser.methodToken(text ?? "") },
            reset: { $0.request.method = nil }),
        encodingSwitch(
            .json, long: "json", scope: [.request, .run, .pin, .reachability], short: "j",
            help: "send data items as a JSON object (default)",
            description: "Serialize data items as a compact UTF-8 JSON object, with keys in the order typed. "
                + "This is the default; the option matters only to override an earlier --form, --multipart "
                + "or --plist."),
        encodingSwitch(
            .form, long: "form", scope: [.request, .run], short: "f", help: "send data items as a urlencoded form",
            description: "Serialize data items as application/x-www-form-urlencoded with AFNetworking's "
                + "escaping (a space is %20). Structured := values are flattened AFNetworking style, as "
                + "a[b]=1 and a[]=2. With a file item the body becomes multipart instead."),
        encodingSwitch(
            .multipart, long: "multipart", scope: [.request, .run], short: nil, help: "send a multipart/form-data body",
            description: "Send data items and file items as multipart/form-data even when no file item "
                + "is present."),
        encodingSwitch(
            .plist, long: "plist", scope: [.request, .run], short: nil, help: "send data items as an XML property list",
            description: "Serialize data items as an XML property list (application/x-plist), as "
                + "AFNetworking's property list serializer does."),
        OptionSpec(
            long: "raw", scope: [.request, .run], valueName: "TEXT", group: .request,
            help: "send TEXT as the request body",
            description: "Send TEXT, byte for byte, as the request body. It cannot be combined with data or "
                + "file items. Without --method the request is a POST.",
            apply: { values, text in values.request.rawBody = text ?? "" },
            reset: { $0.request.rawBody = nil }),
        OptionSpec(
            long: "base-url", scope: .sending, valueName: "URL", group: .request,
            help: "resolve relative request URLs against URL",
            description: "Resolve the request URL against URL as RFC 3986 does, so that a path such as /users "
                + "or users becomes a URL on the same server.",
            completion: .url,
            apply: { values, text in
                values.request.baseURL = try OptionValueParser.nonEmpty(text ?? "", what: "a URL")
            },
            reset: { $0.request.baseURL = nil }),
        OptionSpec(
            long: "ignore-stdin", scope: .sending, short: "I", group: .request,
            help: "never read the body from standard input",
            description: "Do not read standard input, even when it is a pipe or a file. A terminal or "
                + "/dev/null on standard input is never read in any case. The items @- and field@-, which "
                + "read standard input, are refused before anything is sent (exit status 2), as is, with afcli "
                + "run FILE.http, a body line < /dev/stdin (or /dev/fd/0).",
            apply: { values, _ in values.request.ignoreStdin = true },
            reset: { $0.request.ignoreStdin = false }),
        OptionSpec(
            long: "offline", scope: .request, group: .request, help: "print the request instead of sending it",
            description: "Build the request and print it (its headers and body, unless --print says "
                + "otherwise) without connecting to anything.",
            apply: { values, _ in values.request.offline = true },
            reset: { $0.request.offline = false }),
        OptionSpec(
            long: "curl", scope: .request, group: .request, help: "print the same request as a curl command",
            description: "Print, as one shell-quoted line, a curl command that sends the same request: method, "
                + "URL, every header, the body and the TLS and network options, made from the same settings that "
                + "configure the transfer. Nothing is sent. A file body stays @FILE; multipart becomes -F when "
                + "curl writes the same parts, else the body is read from standard input (--data-binary @-); "
                + "notes on standard error say where curl would differ. Secrets afcli did not get from the "
                + "command line are shown as <redacted> unless --show-secrets is given.",
            apply: { values, _ in values.request.curl = true },
            reset: { $0.request.curl = false }),
        OptionSpec(
            long: "show-secrets", scope: [.request, .run, .config], group: .request,
            help: "show secrets in -v, --curl and reports",
            description: "Show the secrets afcli otherwise prints as <redacted>. In --curl output: a password "
                + "asked for on the terminal, and a session's stored headers, credentials and cookies (what is "
                + "typed on the command line is always shown as typed there). In -v's heads and the --report "
                + "files of a run: the values of Authorization, Proxy-Authorization, X-Amz-Security-Token, "
                + "headers whose names look secret (token, key, secret, auth, password, session, signature), "
                + "the headers --auth-cmd printed and the environment's secret headers, and the value of every "
                + "cookie in Cookie and Set-Cookie.",
            apply: { values, _ in values.request.showSecrets = true },
            reset: { $0.request.showSecrets = false }),
    ]

    private static let authentication: [OptionSpec] = [
        OptionSpec(
            long: "auth", scope: .sending, short: "a", valueName: "USER[:PASS]", group: .authentication,
            help: "credentials (or a TOKEN with -A bearer)",
            description: "Authenticate as USER with password PASS, split at the first colon; without a colon "
                + "afcli asks for the password on the terminal (echo off), and sends an empty one when there is "
                + "no terminal. With --auth-type bearer the whole value is the token.",
            apply: { values, text in
                values.request.auth = try OptionValueParser.nonEmpty(text ?? "", what: "a user name or token")
            },
            reset: { $0.request.auth = nil }),
        OptionSpec(
            long: "auth-type", scope: .sending, short: "A", valueName: "TYPE", group: .authentication,
            help: "basic, digest, bearer, ntlm, negotiate, oauth2",
            description: "How to send the --auth credentials: basic (Authorization: Basic, computed by afcli), "
                + "digest (negotiated after the server's challenge), bearer (Authorization: Bearer TOKEN), ntlm "
                + "(NTLM, negotiated by libcurl after the server's challenge) or negotiate (SPNEGO with the "
                + "system's Kerberos ticket, from kinit; -a is then not needed), or oauth2 (a token from "
                + "--oauth2-token-url for the client -a CLIENT_ID:CLIENT_SECRET). basic is the default. ntlm and "
                + "negotiate are refused before sending (exit 2) when libcurl lacks them, or, for negotiate, when "
                + "there is no Kerberos credential cache.",
            completion: .words(Settings.AuthType.allCases.map(\.rawValue)),
            apply: { values, text in
                values.request.authType = try OptionValueParser.choice(text ?? "", of: Settings.AuthType.self)
            },
            reset: { $0.request.authType = .basic }),
    ]

    private static let output: [OptionSpec] = [
        OptionSpec(
            long: "print", scope: .request, short: "p", valueName: "WHAT", group: .output,
            help: "parts to print, from the letters HBhbm",
            description: "Print the parts named by the letters of WHAT: H request headers, B request body, "
                + "h response headers, b response body, m metadata: the elapsed time, the protocol and the "
                + "metrics table (see --meta). The default is hb when standard output is a terminal and b "
                + "otherwise.",
            completion: .words(["b", "h", "hb", "Hh", "HBhb", "HBhbm"]),
            apply: { values, text in values.output.printParts = try OptionValueParser.printParts(text ?? "") },
            reset: { $0.output.printParts = nil }),
        OptionSpec(
            long: "verbose", scope: .request, short: "v", group: .output,
            help: "print the request as well as the response",
            description: "Print the request headers and body before the response headers and body, and the "
                + "metrics after them, like --print=HBhbm; with --follow, every hop and its metrics. An explicit "
                + "--print, --headers or --body takes precedence. The values of credential headers (Authorization, "
                + "X-Amz-Security-Token, what --auth-cmd printed, names that look secret) and of cookies in the "
                + "heads of an exchange are shown as <redacted> unless --show-secrets is given; --offline, which "
                + "sends nothing, shows the request as it would go out.",
            apply: { values, _ in values.output.verbose = true },
            reset: { $0.output.verbose = false }),
        printSwitch(
            .responseHeaders, long: "headers", scope: .request, short: "h", help: "print only the response headers",
            description: "Print only the response status line and headers; a shortcut for --print=h."),
        printSwitch(
            .responseBody, long: "body", scope: .request, short: "b", help: "print only the response body",
            description: "Print only the response body, even on a terminal; a shortcut for --print=b."),
        OptionSpec(
            long: "quiet", scope: [.request, .download, .pin], short: "q", group: .output,
            help: "print nothing but errors",
            description: "Print nothing on standard output (except into the --output file) and no warnings "
                + "on standard error. Errors are still reported, and the exit status is unchanged.",
            apply: { values, _ in values.output.quiet = true },
            reset: { $0.output.quiet = false }),
        OptionSpec(
            long: "output", scope: [.request, .download], short: "o", valueName: "FILE", group: .output,
            help: "write the output to FILE",
            description: "Write the output to FILE instead of standard output, as if standard output were "
                + "redirected: by default only the response body, byte for byte. FILE is opened when the first "
                + "byte is written, so a failed request leaves it untouched; a symbolic link at FILE owned by "
                + "another user (a link planted in /tmp) is refused. FILE - is standard output, written as an "
                + "output file is (the body byte for byte, even under --quiet).",
            completion: .file,
            apply: { values, text in
                values.output.outputFile = try OptionValueParser.nonEmpty(text ?? "", what: "a file name")
            },
            reset: { $0.output.outputFile = nil }),
    ]

    private static let network: [OptionSpec] = [
        OptionSpec(
            long: "follow", scope: .sending, short: "F", group: .network, help: "follow redirects",
            description: "Follow redirects, at most --max-redirects of them. A 307 or 308 resends the method "
                + "and body; other redirects turn a POST into a GET, as browsers do.",
            apply: { values, _ in values.transfer.follow = true },
            reset: { $0.transfer.follow = false }),
        OptionSpec(
            long: "max-redirects", scope: .sending, valueName: "N", group: .network,
            help: "follow at most N redirects (30)",
            description: "With --follow, give up with exit status 6 after N redirects. The default is 30.",
            apply: { values, text in values.transfer.maxRedirects = try OptionValueParser.positiveInteger(text ?? "") },
            reset: { $0.transfer.maxRedirects = 30 }),
        OptionSpec(
            long: "timeout", scope: .handshaking, valueName: "SECONDS", group: .network,
            help: "give up after SECONDS without data",
            description: "Fail with exit status 7 when nothing is received or sent for SECONDS, which may have a "
                + "fraction (0.5): an idle timeout, as HTTPie's and AFNetworking's timeoutInterval, checked "
                + "about once a second. It also bounds connecting unless --connect-timeout is given. A slow "
                + "but steady transfer never hits it; --max-time limits the whole exchange. There is no limit "
                + "by default, except that afcli download --retry gives up on a stalled server after "
                + "\(Int(Settings.Transfer.downloadRetryIdleTimeout)) seconds (and retries).",
            apply: { values, text in values.transfer.timeout = try OptionValueParser.positiveSeconds(text ?? "") },
            reset: { $0.transfer.timeout = nil }),
        OptionSpec(
            long: "max-time", scope: .sending, valueName: "SECONDS", group: .network,
            help: "give up after SECONDS in total",
            description: "Fail with exit status 7 when the whole exchange, redirects included, takes longer "
                + "than SECONDS (curl's --max-time), however steadily data flows. There is no limit by default.",
            apply: { values, text in values.transfer.maxTime = try OptionValueParser.positiveSeconds(text ?? "") },
            reset: { $0.transfer.maxTime = nil }),
        OptionSpec(
            long: "max-filesize", scope: .sending, valueName: "BYTES", group: .network,
            help: "refuse a response body over BYTES",
            description: "Fail with exit status 12 when a response body is larger than BYTES after decoding "
                + "(k, m and g mean KiB, MiB and GiB: 500k, 2g), as curl's --max-filesize: at once when the "
                + "server announces a larger Content-Length, else as soon as more arrives. There is no limit "
                + "by default.",
            apply: { values, text in values.transfer.maxFilesize = try OptionValueParser.byteCount(text ?? "") },
            reset: { $0.transfer.maxFilesize = nil }),
        OptionSpec(
            long: "max-expansion", scope: .sending, valueName: "RATIO", group: .network,
            help: "refuse bodies inflating over RATIO (200)",
            description: "Fail with exit status 12 when a compressed (Content-Encoding) body decodes to more "
                + "than RATIO times the bytes received, once past \(TransferSettings.expansionCheckThreshold >> 20) "
                + "MiB: a compression bomb guard, as browsers have. The default is "
                + "\(TransferSettings.defaultExpansionRatio); 0 turns the check off.",
            apply: { values, text in
                values.transfer.maxExpansion = try OptionValueParser.nonNegativeInteger(text ?? "")
            },
            reset: { $0.transfer.maxExpansion = TransferSettings.defaultExpansionRatio }),
        OptionSpec(
            long: "connect-timeout", scope: .handshaking, valueName: "SECONDS", group: .network,
            help: "give up connecting after SECONDS",
            description: "Fail with exit status 7 when connecting (including name resolution and the TLS "
                + "handshake) takes longer than SECONDS.",
            apply: { values, text in
                values.transfer.connectTimeout = try OptionValueParser.positiveSeconds(text ?? "")
            },
            reset: { $0.transfer.connectTimeout = nil }),
        OptionSpec(
            long: "proxy", scope: [.request, .download, .run, .pin], valueName: "[PROTOCOL:]URL", group: .network,
            help: "use the proxy at URL",
            description: "Send requests through the proxy at URL, for PROTOCOL http, https or all (the "
                + "default), as in --proxy=https:http://proxy:3128. It overrides the proxy environment "
                + "variables.",
            completion: .url,
            apply: { values, text in values.transfer.proxy = try OptionValueParser.proxy(text ?? "") },
            reset: { $0.transfer.proxy = nil }),
        OptionSpec(
            long: "check-status", scope: .sending, group: .network, help: "exit with 3, 4 or 5 for 3xx, 4xx, 5xx (on)",
            description: "Exit with status 3, 4 or 5 when the final response is a 3xx, 4xx or 5xx. This is on "
                + "by default; --no-check-status makes such responses exit with 0.",
            apply: { values, _ in values.pipeline.checkStatus = true },
            // Unlike every other --no-X, this one is the only way to turn the behaviour off.
            reset: { $0.pipeline.checkStatus = false }),
    ]

    /// Multipart uploads and progress (the groups place them in the Request, Network and Output lists).
    private static let uploads: [OptionSpec] = [
        OptionSpec(
            long: "boundary", scope: [.request, .run], valueName: "TEXT", group: .request,
            help: "use TEXT as the multipart boundary",
            description: "Separate the parts of a multipart body with TEXT instead of a fresh random boundary "
                + "(AFNetworking's Boundary+ and 16 hex digits). TEXT is 1 to 70 letters, digits, spaces or "
                + "'()+_,-./:=? and does not end with a space (RFC 2046). It implies --multipart unless "
                + "--json or --plist is given. Useful to get the same bytes twice, as in --offline --print=B.",
            apply: { values, text in
                let boundary = text ?? ""
                if let problem = MultipartBoundary.problem(with: boundary) { throw OptionValueError(problem) }
                values.request.boundary = boundary
            },
            reset: { $0.request.boundary = nil }),
        OptionSpec(
            long: "throttle", scope: .request, valueName: "RATE", group: .network,
            help: "pace the upload: 3g, or bytes a second",
            description: "Pace the request body. 3g is AFNetworking's suggested 3G throttling: 16384-byte "
                + "packets 0.2 seconds apart, about 80 KiB a second. Otherwise RATE is bytes per second, "
                + "with k for KiB or m for MiB as in curl's --limit-rate (500k).",
            completion: .words(["3g", "500k", "1m"]),
            apply: { values, text in
                guard let throttle = UploadThrottle(parsing: text ?? "") else {
                    throw OptionValueError("is not 3g or a rate in bytes per second such as 500k or 2m")
                }
                values.request.throttle = throttle
            },
            reset: { $0.request.throttle = nil }),
        OptionSpec(
            long: "progress", scope: [.request, .download], valueName: "WHEN", group: .output,
            help: "auto (default), bar, percent or none",
            description: "How transfer progress is shown on standard error while a file is uploaded or "
                + "downloaded (afcli download). auto "
                + "draws a bar (bytes sent, percent, rate and time left, fitted to the terminal's width) when "
                + "standard error is a terminal and nothing otherwise; bar always draws it; percent prints a "
                + "line such as 37% for every new whole percent, never going back, for scripts; none shows "
                + "nothing.",
            completion: .words(ProgressStyle.allCases.map(\.rawValue)),
            apply: { values, text in
                values.output.progress = try OptionValueParser.choice(text ?? "", of: ProgressStyle.self)
            },
            reset: { $0.output.progress = .auto }),
    ]

    /// `afcli download` (listed with the Output and Network options).
    private static let downloads: [OptionSpec] = [
        OptionSpec(
            long: "resume", scope: .download, short: "c", group: .output, help: "download: continue a partial file",
            description: "With afcli download, continue an interrupted download instead of starting again: "
                + "afcli's own NAME.part (found by URL, or named by -o), or with -o FILE a partial FILE written "
                + "by another tool. It asks for the rest with Range and If-Range; when the server sends the "
                + "whole file instead (it changed, or it does not do ranges), afcli starts again from zero. "
                + "A NAME that is already whole is reported as complete (exit status 0).",
            apply: { values, _ in values.download.resume = true },
            reset: { $0.download.resume = false }),
        OptionSpec(
            long: "overwrite", scope: .download, group: .output, help: "download: replace an existing file",
            description: "With afcli download, replace a file that has the chosen name. Without it an existing "
                + "file is never replaced: the download is saved as NAME-1, NAME-2 and so on. A file named "
                + "with -o is always replaced.",
            apply: { values, _ in values.download.overwrite = true },
            reset: { $0.download.overwrite = false }),
        OptionSpec(
            long: "sha256", scope: .download, valueName: "HEX", group: .output,
            help: "download: check the file's SHA-256",
            description: "With afcli download, compute the file's SHA-256 while it is written (reading back "
                + "what a resumed download already had) and fail, removing the file, unless it is HEX (64 "
                + "hexadecimal digits).",
            apply: { values, text in
                let hex = text ?? ""
                guard SHA256.parseHex(hex) != nil else { throw OptionValueError("is not 64 hexadecimal digits") }
                values.download.sha256 = hex
            },
            reset: { $0.download.sha256 = nil }),
        OptionSpec(
            long: "retry", scope: .sending, valueName: "N", group: .network,
            help: "retry N times after transient failures",
            description: "Try again up to N times after a transient failure: a timeout, a name that did not "
                + "resolve, a connection that could not be made (refused too), HTTP 408, 429, 500, 502, 503 or 504, "
                + "as curl's --retry. Only GET, HEAD, OPTIONS, PUT, DELETE and TRACE are sent again unless "
                + "--retry-all-errors. The wait is the server's Retry-After or rate-limit reset (RateLimit, "
                + "X-RateLimit-Reset), else --retry-delay, else 1 second doubling each time (up to 10 minutes, "
                + "with jitter). A body is sent again from its start; a body from standard input is refused. In "
                + "afcli run, a 429 or a Retry-After from a host makes every later request to that host wait too, "
                + "and each line gets \"tries\". With afcli download, the download continues from the bytes "
                + "already saved (see DOWNLOADS).",
            apply: { values, text in
                let digits = text ?? ""
                guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let count = Int(digits),
                    count <= 1000
                else { throw OptionValueError("is not a number of retries from 0 to 1000") }
                values.retry.count = count
            },
            reset: { $0.retry.count = 0 }),
        OptionSpec(
            long: "retry-delay", scope: .sending, valueName: "SECONDS", group: .network,
            help: "wait SECONDS between retries",
            description: "With --retry, wait SECONDS before each retry instead of the doubling backoff, unless "
                + "the server names a wait. With afcli download, the first wait (1 by default), each later one "
                + "twice as long, at most 60 seconds.",
            apply: { values, text in values.retry.delay = try OptionValueParser.positiveSeconds(text ?? "") },
            reset: { $0.retry.delay = nil }),
        OptionSpec(
            long: "retry-max-time", scope: [.request, .run], valueName: "SECONDS", group: .network,
            help: "start no retry SECONDS after the first try",
            description: "With --retry, start no retry once SECONDS have passed since the request's first try, "
                + "and none whose wait (the server's included) would end after that.",
            apply: { values, text in values.retry.maxTime = try OptionValueParser.positiveSeconds(text ?? "") },
            reset: { $0.retry.maxTime = nil }),
        OptionSpec(
            long: "retry-all-errors", scope: [.request, .run], group: .network,
            help: "retry every failure and every method",
            description: "With --retry, also retry POST, PATCH and other methods that are not idempotent (the "
                + "server may then act twice on one request), and every transfer failure (a connection reset, "
                + "a response cut short, a TLS failure) except an interrupt.",
            apply: { values, _ in values.retry.allErrors = true },
            reset: { $0.retry.allErrors = false }),
        OptionSpec(
            long: "reconnect", scope: .request, group: .network,
            help: "reconnect a dropped event stream (--retry N)",
            description: "With --retry N, connect a GET text/event-stream response again when it drops, up to N "
                + "times, as EventSource does: with Last-Event-ID set to the last event ID seen, after the "
                + "server's retry: time (else --retry-delay, else 3 seconds). The new events go on after the "
                + "last whole event (one the drop cut off is dropped); a stream without Content-Length or "
                + "chunking is connected again when it closes, one whose framing marks its end is not.",
            apply: { values, _ in values.retry.reconnect = true },
            reset: { $0.retry.reconnect = false }),
    ]

    /// TLS verification, pinning and client certificates (AFSecurityPolicy), listed under Network.
    private static let security: [OptionSpec] = [
        OptionSpec(
            long: "verify", scope: .handshaking, valueName: "yes|no|PATH", group: .network,
            help: "verify TLS certificates, or trust PATH",
            description: "yes (the default) verifies the server's certificate chain against the system's CA "
                + "certificates and checks that it names the host. PATH, a CA bundle file or a directory of "
                + "hashed CA certificates, replaces the system's CAs. no accepts any certificate and any host "
                + "name, as curl's -k does (AFNetworking: allowInvalidCertificates with validatesDomainName "
                + "off). --no-verify restores the default.",
            completion: .file,
            apply: { values, text in values.tls.verify = try SecurityOptionParser.verification(text ?? "") },
            reset: { $0.tls.verify = nil }),
        OptionSpec(
            long: "insecure", scope: .handshaking, short: "k", group: .network,
            help: "accept any certificate (--verify=no)",
            description: "The same as --verify=no: accept any certificate and host name. Pins are still "
                + "enforced, so --insecure with --pin-key trusts exactly the pinned keys.",
            apply: { values, _ in values.tls.verify = .no },
            reset: { values in if values.tls.verify == .no { values.tls.verify = nil } }),
        OptionSpec(
            long: "verify-host", scope: .handshaking, group: .network, help: "check the certificate's host name (on)",
            description: "Check that the server's certificate names the host in the URL (AFNetworking: "
                + "validatesDomainName). It is on unless --verify=no is given; --no-verify-host turns only "
                + "this check off and keeps the chain verification. --insecure --verify-host is refused "
                + "without a pin, as AFNetworking refuses it.",
            // Like --no-check-status, --no-verify-host is the only way to turn the check off.
            apply: { values, _ in values.tls.verifyHost = true },
            reset: { $0.tls.verifyHost = false }),
        OptionSpec(
            long: "pin-key", scope: .handshaking, valueName: "sha256//BASE64", group: .network,
            help: "accept only this public key (repeat)",
            description: "Accept the server only if a certificate anywhere in its chain (as sent, or as "
                + "verified up to its root) has this public key: the base64 SHA-256 of its "
                + "SubjectPublicKeyInfo, as afcli pin prints it (AFNetworking's PublicKey pinning mode). Give "
                + "it several times to accept any of several keys; --no-pin-key forgets them all. A mismatch "
                + "stops the connection before any request byte is sent, with exit status 10.",
            apply: { values, text in values.tls.pinnedKeys.append(try SecurityOptionParser.publicKeyPin(text ?? "")) },
            reset: { $0.tls.pinnedKeys = [] }),
        OptionSpec(
            long: "pin-cert", scope: .handshaking, valueName: "FILE", group: .network,
            help: "trust only the certificates in FILE (repeat)",
            description: "Trust only the certificates in FILE (PEM, or one DER certificate such as "
                + "AFNetworking's .cer files), which must appear in the server's chain (AFNetworking's "
                + "Certificate pinning mode). Give it several times to pin several; --no-pin-cert forgets "
                + "them all. The pinned certificates replace the system's CAs, so a pinned self-signed "
                + "certificate works without --insecure.",
            completion: .file,
            apply: { values, text in
                values.tls.pinnedCertificateFiles.append(
                    try OptionValueParser.nonEmpty(text ?? "", what: "a file name"))
            },
            reset: { $0.tls.pinnedCertificateFiles = [] }),
        OptionSpec(
            long: "cert", scope: .handshaking, valueName: "FILE", group: .network,
            help: "client certificate (PEM) for mutual TLS",
            description: "Present the client certificate in FILE (PEM) when the server asks for one. FILE may "
                + "also hold the private key; otherwise give --cert-key.",
            completion: .file,
            apply: { values, text in
                values.tls.clientCertificate = try OptionValueParser.nonEmpty(text ?? "", what: "a file name")
            },
            reset: { $0.tls.clientCertificate = nil }),
        OptionSpec(
            long: "cert-key", scope: .handshaking, valueName: "FILE", group: .network,
            help: "the private key of --cert (PEM)",
            description: "The private key (PEM, unencrypted) of the --cert certificate.",
            completion: .file,
            apply: { values, text in
                values.tls.clientKey = try OptionValueParser.nonEmpty(text ?? "", what: "a file name")
            },
            reset: { $0.tls.clientKey = nil }),
        OptionSpec(
            long: "tls-min", scope: .handshaking, valueName: "VERSION", group: .network,
            help: "oldest TLS version accepted: 1.2 or 1.3",
            description: "Refuse to connect with a TLS version older than VERSION, 1.2 or 1.3.",
            completion: .words(Settings.TLSMinimum.allCases.map(\.rawValue)),
            apply: { values, text in
                values.tls.tlsMinimum = try OptionValueParser.choice(text ?? "", of: Settings.TLSMinimum.self)
            },
            reset: { $0.tls.tlsMinimum = nil }),
        OptionSpec(
            long: "resolve", scope: .handshaking, valueName: "HOST:PORT:ADDR", group: .network,
            help: "connect to ADDR for HOST:PORT (repeat)",
            description: "Use the address ADDR (IPv6 in brackets; several separated by commas) for HOST and "
                + "PORT instead of resolving the name, as curl's --resolve does. The URL, the Host header, "
                + "TLS server name and certificate checks keep HOST. Give it once per host and port.",
            apply: { values, text in values.tls.resolve.append(try SecurityOptionParser.resolveEntry(text ?? "")) },
            reset: { $0.tls.resolve = [] }),
    ]

    /// `afcli reachability` (listed under Network).
    private static let reachability: [OptionSpec] = [
        OptionSpec(
            long: "probe", scope: .reachability, group: .network, help: "reachability: also connect, and time it",
            description: "With afcli reachability, also open a TCP connection to the host (and do a TLS "
                + "handshake for port 443 or an https URL) and report how long each took. Unlike the route "
                + "lookup, this sends packets. A failed probe makes the exit status 1.",
            apply: { values, _ in values.reachability.probe = true },
            reset: { $0.reachability.probe = false }),
        OptionSpec(
            long: "watch", scope: .reachability, group: .network, help: "reachability: print every change until Ctrl-C",
            description: "With afcli reachability, keep watching and print a line each time the status, the "
                + "interface or the source address changes, starting from unknown. Changes are noticed "
                + "through netlink (or by polling every 2 seconds where netlink is unavailable).",
            apply: { values, _ in values.reachability.watch = true },
            reset: { $0.reachability.watch = false }),
    ]

    private static let responseDisplay: [OptionSpec] = [
        OptionSpec(
            long: "pretty", scope: .request, valueName: "STYLE", group: .output, help: "all, colors, format or none",
            description: "How to show response bodies: all formats and colours them (the default on a terminal), "
                + "colors only colours them, format only formats them (JSON indented 4, XML indented 2), and none "
                + "prints the exact bytes (the default into a pipe or file). --pretty=all and --pretty=colors write "
                + "colour even into a pipe or file.",
            completion: .words(Settings.PrettyMode.allCases.map(\.rawValue)),
            apply: { values, text in
                values.output.pretty = try OptionValueParser.choice(text ?? "", of: Settings.PrettyMode.self)
            },
            reset: { $0.output.pretty = nil }),
        OptionSpec(
            long: "style", scope: .request, short: "s", valueName: "NAME", group: .output,
            help: "colour scheme: auto, mono, monokai...",
            description: "The colour scheme for headers and bodies: auto (the terminal's own colours, the default), "
                + "mono (bold and dim only), monokai or solarized (256 colours).",
            completion: .words(Settings.ColorStyle.allCases.map(\.rawValue)),
            apply: { values, text in
                values.output.style = try OptionValueParser.choice(text ?? "", of: Settings.ColorStyle.self)
            },
            reset: { $0.output.style = .auto }),
        OptionSpec(
            long: "indent", scope: .request, valueName: "N", group: .output,
            help: "indent formatted bodies by N spaces",
            description: "Indent formatted JSON and XML by N spaces per level, 0 to 16. The default is 4 for JSON "
                + "and 2 for XML.",
            apply: { values, text in values.output.indent = try ResponseOptionParser.indent(text ?? "") },
            reset: { $0.output.indent = nil }),
        OptionSpec(
            long: "sorted", scope: .request, group: .output, help: "sort the keys of JSON objects",
            description: "Sort the members of formatted JSON objects by key. Each object is held in memory while "
                + "it is sorted: the whole top-level object, or one element at a time of a top-level array.",
            apply: { values, _ in values.output.sorted = true },
            reset: { $0.output.sorted = false }),
        OptionSpec(
            long: "drop-nulls", scope: .request, group: .output, help: "leave out null members and elements",
            description: "Leave null members and null array elements out of formatted JSON, recursively, as "
                + "AFNetworking's removesKeysWithNullValues does. Only one key at a time is held in memory.",
            apply: { values, _ in values.output.dropNulls = true },
            reset: { $0.output.dropNulls = false }),
        OptionSpec(
            long: "plist-as", scope: .request, valueName: "FORMAT", group: .output,
            help: "show property lists as xml or json",
            description: "Show property-list responses (XML or binary bplist00) as an indented XML property list "
                + "(xml, the default) or as JSON (json). A binary list is held in memory to be decoded.",
            completion: .words(PropertyListDisplay.allCases.map(\.rawValue)),
            apply: { values, text in
                values.output.plistAs = try OptionValueParser.choice(text ?? "", of: PropertyListDisplay.self)
            },
            reset: { $0.output.plistAs = .xml }),
        OptionSpec(
            long: "stream", scope: .request, short: "S", group: .output,
            help: "print the body line by line as it arrives",
            description: "Write each part of the body as soon as it arrives instead of in large blocks, and read "
                + "a JSON body as a sequence of values, one per line. This is automatic for text/event-stream "
                + "(server-sent events) and JSON-lines responses (application/x-ndjson, application/jsonl, "
                + "application/json-seq), which a terminal or --pretty shows one event or value at a time, "
                + "formatted.",
            apply: { values, _ in values.output.stream = true },
            reset: { $0.output.stream = false }),
        OptionSpec(
            long: "jsonpath", scope: .request, valueName: "QUERY", group: .output,
            help: "print what an RFC 9535 JSONPath query selects",
            description: "Print only the values QUERY, an RFC 9535 JSONPath query such as $.items[*].id, selects "
                + "from the JSON response body: each as compact JSON on its own line, coloured on a terminal. Each "
                + "value of an NDJSON or JSON-sequence body is queried on its own. The body is read as it arrives: "
                + "memory stays flat however large it is, unless the query needs an array's length or the whole "
                + "document (a negative index, a slice with a negative bound or step, several selectors in one "
                + "bracket, $ inside a filter), when each top-level value is held, up to 16 MiB (exit 12 beyond). "
                + "With .., matches are printed in document order. Only the body is printed unless --print says "
                + "otherwise. A query that does not parse exits with 2 before anything is sent; a body that is not "
                + "JSON exits with 11.",
            apply: { values, text in values.output.jsonPath = try ResponseOptionParser.jsonPath(text ?? "") },
            reset: { $0.output.jsonPath = nil }),
        OptionSpec(
            long: "max-depth", scope: [.request, .run], valueName: "N", group: .output,
            help: "read bodies nested N levels deep (512)",
            description: "The deepest nesting of arrays and objects, XML elements or property-list containers "
                + "read in a response body, 512 by default, at most \(FormattingLimits.hardMaximumDepth): the "
                + "one limit of the JSON, XML and property-list formatters (deeper, the rest is shown as received "
                + "with a warning), of --jsonpath (exit 12), and, with afcli run, of ?? assertions and of the "
                + "values requests take from others (refused). Each says the body is nested deeper than the "
                + "limit (N levels; --max-depth raises it).",
            apply: { values, text in values.output.maximumDepth = try ResponseOptionParser.depth(text ?? "") },
            reset: { $0.output.maximumDepth = FormattingLimits.maximumDepth }),
        OptionSpec(
            long: "events", scope: .request, valueName: "MODE", group: .output,
            help: "server-sent events as auto or json lines",
            description: "How server-sent events and JSON lines are written. auto (the default): on a terminal "
                + "or with --pretty, each event as it arrives with its event: and id: lines dimmed and its data "
                + "formatted when it is JSON, [DONE] shown as the end; piped, the body exactly as received. "
                + "json: one compact JSON object per event, {\"event\":…,\"id\":…,\"data\":…} (data parsed "
                + "when it is JSON, else a string), or one JSON-lines value per line, flushed each, for jq.",
            completion: .words(Settings.EventsMode.allCases.map(\.rawValue)),
            apply: { values, text in
                values.output.events = try OptionValueParser.choice(text ?? "", of: Settings.EventsMode.self)
            },
            reset: { $0.output.events = .auto }),
    ]

    private static let responseChecks: [OptionSpec] = [
        OptionSpec(
            long: "accept-status", scope: [.request, .run], valueName: "CODES", group: .network,
            help: "accept only these codes (200-299,304)",
            description: "Validate the final status code as AFNetworking does, against CODES: codes and ranges "
                + "from 100 to 599, comma-separated. A failure names the status and CODES (Request failed: status "
                + "404 (not found) is not one of --accept-status 200-299,304) and exits with 3, 4 or 5 for a 3xx, "
                + "4xx or 5xx, else with 11. It replaces "
                + "--check-status: an accepted 304 exits with 0.",
            apply: { values, text in values.pipeline.acceptStatus = try ResponseOptionParser.statusCodes(text ?? "") },
            reset: { $0.pipeline.acceptStatus = nil }),
        OptionSpec(
            long: "accept-type", scope: [.request, .run], valueName: "TYPES", group: .network,
            help: "accept only these media types",
            description: "Validate the media type of a non-empty response body as AFNetworking does, against "
                + "TYPES: media types, comma-separated, compared without parameters; json, xml, plist and image "
                + "stand for AFNetworking's lists for those serializers. The status code must then be 200-299 "
                + "unless --accept-status says otherwise. A failure exits with 11.",
            completion: .words(["json", "xml", "plist", "image"]),
            apply: { values, text in values.pipeline.acceptTypes = try ResponseOptionParser.contentTypes(text ?? "") },
            reset: { $0.pipeline.acceptTypes = nil }),
        OptionSpec(
            long: "log", scope: [.request, .run], valueName: "FORMAT", group: .output,
            help: "log each request: cj or none",
            description: "Write a log block for each request to standard error, in CJNetwork's format (cj): the "
                + "address, the parameters before and after serialization, and the result.",
            completion: .words(Settings.RequestLogFormat.allCases.map(\.rawValue)),
            apply: { values, text in
                values.pipeline.log = try OptionValueParser.choice(text ?? "", of: Settings.RequestLogFormat.self)
            },
            reset: { $0.pipeline.log = nil }),
        OptionSpec(
            long: "log-file", scope: [.request, .run], valueName: "FILE", group: .output,
            help: "append the request log to FILE",
            description: "Append the request log to FILE instead of writing it to standard error; implies "
                + "--log=cj unless --log says otherwise. FILE is opened before anything is sent, created "
                + "0600, and never through a symbolic link. - is standard output, as in curl, when it carries "
                + "nothing else (-o FILE or --quiet for the response; never for afcli run, whose lines it carries).",
            completion: .file,
            apply: { values, text in
                values.pipeline.logFile = try OptionValueParser.nonEmpty(text ?? "", what: "a file name")
            },
            reset: { $0.pipeline.logFile = nil }),
    ]

    private static let general: [OptionSpec] = [
        OptionSpec(
            long: "help", scope: .every, group: .general, help: "show this help (afcli help shows more)",
            description: "Print a short summary of usage and options and exit. afcli help prints the whole "
                + "manual.",
            apply: { values, _ in values.showHelp = true },
            reset: { $0.showHelp = false }),
        OptionSpec(
            long: "version", scope: .every, group: .general, help: "show the version",
            description: "Print the version and exit.",
            apply: { values, _ in values.showVersion = true },
            reset: { $0.showVersion = false }),
    ]
}
