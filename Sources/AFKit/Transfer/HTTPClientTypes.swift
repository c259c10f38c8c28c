import AFCurl

/// How `HTTPClient` sends a request: redirects, limits, proxy, protocol and verbosity.
package struct TransferSettings: Sendable {
    /// Whether 301/302/303/307/308 responses with a `Location` are followed.
    package var follow: Bool
    /// The most redirects followed before failing with `HTTPClientError.tooManyRedirects`.
    package var maxRedirects: Int
    /// Seconds allowed for each connection to be set up; nil for libcurl's default.
    package var connectTimeout: Double?
    /// Seconds allowed for the whole exchange, redirects included (`--max-time`); nil for no limit.
    package var totalTimeout: Double?
    /// Seconds each transfer may go without a byte received or sent (`--timeout`); nil for none.
    package var idleTimeout: Double? = nil
    /// Bounds on each response body (`--max-filesize`, the expansion ratio).
    package var limits = ResponseLimits()
    /// Explicit proxies by URL scheme; for a URL none applies to, libcurl uses `http_proxy`,
    /// `https_proxy`, `all_proxy` and `no_proxy` from the environment (upper-case forms too,
    /// except `HTTP_PROXY`, which libcurl ignores on purpose: CGI puts a request header there).
    package var proxies: [ProxySetting]
    /// Hosts that bypass the proxy; nil for `no_proxy` from the environment.
    package var noProxy: String?
    /// The HTTP version to ask for.
    package var httpVersion: HTTPVersionPreference
    /// Accept-Encoding to send and decode transparently ("" for all libcurl supports); nil for
    /// none, leaving the body exactly as received.
    package var acceptEncoding: String?
    /// TLS verification settings.
    package var tls: TLSOptions
    /// Whether `SentRequest.rawHead` carries each request head exactly as sent.
    package var verbose: Bool
    /// `HOST:PORT:ADDRESS` entries used instead of name resolution (curl's `--resolve`).
    package var resolve: [String] = []
    /// Routing (`--connect-to`, `-4`/`-6`, `--unix-socket`, `--interface`), `--limit-rate`,
    /// `--chunked` and the HSTS cache, as plain data applied to libcurl in one place.
    package var network = NetworkOptions()
    /// Cookies for libcurl's engine (a session's, a cookie jar's); nil leaves the engine off.
    package var cookies: CookieSettings? = nil
    /// The netrc file used for a request that carries no credentials of its own; nil for none.
    package var netrcFile: String? = nil
    /// Whether `Authorization`, `Cookie` and digest credentials follow a redirect to another
    /// origin (curl's `--location-trusted`); off by default.
    package var locationTrusted = false

    package init(
        follow: Bool = false, maxRedirects: Int = 30, connectTimeout: Double? = nil,
        totalTimeout: Double? = nil, proxies: [ProxySetting] = [], noProxy: String? = nil,
        httpVersion: HTTPVersionPreference = .automatic, acceptEncoding: String? = nil,
        tls: TLSOptions = TLSOptions(), verbose: Bool = false
    ) {
        self.follow = follow
        self.maxRedirects = maxRedirects
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.proxies = proxies
        self.noProxy = noProxy
        self.httpVersion = httpVersion
        self.acceptEncoding = acceptEncoding
        self.tls = tls
        self.verbose = verbose
    }
}

extension TransferSettings {
    /// The default bound on decoded bytes per received byte of a content-encoded body.
    package static let defaultExpansionRatio = ResponseLimits.defaultExpansionRatio
    /// Decoded bytes from which the expansion ratio is checked.
    package static let expansionCheckThreshold = ResponseLimits.expansionCheckThreshold

    /// A single explicit proxy: reading gives the last one, setting replaces them all.
    package var proxy: ProxySetting? {
        get { proxies.last }
        set { proxies = newValue.map { [$0] } ?? [] }
    }

    /// The explicit proxy URL for `scheme`: a proxy scoped to that scheme first, then one for
    /// all schemes; nil leaves the choice to libcurl and the environment.
    package func proxyURL(forScheme scheme: String) -> String? {
        let scheme = ASCIICase.lowercased(scheme)
        if let exact = proxies.last(where: { ASCIICase.lowercased($0.scope) == scheme }) {
            return exact.url
        }
        return proxies.last(where: { $0.appliesToAllSchemes })?.url
    }
}

/// What libcurl's cookie engine starts with before the first hop of an exchange.
package struct CookieSettings: Equatable, Sendable {
    /// A Netscape cookie file to load (`--cookie-jar`); nil for none.
    package var file: String?
    /// Netscape cookie lines to add after the file (a session's cookies).
    package var lines: [String]

    package init(file: String? = nil, lines: [String] = []) {
        self.file = file
        self.lines = lines
    }
}

/// A proxy given on the command line, optionally limited to one URL scheme
/// (HTTPie's `--proxy=http:http://proxy:3128`).
package struct ProxySetting: Equatable, Sendable {
    /// The proxy URL (`http://host:port`, `socks5h://host:port`…); "" disables proxies.
    package var url: String
    /// The URL scheme the proxy serves (`http`, `https`), or `all` / "" for every scheme.
    package var scope: String

    package init(url: String, scope: String = "all") {
        self.url = url
        self.scope = scope
    }

    /// Whether the proxy serves every scheme.
    var appliesToAllSchemes: Bool {
        scope.isEmpty || ASCIICase.lowercased(scope) == "all"
    }
}

/// One request as it goes out on one hop of an exchange.
package struct SentRequest: Sendable {
    /// The method sent.
    package var method: String
    /// The URL requested.
    package var url: String
    /// The headers afcli asked for (libcurl adds Host and the body framing headers).
    package var headers: [HTTPField]
    /// The request head exactly as written to the wire, CRLFs included; nil unless
    /// `TransferSettings.verbose` is on and the head got out.
    package var rawHead: String?

    package init(method: String, url: String, headers: [HTTPField], rawHead: String? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.rawHead = rawHead
    }
}

/// Receives each hop of an exchange as it happens; hop 0 is the original request.
///
/// Errors thrown here stop the exchange and come out of `HTTPClient.send` unchanged.
package protocol HTTPClientDelegate: AnyObject {
    /// A request is about to go out (verbose: has just gone out, with its raw head); once per hop.
    func willSend(hop: Int, request: SentRequest) throws
    /// A response head arrived; `isFinal` is false for a redirect that will be followed.
    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws
    /// A chunk of that response's (decoded) body; valid only during the call.
    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws
    /// Polled during transfers; true stops the exchange as interrupted.
    func shouldAbort() -> Bool
    /// The response of a hop has ended (its whole body was delivered, or all of it the delegate
    /// wanted); not called on failure.
    func didFinishResponse(hop: Int, isFinal: Bool) throws
    /// Asked after the final response's head and each chunk of its body: false stops reading the
    /// body there and ends the exchange as if it were complete.
    func needsMoreFinalBody() -> Bool
    /// A redirect from https to plain http (`to`) is about to be followed.
    func willFollowInsecureRedirect(hop: Int, to: String)
    /// libcurl's HSTS cache turned this hop's `http://` URL (`requested`) into `https://`.
    func didUpgradeByHSTS(hop: Int, requested: String)
    /// Progress of the current hop's download: bytes so far and expected (0 when unknown).
    func didProgress(hop: Int, downloaded: Int64, expected: Int64)
    /// Progress of the current hop's upload: body bytes sent so far and expected (0 when unknown).
    func didProgressUpload(hop: Int, uploaded: Int64, expected: Int64)
}

extension HTTPClientDelegate {
    /// Never aborts by default (SIGINT/SIGTERM are checked regardless).
    package func shouldAbort() -> Bool { false }
    /// Ignores the end of a response by default.
    package func didFinishResponse(hop: Int, isFinal: Bool) throws {}
    /// Reads every body to its end by default.
    package func needsMoreFinalBody() -> Bool { true }
    /// Ignores insecure redirects by default.
    package func willFollowInsecureRedirect(hop: Int, to: String) {}
    /// Ignores HSTS upgrades by default.
    package func didUpgradeByHSTS(hop: Int, requested: String) {}
    /// Ignores progress by default.
    package func didProgress(hop: Int, downloaded: Int64, expected: Int64) {}
    /// Ignores upload progress by default.
    package func didProgressUpload(hop: Int, uploaded: Int64, expected: Int64) {}
}

/// The end of an exchange: the final response and what it took to get there. Built once when
/// the exchange ends and only read after that, so it is an immutable object handed on by
/// reference (into completions, outcomes and every report).
package final class HTTPClientResult: Sendable {
    /// The final response's head.
    package let head: ResponseHead
    /// libcurl's report on the final hop.
    package let outcome: TransferOutcome
    /// The URL of the final request.
    package let url: String
    /// The method of the final request (GET after a 303, for example).
    package let method: String
    /// How many redirects were followed.
    package let redirectCount: Int
    /// Seconds spent on all hops together.
    package let totalTime: Double
    /// The cookie engine's cookies after the exchange, as Netscape lines; empty when it was off.
    package let cookieLines: [String]
    /// Whether the cookies after the exchange differ from those of `CookieSettings.file`.
    package let cookiesChanged: Bool
    /// Each hop's metrics in order, the final hop last (AFNetworking's `transactionMetrics`);
    /// empty from a transport that measured nothing.
    package let hopMetrics: [TransferMetrics]

    package init(
        head: ResponseHead, outcome: TransferOutcome, url: String, method: String, redirectCount: Int,
        totalTime: Double, cookieLines: [String] = [], cookiesChanged: Bool = false,
        hopMetrics: [TransferMetrics] = []
    ) {
        self.head = head
        self.outcome = outcome
        self.url = url
        self.method = method
        self.redirectCount = redirectCount
        self.totalTime = totalTime
        self.cookieLines = cookieLines
        self.cookiesChanged = cookiesChanged
        self.hopMetrics = hopMetrics
    }

    /// The same result with the given facts replaced: the cookie engine's cookies after the
    /// exchange, or a cached answer's with the network's times.
    package convenience init(
        _ result: HTTPClientResult, outcome: TransferOutcome? = nil, totalTime: Double? = nil,
        cookieLines: [String]? = nil, cookiesChanged: Bool? = nil, hopMetrics: [TransferMetrics]? = nil
    ) {
        self.init(
            head: result.head, outcome: outcome ?? result.outcome, url: result.url, method: result.method,
            redirectCount: result.redirectCount, totalTime: totalTime ?? result.totalTime,
            cookieLines: cookieLines ?? result.cookieLines, cookiesChanged: cookiesChanged ?? result.cookiesChanged,
            hopMetrics: hopMetrics ?? result.hopMetrics)
    }

    /// The final response's status code.
    package var statusCode: Int { head.statusCode }
    /// The final response's reason phrase; for HTTP/2 and HTTP/3 the standard one for the code.
    package var reasonPhrase: String { head.shownReasonPhrase }

}

/// Failures of the exchange that are not libcurl's (those arrive as `CurlError`).
package enum HTTPClientError: ClassifiedError, CustomStringConvertible {
    /// More than the allowed number of redirects; carries the limit.
    case tooManyRedirects(Int)
    /// A 307/308 (or 301/302 for non-POST) must resend the body, but its source cannot replay.
    case cannotResendBody(status: Int, underlying: any Error)
    /// A redirect to a URL whose scheme is not http or https (`file://`, `ftp://`…), which is
    /// never followed; carries the target as resolved.
    case refusedRedirect(target: String)

    /// A redirect not followed (too many of them, or one to a refused scheme) has its own class;
    /// a body that cannot be sent again is an ordinary failure.
    package var failureClass: FailureClass {
        switch self {
        case .tooManyRedirects, .refusedRedirect: return .redirectNotFollowed
        case .cannotResendBody: return .failure
        }
    }

    /// The error behind `cannotResendBody`.
    package var underlyingError: (any Error)? {
        if case .cannotResendBody(_, let underlying) = self { return underlying }
        return nil
    }

    package var description: String {
        switch self {
        case .tooManyRedirects(let limit):
            return "too many redirects (more than \(limit))"
        case .cannotResendBody(let status, let underlying):
            return "cannot resend the request body after a \(status) redirect: \(underlying)"
        case .refusedRedirect(let target):
            return "refusing to follow a redirect to \(target) (only http and https)"
        }
    }
}
