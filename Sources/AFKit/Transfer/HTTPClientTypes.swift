import AFCurl

/// How `HTTPClient` sends a request: redirects, limits, proxy, protocol and verbosity. A value
/// type whose fields share one object until changed: every request of a batch carries a copy.
package struct TransferSettings: Sendable {
    /// Whether 301/302/303/307/308 responses with a `Location` are followed.
    package var follow: Bool {
        get { storage.fields.follow }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.follow
        }
    }
    /// The most redirects followed before failing with `HTTPClientError.tooManyRedirects`.
    package var maxRedirects: Int {
        get { storage.fields.maxRedirects }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.maxRedirects
        }
    }
    /// Seconds allowed for each connection to be set up; nil for libcurl's default.
    package var connectTimeout: Double? {
        get { storage.fields.connectTimeout }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.connectTimeout
        }
    }
    /// Seconds allowed for the whole exchange, redirects included (`--max-time`); nil for no limit.
    package var totalTimeout: Double? {
        get { storage.fields.totalTimeout }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.totalTimeout
        }
    }
    /// Seconds each transfer may go without a byte received or sent (`--timeout`); nil for none.
    package var idleTimeout: Double? {
        get { storage.fields.idleTimeout }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.idleTimeout
        }
    }
    /// Bounds on each response body (`--max-filesize`, the expansion ratio).
    package var limits: ResponseLimits {
        get { storage.fields.limits }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.limits
        }
    }
    /// Explicit proxies by URL scheme; for a URL none applies to, libcurl uses `http_proxy`,
    /// `https_proxy`, `all_proxy` and `no_proxy` from the environment (upper-case forms too,
    /// except `HTTP_PROXY`, which libcurl ignores on purpose: CGI puts a request header there).
    package var proxies: [ProxySetting] {
        get { storage.fields.proxies }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.proxies
        }
    }
    /// Hosts that bypass the proxy; nil for `no_proxy` from the environment.
    package var noProxy: String? {
        get { storage.fields.noProxy }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.noProxy
        }
    }
    /// The HTTP version to ask for.
    package var httpVersion: HTTPVersionPreference {
        get { storage.fields.httpVersion }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.httpVersion
        }
    }
    /// Accept-Encoding to send and decode transparently ("" for all libcurl supports); nil for
    /// none, leaving the body exactly as received.
    package var acceptEncoding: String? {
        get { storage.fields.acceptEncoding }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.acceptEncoding
        }
    }
    /// TLS verification settings.
    package var tls: TLSOptions {
        get { storage.fields.tls }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.tls
        }
    }
    /// Whether `SentRequest.rawHead` carries each request head exactly as sent.
    package var verbose: Bool {
        get { storage.fields.verbose }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.verbose
        }
    }
    /// `HOST:PORT:ADDRESS` entries used instead of name resolution (curl's `--resolve`).
    package var resolve: [String] {
        get { storage.fields.resolve }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.resolve
        }
    }
    /// Routing (`--connect-to`, `-4`/`-6`, `--unix-socket`, `--interface`), `--limit-rate`,
    /// `--chunked` and the HSTS cache, as plain data applied to libcurl in one place.
    package var network: NetworkOptions {
        get { storage.fields.network }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.network
        }
    }
    /// Cookies for libcurl's engine (a session's, a cookie jar's); nil leaves the engine off.
    package var cookies: CookieSettings? {
        get { storage.fields.cookies }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.cookies
        }
    }
    /// The netrc file used for a request that carries no credentials of its own; nil for none.
    package var netrcFile: String? {
        get { storage.fields.netrcFile }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.netrcFile
        }
    }
    /// Whether `Authorization`, `Cookie` and digest credentials follow a redirect to another
    /// origin (curl's `--location-trusted`); off by default.
    package var locationTrusted: Bool {
        get { storage.fields.locationTrusted }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.locationTrusted
        }
    }

    package init(
        follow: Bool = false, maxRedirects: Int = 30, connectTimeout: Double? = nil,
        totalTimeout: Double? = nil, proxies: [ProxySetting] = [], noProxy: String? = nil,
        httpVersion: HTTPVersionPreference = .automatic, acceptEncoding: String? = nil,
        tls: TLSOptions = TLSOptions(), verbose: Bool = false
    ) {
        storage = SharedFields(Fields(
            follow: follow, maxRedirects: maxRedirects, connectTimeout: connectTimeout, totalTimeout: totalTimeout,
            idleTimeout: nil, limits: ResponseLimits(), proxies: proxies, noProxy: noProxy, httpVersion: httpVersion,
            acceptEncoding: acceptEncoding, tls: tls, verbose: verbose, resolve: [], network: NetworkOptions(),
            cookies: nil, netrcFile: nil, locationTrusted: false))
    }

    // MARK: - Storage

    /// Every field, in one object: a copy of the value costs one reference count, and a change
    /// to a shared copy copies the fields first.
    fileprivate var storage: SharedFields<Fields>

    /// The fields themselves, which `storage` holds.
    fileprivate struct Fields {
        var follow: Bool
        var maxRedirects: Int
        var connectTimeout: Double?
        var totalTimeout: Double?
        var idleTimeout: Double?
        var limits: ResponseLimits
        var proxies: [ProxySetting]
        var noProxy: String?
        var httpVersion: HTTPVersionPreference
        var acceptEncoding: String?
        var tls: TLSOptions
        var verbose: Bool
        var resolve: [String]
        var network: NetworkOptions
        var cookies: CookieSettings?
        var netrcFile: String?
        var locationTrusted: Bool
    }
}

extension TransferSettings: CustomReflectable {
    /// The fields themselves, as if they were stored in the value (what the curl mapping's
    /// completeness check enumerates, and what a debugger shows).
    package var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children)
    }
}

extension TransferSettings {
    /// The default bound on decoded bytes per received byte of a content-encoded body.
    package static let defaultExpansionRatio = ResponseLimits.defaultExpansionRatio
    /// Decoded bytes from which the expansion ratio is checked.
    package static let expansionCheckThreshold = ResponseLimits.expansionCheckThreshold
    /// The header limits every response is held to: line length, field count and head size.
    package static let headerLimits = (
        lineBytes: ResponseLimits.maxHeaderLineBytes, count: ResponseLimits.maxHeaderCount,
        headBytes: ResponseLimits.maxHeadBytes
    )

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

/// The end of an exchange: the final response and what it took to get there. A value type whose
/// fields share one object until changed, so handing a result on costs one reference count.
package struct HTTPClientResult: Sendable {
    /// The final response's head.
    package var head: ResponseHead {
        get { storage.fields.head }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.head
        }
    }
    /// libcurl's report on the final hop.
    package var outcome: TransferOutcome {
        get { storage.fields.outcome }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.outcome
        }
    }
    /// The URL of the final request.
    package var url: String {
        get { storage.fields.url }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.url
        }
    }
    /// The method of the final request (GET after a 303, for example).
    package var method: String {
        get { storage.fields.method }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.method
        }
    }
    /// How many redirects were followed.
    package var redirectCount: Int {
        get { storage.fields.redirectCount }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.redirectCount
        }
    }
    /// Seconds spent on all hops together.
    package var totalTime: Double {
        get { storage.fields.totalTime }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.totalTime
        }
    }
    /// The cookie engine's cookies after the exchange, as Netscape lines; empty when it was off.
    package var cookieLines: [String] {
        get { storage.fields.cookieLines }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.cookieLines
        }
    }
    /// Whether the cookies after the exchange differ from those of `CookieSettings.file`.
    package var cookiesChanged: Bool {
        get { storage.fields.cookiesChanged }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.cookiesChanged
        }
    }
    /// Each hop's metrics in order, the final hop last (AFNetworking's `transactionMetrics`);
    /// empty from a transport that measured nothing.
    package var hopMetrics: [TransferMetrics] {
        get { storage.fields.hopMetrics }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.hopMetrics
        }
    }

    package init(
        head: ResponseHead, outcome: TransferOutcome, url: String, method: String, redirectCount: Int,
        totalTime: Double
    ) {
        storage = SharedFields(Fields(
            head: head, outcome: outcome, url: url, method: method, redirectCount: redirectCount,
            totalTime: totalTime, cookieLines: [], cookiesChanged: false, hopMetrics: []))
    }

    /// The final response's status code.
    package var statusCode: Int { head.statusCode }
    /// The final response's reason phrase; for HTTP/2 and HTTP/3 the standard one for the code.
    package var reasonPhrase: String { head.shownReasonPhrase }

    // MARK: - Storage

    /// Every field, in one object: a copy of the value costs one reference count, and a change
    /// to a shared copy copies the fields first.
    private var storage: SharedFields<Fields>

    /// The fields themselves, which `storage` holds.
    private struct Fields {
        var head: ResponseHead
        var outcome: TransferOutcome
        var url: String
        var method: String
        var redirectCount: Int
        var totalTime: Double
        var cookieLines: [String]
        var cookiesChanged: Bool
        var hopMetrics: [TransferMetrics]
    }
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

    /// Whether this is `tooManyRedirects`.
    package var isTooManyRedirects: Bool {
        if case .tooManyRedirects = self { return true }
        return false
    }

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
