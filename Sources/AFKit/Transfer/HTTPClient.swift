import AFCurl

/// Sends prepared requests over one reused libcurl handle and follows redirects in Swift.
///
/// libcurl never follows redirects itself: afcli needs each hop's head and body (for `--all`
/// style output and the request log), its own method-rewriting rules and a body source that is
/// rewound, not re-read from memory. Connections are kept alive between hops and requests.
package final class HTTPClient {
    /// How requests are sent; may be changed between requests.
    package var options: TransferSettings
    /// The libcurl handle every request of this client goes through, created on first use.
    private var handle: EasyHandle?

    /// The Accept-Encoding value libcurl can decode here (`gzip, deflate, br, zstd`).
    package static var supportedAcceptEncoding: String {
        CurlRuntime.supportedEncodings
    }

    /// Whether this libcurl can speak HTTP/3 (`--http3`).
    package static var supportsHTTP3: Bool { EasyHandle.supportsHTTP3 }

    /// The libcurl version in use (`7.88.1`), for messages.
    package static var libcurlVersion: String { CurlRuntime.version }

    /// Creates a client; libcurl is initialised when the first request is sent.
    package init(options: TransferSettings = TransferSettings()) {
        self.options = options
    }

    /// Sends `request`, following redirects when `options.follow` is on, streaming every hop to
    /// `delegate`. Throws `CurlError` for transport failures, `HTTPClientError` for redirect
    /// failures, and the delegate's own errors unchanged.
    package func send(_ request: PreparedRequest, delegate: HTTPClientDelegate) throws -> HTTPClientResult {
        let handle = try self.handle ?? EasyHandle()
        self.handle = handle
        var cookiesBefore: [String] = []
        if let cookies = options.cookies {
            // What the file held is the baseline: cookies added from the command line are changes.
            try handle.loadCookies(file: cookies.file)
            if cookies.file != nil { cookiesBefore = handle.cookieLines() }
            try handle.addCookies(cookies.lines)
        }
        let exchange = HTTPExchange(request, options: options, delegate: delegate)
        while true {
            let (transfer, events) = try exchange.nextTransfer()
            let outcome: TransferResult
            do {
                outcome = .success(try handle.perform(transfer, events: events))
            } catch {
                outcome = .failure(error)
            }
            guard let result = try exchange.hopEnded(outcome) else { continue }
            guard options.cookies != nil else { return result }
            let cookieLines = handle.cookieLines()
            return HTTPClientResult(
                result, cookieLines: cookieLines, cookiesChanged: Set(cookieLines) != Set(cookiesBefore))
        }
    }

    /// The libcurl transfer for one hop; `elapsed` seconds of the total timeout are spent.
    static func transferRequest(
        for request: PreparedRequest, options: TransferSettings, elapsed: Double, headerLines memo: HeaderLinesMemo? = nil
    ) throws -> TransferRequest {
        var timeout = options.totalTimeout
        if let total = options.totalTimeout {
            let remaining = total - elapsed
            guard remaining > 0 else { throw CurlError.timedOut(afterSeconds: total) }
            timeout = remaining
        }
        var transferOptions = TransferOptions(
            connectTimeout: options.connectTimeout, totalTimeout: timeout,
            // Parsing the URL is only worth it when a proxy was given (a batch sends thousands).
            proxy: options.proxies.isEmpty
                ? nil : CurlURL(request.url).flatMap { options.proxyURL(forScheme: $0.scheme) },
            noProxy: options.noProxy, httpVersion: options.httpVersion, acceptEncoding: options.acceptEncoding,
            digestCredentials: request.digestCredentials.map {
                DigestCredentials(user: $0.user, password: $0.password, scheme: request.challengeScheme)
            },
            tls: options.tls, reportsRequestHeads: options.verbose, resolve: options.resolve,
            idleTimeout: options.idleTimeout, limits: options.limits)
        transferOptions.network = options.network
        transferOptions.cookieEngine = options.cookies != nil
        transferOptions.netrcFile = carriesCredentials(request) ? nil : options.netrcFile
        return TransferRequest(
            method: request.method, url: request.url, headerLines: memo?.lines(for: request) ?? headerLines(for: request),
            body: request.body, options: transferOptions, requestTarget: request.requestTarget)
    }

    /// Whether the request brings its own credentials (`-a`, URL user information, a session's
    /// auth, an `Authorization` item), which netrc never overrides; checked on every hop, so a
    /// redirect that dropped them lets netrc answer for the new host.
    static func carriesCredentials(_ request: PreparedRequest) -> Bool {
        request.digestCredentials != nil
            || request.headers.contains { ASCIICase.equal($0.name, "authorization") }
    }

    /// The request's headers in libcurl's syntax: `Name: value`, `Name;` for an empty value and
    /// `Name:` to suppress a header libcurl would add.
    package static func headerLines(for request: PreparedRequest) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(request.headers.count + request.removedHeaders.count)
        for field in request.headers {
            lines.append(field.value.isEmpty ? joined(field.name, ";", "") : joined(field.name, ": ", field.value))
        }
        for name in request.removedHeaders {
            lines.append(joined(name, ":", ""))
        }
        return lines
    }

    /// `name`, `separator` and `value` as one string, written in place: one allocation where
    /// concatenation makes several (every request has a few header lines).
    private static func joined(_ name: String, _ separator: StaticString, _ value: String) -> String {
        var name = name
        var value = value
        let count = name.utf8.count + separator.utf8CodeUnitCount + value.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return }
                (target + offset).initialize(from: source, count: bytes.count)
                offset += bytes.count
            }
            name.withUTF8(copy)
            copy(UnsafeBufferPointer(start: separator.utf8Start, count: separator.utf8CodeUnitCount))
            value.withUTF8(copy)
            return offset
        }
    }
}

/// Translates one hop's libcurl events into `HTTPClientDelegate` calls.
final class HopEvents: TransferEvents {
    /// This hop's index; 0 for the original request.
    let hop: Int
    /// The request this hop sends.
    let request: PreparedRequest
    /// Whether redirects are followed.
    let follows: Bool
    /// Whether the request head waits for the response: with digest, the first head sent is the
    /// unauthenticated probe, and only the one that got the final response is worth showing.
    let defersAnnouncement: Bool
    /// Where events go; held strongly (the exchange holds it too, and it holds no hop), so the
    /// progress callback, called many times a transfer, reaches it without an unowned check.
    let delegate: HTTPClientDelegate

    /// The last request head libcurl sent on this hop.
    private var rawHead: String?
    /// Whether `willSend` has been called for this hop.
    private var announced = false
    /// Whether the response on this hop is the final one.
    private var isFinal = true
    /// Where this hop's response redirects to, when it will be followed.
    private(set) var redirectTarget: String?
    /// Where this hop's response redirects to, when the target's scheme is refused.
    private(set) var refusedTarget: String?

    init(hop: Int, request: PreparedRequest, options: TransferSettings, delegate: HTTPClientDelegate) {
        self.hop = hop
        self.request = request
        self.follows = options.follow
        self.defersAnnouncement = request.digestCredentials != nil
        self.delegate = delegate
    }

    /// Calls `willSend` once for this hop, with the raw head if one was seen.
    func announce() throws {
        guard !announced else { return }
        announced = true
        try delegate.willSend(
            hop: hop,
            request: SentRequest(method: request.method, url: request.url, headers: request.headers, rawHead: rawHead))
    }

    func requestHeadSent(_ text: String) throws {
        rawHead = text
        if !defersAnnouncement {
            try announce()
        }
    }

    func responseHead(_ head: ResponseHead) throws {
        try announce()
        redirectTarget = follows ? RedirectPolicy.target(of: head, requestURL: request.url) : nil
        if follows, redirectTarget == nil {
            refusedTarget = RedirectPolicy.refusedTarget(of: head, requestURL: request.url)
        }
        isFinal = redirectTarget == nil
        try delegate.didReceive(hop: hop, head: head, isFinal: isFinal)
    }

    func responseBody(_ chunk: UnsafeRawBufferPointer) throws {
        try delegate.didReceiveBody(hop: hop, chunk: chunk, isFinal: isFinal)
    }

    func shouldAbort() -> Bool {
        delegate.shouldAbort()
    }

    /// Only the final response may be cut short: a redirect's body is small, and reading it keeps
    /// the connection for the next hop.
    func wantsMoreBody() -> Bool {
        !isFinal || delegate.needsMoreFinalBody()
    }

    func transferProgress(downloaded: Int64, expectedDownload: Int64, uploaded: Int64, expectedUpload: Int64) {
        delegate.didProgress(hop: hop, downloaded: downloaded, expected: expectedDownload)
        delegate.didProgressUpload(hop: hop, uploaded: uploaded, expected: expectedUpload)
    }
}
