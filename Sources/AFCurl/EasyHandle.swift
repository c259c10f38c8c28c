import CCurlShim
import Glibc

/// The Swift owner of one libcurl easy handle, reused across requests so connections stay alive.
///
/// Every `perform` resets the handle's options (`curl_easy_reset` keeps live connections, the DNS
/// cache and TLS sessions) and sets them again from the `TransferRequest`, so no setting leaks
/// from one request into the next. libcurl never follows redirects here; the HTTP client does.
package final class EasyHandle {
    /// The `CURL *` this object owns; replaced by a fresh one when libcurl kept a transfer's
    /// receive buffer on it (`endTransfer`).
    private var handle: UnsafeMutableRawPointer
    /// libcurl's CURLOPT_ERRORBUFFER, which must outlive every transfer on the handle.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The resolve list and trust hooks libcurl points at (EasyHandle+TLS.swift).
    let transferResources = TransferResources()
    /// The transfer set up by `begin` and not yet concluded; it keeps the callbacks' userdata
    /// alive while libcurl may use it.
    private var active: ActiveTransfer?
    /// The header list of the last transfer and the lines it was made from: the next transfer
    /// with the same lines (every request of a batch, as a rule) hands libcurl the same list
    /// instead of building one anew. It stays alive until replaced or the handle goes away.
    private var headerList = HeaderListCache()
    /// Whether an option may have been set since the handle's last `curl_easy_reset` (a fresh
    /// handle has none, and `endTransfer` resets): only then does `begin` reset it first, so a
    /// transfer after a finished one does not reset twice.
    private var isDirty = false
    /// The cookie engine the handle is attached to (`useCookies`), kept alive while it is.
    var cookieShare: TransferShare?

    /// Creates a handle, initialising libcurl for the process on first use.
    package init() throws(CurlError) {
        let initCode = afcurl_global_init()
        guard initCode == CURLE_OK else { throw CurlError.setup("could not initialise libcurl", code: initCode) }
        guard let handle = afcurl_easy_init() else {
            throw CurlError(kind: .other, description: "could not create a libcurl handle")
        }
        self.handle = handle
        errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if active != nil { endTransfer() }
        detachBeforeClosing()
        afcurl_easy_cleanup(handle)
        // After the cleanup: libcurl no longer points at the list.
        headerList.free()
        errorBuffer.deallocate()
    }

    /// Performs one HTTP exchange, streaming the response into `events`, and reports the outcome.
    package func perform(_ request: TransferRequest, events: TransferEvents) throws(CurlError) -> TransferOutcome {
        try begin(request, events: events)
        let code = afcurl_easy_perform(handle)
        return try conclude(code: code)
    }

    /// Configures the handle for `request` and installs the callbacks, leaving the transfer for
    /// `curl_easy_perform` or a multi handle to run; `conclude` must follow once it has ended.
    func begin(_ request: TransferRequest, events: TransferEvents) throws(CurlError) {
        if afcurl_interrupted() != 0 {
            throw CurlError.interrupted(signal: afcurl_interrupt_signal())
        }
        if isDirty { afcurl_easy_reset(handle) }
        isDirty = true
        let body = EasyHandle.effectiveBody(method: request.method, body: request.body)
        let context = TransferContext(
            events: events, body: body,
            defersChallengeHeads: request.options.digestCredentials != nil, handle: handle,
            idleTimeout: request.options.idleTimeout, limits: request.options.limits,
            decodesContent: request.options.acceptEncoding != nil)
        let transfer = ActiveTransfer(request: request, context: context)
        active = transfer
        do {
            let posted = request.options.network.chunked ? nil : try context.readSmallBody(limit: Self.postedBodyLimit)
            let headers = try headerList.list(for: request.headerLines, uploading: body != nil, posted: posted != nil)
            try configure(transfer.request, body: body, posted: posted, headerList: headers)
            try installCallbacks(context: context, reportsRequestHeads: transfer.request.options.reportsRequestHeads)
        } catch {
            forgetUnreadHSTSFile()
            endTransfer()
            throw error
        }
        errorBuffer[0] = 0
    }

    /// Interprets the result code of the transfer `begin` set up, reads its outcome and releases
    /// what it held; throws the transfer's failure (a callback's stored error first).
    func conclude(code: CURLcode) throws(CurlError) -> TransferOutcome {
        guard let active else {
            throw CurlError(kind: .other, description: "no transfer was started on this handle")
        }
        // Runs after the outcome is read: the reset drops the header list, the callbacks and
        // their userdata, which would dangle once the context is gone (libcurl may call the debug
        // callback while closing connections in curl_easy_cleanup).
        defer { endTransfer() }
        if code == CURLE_FAILED_INIT { forgetUnreadHSTSFile() }
        // Read in place: a copy of the request would retain and release each of its fields.
        let context = active.context
        requestSentAt = context.requestSentAt
        // A transfer stopped by a signal or by an error of its own callbacks was still sent and
        // timed: its error keeps the times up to the stop.
        if afcurl_interrupted() != 0 {
            var error = CurlError.interrupted(signal: afcurl_interrupt_signal())
            error.metrics = TransferMetrics.read(from: handle, requestURL: active.request.url)
            throw error
        }
        if var error = context.storedError {
            error.metrics = TransferMetrics.read(from: handle, requestURL: active.request.url)
            throw error
        }
        // A body that no one reads any more ends the transfer early, as a complete response; so
        // does a response complete before the request body was all sent.
        guard code == CURLE_OK || context.bodyDeclined || context.answeredEarly
            || answeredBeforeBodySent(code, context)
        else {
            if code == CURLE_ABORTED_BY_CALLBACK && context.abortRequested {
                throw CurlError.interrupted(signal: 0)
            }
            var error = failure(code: code, request: active.request, context: context)
            error.metrics = TransferMetrics.read(from: handle, requestURL: active.request.url)
            throw error
        }
        try context.finish()
        if active.request.options.network.hstsFile != nil {
            prepareHSTSDirectory(active.request.options.network, url: active.request.url, head: context.reportedHead)
        }
        return outcome(head: context.reportedHead, requestURL: active.request.url)
    }

    /// Whether a transfer that failed with `code` had a complete response before its request body
    /// was all sent (`TransferContext.answeredBeforeBodySent`): libcurl 7.88 fails the send on a
    /// stream it saw end cleanly with CURLE_HTTP2_STREAM and no message of its own (its messages
    /// name the stream's error, or a head that never came).
    private func answeredBeforeBodySent(_ code: CURLcode, _ context: TransferContext) -> Bool {
        guard code == CURLE_HTTP2_STREAM, errorBuffer[0] == 0 else { return false }
        var downloaded: curl_off_t = 0
        var uploaded: curl_off_t = 0
        _ = afcurl_getinfo_off(handle, CURLINFO_SIZE_DOWNLOAD_T, &downloaded)
        _ = afcurl_getinfo_off(handle, CURLINFO_SIZE_UPLOAD_T, &uploaded)
        return context.answeredBeforeBodySent(downloaded: Int64(downloaded), uploaded: Int64(uploaded), ended: true)
    }

    /// The request body bytes sent and in all, when part of the body was not sent.
    private func unsentBody(_ context: TransferContext) -> (sent: Int64, total: Int64?)? {
        var uploaded: curl_off_t = 0
        _ = afcurl_getinfo_off(handle, CURLINFO_SIZE_UPLOAD_T, &uploaded)
        return context.unsentBody(uploaded: Int64(uploaded))
    }

    /// Resets the handle and frees what the transfer held (the callbacks' userdata); the header
    /// list is kept for the next transfer.
    private func endTransfer() {
        let keptBuffer = keepsReceiveBuffer()
        afcurl_easy_reset(handle)
        isDirty = false
        active = nil
        transferResources.endTransfer()
        if keptBuffer { renew() }
    }

    /// Whether libcurl kept the receive buffer of the transfer that just ended on the handle.
    ///
    /// libcurl 7.71 to 8.6 allocate a transfer's receive buffer when it starts and free it in
    /// `multi_done`, except when the connection is still in use by another transfer: an HTTP/2
    /// stream that ends while other streams share its connection returns early from
    /// `multi_done`, and the buffer (with the rest of that transfer's leftovers, such as the
    /// upload buffer) stays on the handle into its next transfer. While a handle holds a buffer,
    /// libcurl refuses CURLOPT_BUFFERSIZE with CURLE_BAD_FUNCTION_ARGUMENT (the buffer was
    /// allocated for the old size), so every later transfer on it would fail to start; that
    /// refusal, on a handle no transfer runs on, is also the only way to tell. (libcurl 8.7 lends
    /// every transfer the multi handle's buffer instead.)
    private func keepsReceiveBuffer() -> Bool {
        afcurl_setopt_long(handle, CURLOPT_BUFFERSIZE, EasyHandle.receiveBufferSize) == CURLE_BAD_FUNCTION_ARGUMENT
    }

    /// Replaces the `CURL *` with a fresh one: closing the old one frees what libcurl kept on it.
    /// Connections, the DNS cache and TLS sessions of a multi handle's transfers live in the
    /// multi handle, so they stay; the cookie share is attached again. (A handle's own cookie
    /// engine goes with it; a handle of a multi handle sends the run's cookies through the share.)
    private func renew() {
        guard let fresh = afcurl_easy_init() else { return }
        detachBeforeClosing()
        afcurl_easy_cleanup(handle)
        handle = fresh
        transferResources.loadedHSTSFile = nil
        if let share = cookieShare, afcurl_setopt_share(fresh, share.share) != CURLE_OK {
            cookieShare = nil
        }
    }

    /// Detaches the handle from a share that holds the HSTS cache before it is closed: libcurl
    /// writes a handle's cache to its file when the handle is closed, and the shared one is
    /// written once, by the share (`TransferShare`).
    private func detachBeforeClosing() {
        if let share = cookieShare, share.sharesHSTS { _ = afcurl_setopt_share(handle, nil) }
    }

    // MARK: - Setup

    /// POST, PUT and PATCH always carry a body (an empty one when none was given) so they send
    /// `Content-Length: 0` (RFC 9110 §8.6); HEAD never sends one.
    static func effectiveBody(method: String, body: BodySource?) -> BodySource? {
        if method == "HEAD" { return nil }
        if let body { return body }
        // Compared directly: hashing the method for a set lookup cost more, on every transfer.
        return method == "POST" || method == "PUT" || method == "PATCH" ? EmptyBodySource() : nil
    }

    /// The methods that always carry a body, an empty one when none was given, so that libcurl
    /// sends `Content-Length: 0` (RFC 9110 §8.6). The serializer reads the same set, so what
    /// `--offline` prints is what is sent; `effectiveBody` spells the same three out.
    package static let methodsWithBody: Set<String> = ["POST", "PUT", "PATCH"]

    /// The header lines libcurl is given: `lines`, plus `Expect:` for uploads unless one was
    /// given (libcurl adds `Expect: 100-continue` to uploads and waits a second for the 100;
    /// HTTPie and AFNetworking never send it). The curl command line prints the same lines.
    /// A body `posted` from memory also gets `Content-Type:` when it has none, or libcurl would
    /// add `application/x-www-form-urlencoded`.
    static func sentHeaderLines(_ lines: [String], uploading: Bool, posted: Bool = false) -> [String] {
        var all = lines
        guard uploading else { return all }
        var hasExpect = false
        var hasContentType = false
        for line in lines {
            switch EasyHandle.headerName(of: line) {
            case "expect": hasExpect = true
            case "content-type": hasContentType = true
            default: break
            }
        }
        if !hasExpect { all.append("Expect:") }
        if posted && !hasContentType { all.append("Content-Type:") }
        return all
    }

    /// The largest request body of a known length handed to libcurl whole (CURLOPT_POSTFIELDS)
    /// instead of through the read callback: under HTTP/2's initial flow-control window (65,535
    /// bytes), so such a body never waits for the server to grant more. libcurl then sends the
    /// head and the body together (one write over HTTP/1.1, one pass over HTTP/2) instead of
    /// asking for the body on later passes: 2,000 POSTs of 1 KB over HTTP/2 in parallel took
    /// about a sixth longer through the callback, as they do with curl's `-T` beside its `-d`.
    static let postedBodyLimit = 65_535

    /// The lower-cased name of a `Name: value` / `Name;` header line.
    static func headerName(of line: String) -> String {
        let name = line.prefix { $0 != ":" && $0 != ";" }
        return ASCIICase.lowercased(String(name))
    }

    /// The most libcurl reads from the connection at a time: 100 KiB, as curl's tool asks for.
    /// libcurl allocates one byte more than this, and at 128 KiB that allocation is above glibc's
    /// threshold for a mapping of its own; the kernel then copied received data into it markedly
    /// slower (a 1 GiB download to /dev/null from a local nginx: 0.42 s at 128 KiB, 0.36 s at 100
    /// KiB, 0.35 s for curl; 100 KiB forced into a mapping was as slow as 128 KiB).
    static let receiveBufferSize = 100 * 1024

    /// Sets every option of the request on the freshly reset handle.
    private func configure(
        _ request: TransferRequest, body: BodySource?, posted: [UInt8]?,
        headerList: UnsafeMutablePointer<curl_slist>?
    ) throws(CurlError) {
        let options = request.options
        try setString(CURLOPT_URL, request.url, "the URL was rejected")
        if let target = request.requestTarget {
            try setString(CURLOPT_REQUEST_TARGET, target, "the request target was rejected")
        }
        try setString(CURLOPT_PROTOCOLS_STR, "http,https", "http is not supported by this libcurl")
        try setLong(CURLOPT_FOLLOWLOCATION, 0)
        try setLong(CURLOPT_NOSIGNAL, 1)
        try setLong(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        // Large bodies arrive in reads of up to this size instead of libcurl's 16 KiB: a 1 GiB
        // download makes 10,500 reads instead of 65,000. Larger saves little more, and the buffer
        // is resident once a large body has filled it.
        try setLong(CURLOPT_BUFFERSIZE, EasyHandle.receiveBufferSize)
        try check(afcurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "error buffer")
        try check(afcurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "headers")

        if request.method == "HEAD" {
            try setLong(CURLOPT_NOBODY, 1)
        } else if let posted {
            // POST is what libcurl sends a posted body with; any other method is named.
            if request.method != "POST" { try setString(CURLOPT_CUSTOMREQUEST, request.method, "method") }
            try check(afcurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(posted.count)), "body size")
            // Copied by libcurl, which keeps its copy for a resend (an authentication). An empty
            // body is given as an empty string: a null pointer would have libcurl read stdin.
            let code =
                posted.isEmpty
                ? "".withCString { afcurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0)) }
                : posted.withUnsafeBytes {
                    afcurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress))
                }
            try check(code, "body")
        } else if let body {
            try setLong(CURLOPT_UPLOAD, 1)
            try setString(CURLOPT_CUSTOMREQUEST, request.method, "method")
            // -1 makes HTTP/1.1 uploads chunked; libcurl writes Content-Length otherwise.
            let size = options.network.chunked ? -1 : body.length.map { curl_off_t(clamping: $0) } ?? -1
            try check(afcurl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, size), "body size")
        } else if request.method == "GET" {
            try setLong(CURLOPT_HTTPGET, 1)
        } else {
            try setString(CURLOPT_CUSTOMREQUEST, request.method, "method")
        }

        if let seconds = options.effectiveConnectTimeout {
            try setLong(CURLOPT_CONNECTTIMEOUT_MS, EasyHandle.milliseconds(seconds))
        }
        if let maxBytes = options.limits.maxBodyBytes {
            // libcurl refuses a body whose announced length is too large before any of it arrives;
            // the write callback counts the decoded bytes of the rest.
            try check(afcurl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBytes)), "maximum body size")
        }
        if let seconds = options.totalTimeout {
            try setLong(CURLOPT_TIMEOUT_MS, EasyHandle.milliseconds(seconds))
        }
        if let proxy = options.proxy { try setString(CURLOPT_PROXY, proxy, "proxy") }
        if let noProxy = options.noProxy { try setString(CURLOPT_NOPROXY, noProxy, "no-proxy list") }
        try configureHTTPVersion(options.httpVersion)
        if let encoding = options.acceptEncoding {
            try setString(CURLOPT_ACCEPT_ENCODING, encoding, "accept-encoding")
        }
        if let digest = options.digestCredentials {
            try setLong(CURLOPT_HTTPAUTH, Int(bitPattern: digest.scheme.curlAuth))
            try setString(CURLOPT_USERNAME, digest.user, "user name")
            try setString(CURLOPT_PASSWORD, digest.password, "password")
        }
        try configureCookiesAndNetrc(options)
        try configureResolve(options.resolve)
        try configureNetwork(options.network, url: request.url)
        try configureTLS(options.tls, url: request.url)
    }

    /// The limit behind a libcurl failure, if it was one: an announced body larger than
    /// `--max-filesize`, or a header line beyond libcurl's own limit, which libcurl 7.88 reports
    /// as a bare CURLE_OUT_OF_MEMORY from its bounded header buffer (`duringHead`: no final head
    /// had arrived, so the head was what was being read).
    static func limitViolation(code: CURLcode, limits: ResponseLimits, duringHead: Bool) -> ResponseLimitViolation? {
        if code == CURLE_FILESIZE_EXCEEDED, let maxBytes = limits.maxBodyBytes {
            return .bodySize(limit: maxBytes)
        }
        if code == CURLE_OUT_OF_MEMORY, duringHead {
            return .headerLineLength(limit: ResponseLimits.maxHeaderLineBytes)
        }
        return nil
    }

    /// Converts seconds to libcurl's milliseconds, never rounding a positive timeout down to 0
    /// (which would mean "no timeout").
    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds > 0 else { return 0 }
        return max(1, Int(min(seconds * 1000, Double(Int32.max)).rounded()))
    }

    // MARK: - Option helpers

    /// Sets a `long` option, turning a rejection into a `CurlError`.
    func setLong(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(afcurl_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    /// Sets a string option (libcurl copies it), turning a rejection into a `CurlError`.
    func setString(_ option: CURLoption, _ value: String, _ what: @autoclosure () -> String) throws(CurlError) {
        try check(value.withCString { afcurl_setopt_string(handle, option, $0) }, what())
    }

    /// Turns a non-OK setup result into a `CurlError` naming what was being set; the name is made
    /// only on failure (a batch sets a dozen options per transfer).
    func check(_ code: CURLcode, _ what: @autoclosure () -> String) throws(CurlError) {
        isDirty = true
        guard code == CURLE_OK else { throw CurlError.setup("could not set \(what())", code: code) }
    }

    /// The raw `CURL *`, for the callback installer.
    var rawHandle: UnsafeMutableRawPointer { handle }

    /// The context of the transfer in progress, nil between transfers.
    var activeContext: TransferContext? { active?.context }

    /// When the last transfer's request was about to be sent (monotonic seconds), when it was
    /// timed (`timeRequestStart`); 0 otherwise. Set when the transfer is concluded.
    package private(set) var requestSentAt = 0.0

    // MARK: - Results

    /// Reads what libcurl knows about the finished transfer. The metrics read every value the
    /// outcome repeats (status, URL, version, address, sizes, time), so each is asked once.
    /// The error for a transfer libcurl ended with `code`.
    private func failure(code: CURLcode, request: TransferRequest, context: TransferContext) -> CurlError {
        let message = String(cString: errorBuffer)
        if let violation = EasyHandle.limitViolation(
            code: code, limits: request.options.limits, duringHead: context.reportedHead == nil)
        {
            return CurlError.limitExceeded(violation)
        }
        if code == CURLE_HTTP2_STREAM, message.isEmpty, let unsent = unsentBody(context) {
            // The stream ended cleanly with body left to send (`answeredBeforeBodySent`), but the response
            // was not all delivered: libcurl 7.88 drops what it has buffered of a response when
            // the server's RST_STREAM (NO_ERROR) is read together with it.
            return CurlError(
                kind: .receiveFailed, code: Int(code.rawValue),
                description: "the server ended the HTTP/2 stream without reading the whole request body "
                    + "(\(unsent.sent) of \(unsent.total.map(String.init) ?? "more") bytes sent), "
                    + "and libcurl lost the response that came with its reset")
        }
        if code == CURLE_URL_MALFORMAT {
            let reason = message.isEmpty ? CurlError.strerror(code) : message
            return CurlError(
                kind: .badURL, code: Int(code.rawValue),
                description: "invalid URL \"\(request.url)\": libcurl refuses it (\(reason))")
        }
        if code == CURLE_COULDNT_CONNECT, let socket = request.options.network.unixSocket {
            // libcurl names the URL's host and port, which a Unix socket route never reaches.
            var number = 0
            _ = afcurl_getinfo_long(handle, CURLINFO_OS_ERRNO, &number)
            let reason = number == 0 ? message : CurlError.lowercasingFirstLetter(String(cString: Glibc.strerror(Int32(number))))
            return CurlError(
                kind: .couldNotConnect, code: Int(code.rawValue),
                description: "cannot connect to the Unix socket \(socket): \(reason)")
        }
        return transferError(code: code, message: message, request: request)
    }

    private func outcome(head: ResponseHead?, requestURL: String) -> TransferOutcome {
        let metrics = TransferMetrics.read(from: handle, requestURL: requestURL)
        var redirect: UnsafePointer<CChar>?
        let redirectURL =
            afcurl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &redirect) == CURLE_OK
            ? redirect.map { String(cString: $0) } : nil
        // libcurl's empty effective URL and address read as absent in the metrics; here the URL
        // is "" then, and the address nil, as they always were.
        return TransferOutcome(
            statusCode: metrics.responseCode, effectiveURL: metrics.effectiveURL ?? "", redirectURL: redirectURL,
            httpVersion: head?.httpVersion ?? EasyHandle.versionName(metrics.httpVersionCode),
            primaryIP: metrics.remoteAddress, primaryPort: metrics.remotePort,
            bytesDownloaded: metrics.bodyBytesReceived, bytesUploaded: metrics.bodyBytesSent,
            totalTime: metrics.total, head: head, metrics: metrics)
    }

    /// The status-line spelling of a CURLINFO_HTTP_VERSION value.
    private static func versionName(_ version: Int) -> String {
        switch version {
        case CURL_HTTP_VERSION_1_0: return "HTTP/1.0"
        case CURL_HTTP_VERSION_1_1: return "HTTP/1.1"
        case CURL_HTTP_VERSION_2_0: return "HTTP/2"
        case CURL_HTTP_VERSION_3: return "HTTP/3"
        default: return ""
        }
    }
}

/// The body of a POST/PUT/PATCH sent without one: zero bytes, so libcurl writes Content-Length: 0.
final class EmptyBodySource: BodySource {
    var length: UInt64? { 0 }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { 0 }
    func rewind() throws {}
}

/// What one transfer on an `EasyHandle` holds between `begin` and `conclude`; a class, so that
/// reading it does not copy the request.
final class ActiveTransfer {
    /// The request being sent.
    let request: TransferRequest
    /// The callbacks' userdata.
    let context: TransferContext

    init(request: TransferRequest, context: TransferContext) {
        self.request = request
        self.context = context
    }
}
