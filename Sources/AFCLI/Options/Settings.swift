import AFKit

/// The typed settings the command line's options produce, each holding its default until an
/// option from `OptionTable.all` changes it. What the config environment can give too is
/// weighed against them once, in `ResolvedSettings`, which commands hand to their consumers.
///
/// The fields live in small groups (`request`, `environment`, `transfer`, `tls`, `session`,
/// `pipeline`, `output`, `run`, `download`, `retry`, `reachability`), one per concern; a new
/// option's field goes into the group of the code that reads it.
///
/// Fields that several options write (`request.encoding`, `transfer.httpVersion`,
/// `output.printParts`) are shared destinations: the last option given wins, and a `--no-X` form
/// clears the field only when it still holds the value X would have set. Relations between fields
/// (which parts to print, for instance) are resolved in one place,
/// `resolvedPrintParts(stdoutIsTerminal:)`.
package struct Settings: Equatable, Sendable {
    /// What is sent and how it is built: method, body, base URL, credentials, and whether it is
    /// sent at all.
    package var request = Request()
    /// The config environment: which one, whether the config is read, `--simulate`, `--local`.
    package var environment = Environment()
    /// Redirects, timeouts, limits, HTTP version, proxy and the connection's route.
    package var transfer = Transfer()
    /// Certificate verification, pinning, client certificates and `--resolve`.
    package var tls = TLS()
    /// Sessions, cookie jars, netrc, and whether credentials follow redirects.
    package var session = Session()
    /// The stages an exchange passes through and its verdict: encryption, cache, checks, log.
    package var pipeline = Pipeline()
    /// What is printed, and how.
    package var output = Output()
    /// `afcli run`: parallelism, order, tests and reports.
    package var run = Run()
    /// `afcli download`.
    package var download = Download()
    /// Trying a request or a download again.
    package var retry = Retry()
    /// `afcli reachability`.
    package var reachability = Reachability()
    /// `--help`: show the short help instead of sending a request.
    package var showHelp = false
    /// `--version`: show the version instead of sending a request.
    package var showVersion = false

    /// Settings with every default in place, as if no option had been given.
    package init() {}
}

extension Settings {
    /// The request itself, its body, its credentials, and whether it is sent.
    package struct Request: Equatable, Sendable {
        /// `-X/--method`: the method token exactly as typed (methods are case-sensitive, RFC 9110
        /// §9.1); nil when the method comes from the METHOD word or is inferred.
        package var method: String? = nil
        /// `--json`, `--form`, `--multipart`, `--plist`: how data items become a body; nil leaves the
        /// choice to the request builder (JSON, or multipart when a file item is present).
        package var encoding: BodyEncoding? = nil
        /// `--raw`: a literal request body.
        package var rawBody: String? = nil
        /// `--base-url`: the URL that relative request URLs are resolved against.
        package var baseURL: String? = nil
        /// `--boundary`: the multipart boundary to use instead of a fresh random one.
        package var boundary: String? = nil
        /// `--throttle`: how the request body is paced; nil sends it as fast as the network allows.
        package var throttle: UploadThrottle? = nil
        /// `-x/--compress`: deflate the request body (HTTPie's `-x`).
        package var compress: Bool = false
        /// `-I/--ignore-stdin`: never read standard input.
        package var ignoreStdin: Bool = false
        /// `--offline`: build and print the request, send nothing.
        package var offline: Bool = false
        /// `--curl`: print the equivalent curl command line, send nothing.
        package var curl: Bool = false
        /// `--show-secrets`: do not redact secrets in `--curl` output.
        package var showSecrets: Bool = false

        // MARK: Authentication

        /// `-a/--auth`: `USER[:PASS]`, or a token for bearer; split by the caller.
        package var auth: String? = nil
        /// `-A/--auth-type`: how `auth` is sent.
        package var authType: AuthType = .basic
        /// `--aws-sigv4`, `--auth-cmd`: the stages that sign a request last.
        package var authStages = AuthStageOptions()

        package init() {}
    }

    /// The config environment (`--env`, `--simulate`, `--local`).
    package struct Environment: Equatable, Sendable {
        /// `--env`: the environment to use (a config environment; for `afcli run`, also the
        /// `http-client.env.json` environment); nil for none.
        package var name: String? = nil
        /// `--no-config`: false skips the config file (`--config` turns it back on).
        package var readsConfig: Bool = true
        /// `--simulate[=URL]`: send to the environment's simulation origin (or URL); nil for the real one.
        package var simulate: SimulateTarget? = nil
        /// `--local`: answer from the environment's local directory, with no network.
        package var local: Bool = false

        package init() {}
    }

    /// How the transfer runs: redirects, timeouts, response limits, HTTP version, proxy and the
    /// connection's route (made into AFKit's settings by `transferSettings`).
    package struct Transfer: Equatable, Sendable {
        /// `-F/--follow`: follow redirects.
        package var follow: Bool = false
        /// `--max-redirects`: the most redirects followed before failing with exit status 6.
        package var maxRedirects: Int = 30
        /// `--timeout`: seconds the transfer may go without receiving or sending a byte (an idle
        /// timeout, as HTTPie's); nil for no limit (downloads with `--retry` default to
        /// `downloadRetryIdleTimeout`).
        package var timeout: Double? = nil
        /// The idle timeout of `afcli download --retry` when `--timeout` is not given: AFNetworking's
        /// default `timeoutInterval`, so a stalled server is retried instead of waited on for ever.
        package static let downloadRetryIdleTimeout: Double = 60
        /// `--max-time`: seconds allowed for the whole exchange, as curl's; nil for no limit.
        package var maxTime: Double? = nil
        /// `--max-filesize`: the most bytes a response body may have after decoding; nil for none.
        package var maxFilesize: Int64? = nil
        /// `--max-expansion`: the most decoded bytes per received byte of a content-encoded body
        /// (checked past 16 MiB); 0 turns the check off.
        package var maxExpansion: Int = TransferSettings.defaultExpansionRatio
        /// `--connect-timeout`: seconds allowed to connect; nil for libcurl's default.
        package var connectTimeout: Double? = nil
        /// `--proxy`: an explicit proxy; nil leaves the proxy environment variables in charge.
        package var proxy: Proxy? = nil
        /// `--http1.1`, `--http2`, `--http2-prior-knowledge`, `--http3`: the HTTP version to ask for;
        /// nil lets libcurl negotiate (HTTP/2 over TLS, HTTP/1.1 in clear text).
        package var httpVersion: HTTPVersion? = nil
        /// `--noproxy`: hosts reached without a proxy; nil leaves `no_proxy`/`NO_PROXY` in charge.
        package var noProxy: String? = nil
        /// `--connect-to`: `HOST1:PORT1:HOST2:PORT2` entries, every one given.
        package var connectTo: [String] = []
        /// `-4/--ipv4`, `-6/--ipv6`: the only address family names may resolve to; nil for either.
        package var addressFamily: AddressFamily? = nil
        /// `--unix-socket`: connect through this Unix domain socket.
        package var unixSocket: String? = nil
        /// `--interface`: the local interface, address or host to send from.
        package var interface: String? = nil
        /// `--chunked`: send request bodies with chunked transfer encoding.
        package var chunked: Bool = false
        /// `--limit-rate`: the most response bytes per second; nil for no limit.
        package var limitRate: Int64? = nil
        /// `--hsts`: remember and apply HSTS policies (on by default; `--no-hsts` turns it off).
        package var hsts: Bool = true

        package init() {}
    }

    /// TLS (types in Security/Settings+Security.swift) and `--resolve`, which `SecurityOptions`
    /// applies with them.
    package struct TLS: Equatable, Sendable {
        /// `--verify`, `-k/--insecure`: how the server's chain is verified; nil for the default, yes.
        package var verify: Verification? = nil
        /// `--verify-host`, `--no-verify-host`: check the host name; nil follows `--verify`.
        package var verifyHost: Bool? = nil
        /// `--pin-key`: pinned public keys as typed (`sha256//BASE64`), every one given.
        package var pinnedKeys: [String] = []
        /// `--pin-cert`: files of pinned certificates, every one given.
        package var pinnedCertificateFiles: [String] = []
        /// `--cert`, `--cert-key`: the client certificate and its key.
        package var clientCertificate: String? = nil
        package var clientKey: String? = nil
        /// `--tls-min`: the oldest TLS version accepted.
        package var tlsMinimum: TLSMinimum? = nil
        /// `--resolve`: `HOST:PORT:ADDRESS` entries used instead of name resolution, every one given.
        package var resolve: [String] = []

        package init() {}
    }

    /// Sessions, cookies, netrc (OptionTable+Sessions.swift).
    package struct Session: Equatable, Sendable {
        /// `--session`, `--session-read-only`: a session name or path; nil for none.
        package var name: String? = nil
        /// `--session-read-only`: use the session without writing it back.
        package var readOnly: Bool = false
        /// `--session-store-auth`: whether `-a` credentials are kept in the session.
        package var storesAuth: Bool = true
        /// `--cookie-jar`: a Netscape cookie file read before and written after the request.
        package var cookieJar: String? = nil
        /// `--ignore-netrc`: never take credentials from netrc.
        package var ignoreNetrc: Bool = false
        /// `--location-trusted`: credentials follow redirects to other origins.
        package var locationTrusted: Bool = false

        package init() {}
    }

    /// The stages every exchange passes through and its verdict: encryption and envelope, the
    /// response cache, the status and type checks, and the request log.
    package struct Pipeline: Equatable, Sendable {
        /// `--encrypt-cmd`, `--decrypt-cmd`, `--no-encrypt`, `--encrypted-type`, `--envelope…`.
        package var crypto = CryptoOptions()
        /// `--cache`, `--cache-ttl`, `--cache-namespace` and the other response-cache options.
        package var cache = CacheOptions()
        /// `--check-status`: map a final 3xx/4xx/5xx to exit status 3/4/5 (on by default).
        package var checkStatus: Bool = true
        /// `--accept-status`: AF validation of the status code; nil leaves `--check-status` in charge.
        package var acceptStatus: StatusCodeSet? = nil
        /// `--accept-type`: AF validation of the media type; nil checks no type.
        package var acceptTypes: Set<String>? = nil
        /// `--log`: the request log format; nil for none (unless `--log-file` is given).
        package var log: RequestLogFormat? = nil
        /// `--log-file`: append the request log to this file instead of standard error.
        package var logFile: String? = nil

        package init() {}
    }

    /// What is printed and how (types in Output/ResponseDisplay.swift).
    package struct Output: Equatable, Sendable {
        /// `-p/--print`, `-h/--headers`, `-b/--body`: which parts to print; nil for the default.
        package var printParts: PrintParts? = nil
        /// `-v/--verbose`: print the request as well as the response.
        package var verbose: Bool = false
        /// `-q/--quiet`: print nothing to stdout (unless `--output`) and no warnings.
        package var quiet: Bool = false
        /// `--jsonpath`: print only what this RFC 9535 query selects from the response body.
        package var jsonPath: JSONPathQuery? = nil
        /// `--max-depth`: the deepest nesting of a response body that the formatters, `--jsonpath`,
        /// a run's `??` assertions and its references read.
        package var maximumDepth: Int = FormattingLimits.maximumDepth
        /// `-o/--output`: write the output to this file instead of stdout.
        package var outputFile: String? = nil
        /// `-w/--write-out`: curl's write-out format, or `@FILE`, `@-`; nil for none.
        package var writeOut: String? = nil
        /// `--meta`: the metrics as a table or as JSON (types in OptionTable+Metrics.swift).
        package var metaFormat: MetaFormat = .table

        // MARK: Response display

        /// `--pretty`: how bodies are shown; nil for the default (all on a terminal, none otherwise).
        package var pretty: PrettyMode? = nil
        /// `-s/--style`: the colour scheme.
        package var style: ColorStyle = .auto
        /// `--indent`: spaces per level; nil for 4 in JSON and 2 in XML.
        package var indent: Int? = nil
        /// `--sorted`: sort JSON object keys.
        package var sorted: Bool = false
        /// `--drop-nulls`: leave out null members and elements (AF's removesKeysWithNullValues).
        package var dropNulls: Bool = false
        /// `--plist-as`: show property lists as XML or JSON.
        package var plistAs: PropertyListDisplay = .xml
        /// `-S/--stream`: print the body line by line as it arrives.
        package var stream: Bool = false
        /// `--events`: how server-sent events and JSON lines are written.
        package var events: EventsMode = .auto
        /// `--progress`: how transfer progress is shown on standard error.
        package var progress: ProgressStyle = .auto

        package init() {}
    }

    /// `afcli run`: how its requests are scheduled, tested and reported.
    package struct Run: Equatable, Sendable {
        /// `--parallel`: how many requests of `afcli run` are in flight at once; nil for 1.
        package var parallel: Int? = nil
        /// `--first`: names of `afcli run` requests that complete before any other starts.
        package var firstNames: [String] = []
        /// `--keep-going`: `afcli run` starts the remaining requests after a failure.
        package var keepGoing: Bool = false
        /// `--test`: run the requests as tests, a pass/fail line each and a summary.
        package var testMode: Bool = false
        /// `--retry-interval`: seconds between the tries of a request whose assertions failed.
        package var retryInterval: Double = 1
        /// `--report FORMAT=FILE`: the reports written when a run ends.
        package var reports: [RunReportRequest] = []
        /// `--output-dir`: where `afcli run` saves each body as `NAME.body`; nil discards bodies.
        package var outputDirectory: String? = nil
        /// `--file-root`: the directory a `.http` file's files must lie under; nil: the file's own.
        package var fileRoot: String? = nil
        /// `--variable NAME=VALUE`: `.http` file variables over the file's own and the
        /// environment's, which also answer `# @prompt NAME`.
        package var variables: [String: String] = [:]
        /// `--allow-env`: the environment variables (names or glob patterns) a `.http` file may read.
        package var allowedEnvironment: [String] = []

        package init() {}
    }

    /// `afcli download`.
    package struct Download: Equatable, Sendable {
        /// `-c/--resume`: continue a partial download (`afcli download` only).
        package var resume: Bool = false
        /// `--overwrite`: let a download replace an existing file instead of numbering the name.
        package var overwrite: Bool = false
        /// `--sha256`: the digest the downloaded file must have, 64 hex digits as typed.
        package var sha256: String? = nil

        package init() {}
    }

    /// Trying a request or a download again after a transient failure.
    package struct Retry: Equatable, Sendable {
        /// `--retry`: how many times a request or a download is tried again after a transient failure.
        package var count: Int = 0
        /// `--retry-delay`: seconds between a request's tries (nil: the doubling backoff), or before a
        /// download's first retry, doubled for each later one (nil: 1).
        package var delay: Double? = nil
        /// `--retry-max-time`: seconds from a request's first try after which no retry starts.
        package var maxTime: Double? = nil
        /// `--retry-all-errors`: retry every failure and every method.
        package var allErrors: Bool = false
        /// `--reconnect`: connect a dropped GET event stream again, up to `count` times.
        package var reconnect: Bool = false

        package init() {}
    }

    /// `afcli reachability`.
    package struct Reachability: Equatable, Sendable {
        /// `--probe`: `reachability` also connects (TCP, and TLS for https) and times it.
        package var probe: Bool = false
        /// `--watch`: `reachability` prints a line at every change until interrupted.
        package var watch: Bool = false

        package init() {}
    }
}

extension Settings {
    /// The credentials scheme `-A/--auth-type` selects.
    package enum AuthType: String, CaseIterable, Equatable, Sendable {
        case basic
        case digest
        case bearer
        case ntlm
        case negotiate
        case oauth2
    }

    /// The HTTP version `--http1.1`, `--http2`, `--http2-prior-knowledge` or `--http3` asks for.
    package enum HTTPVersion: String, CaseIterable, Equatable, Sendable {
        case http1_1 = "1.1"
        case http2 = "2"
        case http2PriorKnowledge = "2-prior-knowledge"
        case http3 = "3"
    }

    /// The address family `-4/--ipv4` or `-6/--ipv6` restricts names to.
    package enum AddressFamily: String, CaseIterable, Equatable, Sendable {
        case ipv4
        case ipv6
    }

    /// An explicit proxy from `--proxy [PROTOCOL:]URL`.
    package struct Proxy: Equatable, Sendable {
        /// Which request URLs the proxy applies to.
        package enum Scope: String, CaseIterable, Equatable, Sendable {
            case http
            case https
            case all
        }

        /// Which request URLs the proxy applies to; `.all` when no PROTOCOL was given.
        package var scope: Scope
        /// The proxy URL as typed.
        package var url: String

        package init(scope: Scope, url: String) {
            self.scope = scope
            self.url = url
        }
    }

    /// The parts of an exchange to print, HTTPie's `--print` letters.
    package struct PrintParts: OptionSet, Equatable, Hashable, Sendable {
        package let rawValue: UInt8

        package init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// `H`: the request line and headers.
        package static let requestHeaders = PrintParts(rawValue: 1 << 0)
        /// `B`: the request body.
        package static let requestBody = PrintParts(rawValue: 1 << 1)
        /// `h`: the response status line and headers.
        package static let responseHeaders = PrintParts(rawValue: 1 << 2)
        /// `b`: the response body.
        package static let responseBody = PrintParts(rawValue: 1 << 3)
        /// `m`: response metadata (elapsed time, protocol, the metrics table).
        package static let metadata = PrintParts(rawValue: 1 << 4)

        /// The letters in HTTPie's order, paired with the part each one selects.
        package static let letters: [(letter: Character, part: PrintParts)] = [
            ("H", .requestHeaders), ("B", .requestBody), ("h", .responseHeaders), ("b", .responseBody),
            ("m", .metadata),
        ]

        /// Parses `--print` letters; nil when the text is empty or holds a letter outside `HBhbm`.
        package init?(letters text: String) {
            guard !text.isEmpty else { return nil }
            var parts: PrintParts = []
            for character in text {
                guard let entry = Self.letters.first(where: { $0.letter == character }) else { return nil }
                parts.insert(entry.part)
            }
            self = parts
        }

        /// The selected parts spelled as `--print` letters, in HTTPie's order.
        package var letterString: String {
            String(Self.letters.filter { contains($0.part) }.map(\.letter))
        }
    }

    /// The parts to print once every option is known, following HTTPie: an explicit `--print`
    /// (or `-h`, `-b`) wins; else `--verbose` prints request and response; else `--offline`
    /// prints the request; else `--jsonpath` prints the body's matches alone; else a terminal gets
    /// headers and body and anything else the body only.
    ///
    /// `--quiet` is not applied here: it discards stdout (unless `--output` is given) rather than
    /// changing what is formatted. With `--output`, pass `stdoutIsTerminal: false`.
    package func resolvedPrintParts(stdoutIsTerminal: Bool) -> PrintParts {
        if let printParts = output.printParts { return printParts }
        if output.verbose { return [.requestHeaders, .requestBody, .responseHeaders, .responseBody, .metadata] }
        if request.offline { return [.requestHeaders, .requestBody] }
        // The matches are the output, on a terminal too, as jq prints only its results.
        if output.jsonPath != nil { return [.responseBody] }
        return stdoutIsTerminal ? [.responseHeaders, .responseBody] : [.responseBody]
    }
}
