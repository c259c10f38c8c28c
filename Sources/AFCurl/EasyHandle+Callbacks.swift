import CCurlShim
import Glibc

/// The per-transfer state libcurl's callbacks reach through their userdata pointer.
///
/// Swift errors never unwind through libcurl's C frames: a callback that fails stores its error
/// here and returns libcurl's "stop" value; `EasyHandle.perform` rethrows the stored error.
final class TransferContext {
    /// Where response heads and bodies go.
    let events: TransferEvents
    /// The body libcurl pulls, if any.
    let body: BodySource?
    /// Whether a 401 may be a digest challenge libcurl answers itself, so its head waits until a
    /// body byte or the end of the transfer proves it final.
    let defersChallengeHeads: Bool

    /// Rebuilds heads from header lines. Unchecked: only the header callback reaches it, one
    /// line at a time, and its dynamic exclusivity check cost more than parsing a line.
    @exclusivity(unchecked) var parser = ResponseHeadParser()
    /// A completed final head not yet given to `events`.
    var pendingHead: ResponseHead?
    /// The head given to `events`.
    var reportedHead: ResponseHead?
    /// The first error a callback raised.
    private(set) var storedError: CurlError?
    /// Whether a callback raised one: what the callbacks check, many times a transfer (reading
    /// `storedError` copies the error).
    private var failed = false
    /// Whether `events.shouldAbort()` asked to stop.
    var abortRequested = false
    /// Request head bytes seen by the debug callback but not yet complete.
    var requestHead: [UInt8] = []
    /// Whether `events` said it needs no more of the body, so the transfer was cut short on purpose.
    var bodyDeclined = false
    /// Whether the transfer was ended because its HTTP/2 response was complete before the request
    /// body was all sent (`answeredBeforeBodySent`): a complete response.
    var answeredEarly = false
    /// Request body bytes handed to libcurl so far, and whether the body source has ended.
    private var bodyBytesRead: Int64 = 0
    private var bodyEnded = false
    /// Whether the reported head came on an HTTP/2 or HTTP/3 stream, and the length its body has
    /// when complete, if the head tells (`answeredBeforeBodySent`).
    private var reportedOnStream = false
    private var completeBodyLength: Int64?
    /// When the request was first about to be sent (monotonic seconds), 0 until then; recorded
    /// only when asked for (`EasyHandle.timeRequestStart`).
    var requestSentAt = 0.0

    /// The `CURL *` of the transfer, for the received byte count.
    private let handle: UnsafeMutableRawPointer
    /// Seconds without a byte received or sent before the transfer fails; nil for no limit.
    private let idleTimeout: Double?
    /// Bounds on the body.
    private let limits: ResponseLimits
    /// Whether libcurl decodes the content (the request set an Accept-Encoding).
    private let decodesContent: Bool
    /// Whether content decoding was turned off for the head being received (`ContentCoding`).
    private var keepsCoding = false
    /// Body bytes given to `events` so far (after content decoding).
    private var decodedBytes: Int64 = 0
    /// When a byte last moved (monotonic seconds), and the counters seen then.
    private var lastActivity = TransferContext.now()
    private var lastCounters: (Int64, Int64) = (0, 0)
    /// The progress `events` last heard of, and when while a body was sent (monotonic seconds).
    private var lastProgress: (Int64, Int64, Int64, Int64) = (-1, -1, -1, -1)
    private var lastProgressAt = 0.0
    /// The longest `events` goes without hearing of progress while a body is sent and the
    /// counters stand still.
    static let progressInterval = 0.25

    init(
        events: TransferEvents, body: BodySource?, defersChallengeHeads: Bool, handle: UnsafeMutableRawPointer,
        idleTimeout: Double?, limits: ResponseLimits, decodesContent: Bool
    ) {
        self.decodesContent = decodesContent
        self.events = events
        self.body = body
        self.defersChallengeHeads = defersChallengeHeads
        self.handle = handle
        self.idleTimeout = idleTimeout
        self.limits = limits
    }

    /// Handles one header line; false stops the transfer.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
        guard !failed else { return false }
        if idleTimeout != nil { lastActivity = TransferContext.now() }
        var head: ResponseHead
        switch parser.feed(line) {
        case .none: return true
        case .limitExceeded(let violation):
            store(.limitExceeded(violation))
            return false
        case .completed(let completed): head = completed
        }
        // 1xx heads (100 Continue, 101 Switching Protocols for h2c) are interim: never reported.
        guard head.statusCode >= 200 else { return true }
        if let kept = ContentCoding.undecodable(in: head, decodesContent: decodesContent) { head = head.keeping(kept) }
        if (head.keptCoding != nil) != keepsCoding {
            // libcurl reads this option for each body write, after the head's last line: a coding
            // it cannot decode passes through as received instead of failing the transfer.
            keepsCoding = head.keptCoding != nil
            _ = afcurl_setopt_long(handle, CURLOPT_HTTP_CONTENT_DECODING, keepsCoding ? 0 : 1)
        }
        // A newer head replaces an unreported one: that was a challenge libcurl answered.
        pendingHead = head
        if defersChallengeHeads && head.statusCode == 401 { return true }
        return reportPendingHead() && stillWantsBody()
    }

    /// Whether `events` still needs the body; when not, marks the transfer as cut short on purpose
    /// (the callback then returns libcurl's error value, which `perform` treats as success).
    private func stillWantsBody() -> Bool {
        guard events.wantsMoreBody() else {
            bodyDeclined = true
            return false
        }
        return true
    }

    /// Gives the pending head to `events`; false (with the error stored) when it throws.
    func reportPendingHead() -> Bool {
        guard let head = pendingHead else { return true }
        pendingHead = nil
        reportedHead = head
        if body != nil {
            reportedOnStream = !head.httpVersion.hasPrefix("HTTP/1")
            completeBodyLength = TransferContext.completeBodyLength(of: head)
        }
        do {
            try events.responseHead(head)
            return true
        } catch {
            store(.responseHandlerFailed(error))
            return false
        }
    }

    /// Handles one chunk of the response body; false stops the transfer.
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard !failed, reportPendingHead() else { return false }
        decodedBytes += Int64(chunk.count)
        if let violation = limits.violation(decoded: decodedBytes, received: receivedBytes()) {
            store(.limitExceeded(violation))
            return false
        }
        do {
            try events.responseBody(chunk)
        } catch {
            store(.responseHandlerFailed(error))
            return false
        }
        return stillWantsBody()
    }

    /// Body bytes received on the wire so far (before content decoding); asked only once the
    /// decoded body is large enough for the expansion ratio to matter.
    private func receivedBytes() -> Int64 {
        guard decodedBytes > ResponseLimits.expansionCheckThreshold else { return decodedBytes }
        var received: curl_off_t = 0
        _ = afcurl_getinfo_off(handle, CURLINFO_SIZE_DOWNLOAD_T, &received)
        return Int64(received)
    }

    /// Fills libcurl's upload buffer from the body source.
    func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let body else { return 0 }
        guard !failed else { return Int(AFCURL_READFUNC_ABORT) }
        do {
            let count = try body.read(into: buffer)
            bodyBytesRead += Int64(count)
            if count == 0 { bodyEnded = true }
            return count
        } catch {
            store(.bodyReadFailed(error))
            return Int(AFCURL_READFUNC_ABORT)
        }
    }

    /// The whole body, read now, when its length is known and at most `limit` bytes; nil for no
    /// body or a larger or unknown one, which the read callback streams. The source checks what
    /// it reads as the callback's reads would (a file that changed size fails here).
    func readSmallBody(limit: Int) throws(CurlError) -> [UInt8]? {
        guard let body, let length = body.length, length <= UInt64(limit) else { return nil }
        let count = Int(length)
        // One byte more than announced: a source that grew says so on its last read.
        var bytes = [UInt8](repeating: 0, count: count + 1)
        var filled = 0
        do {
            while true {
                let read = try bytes.withUnsafeMutableBytes { buffer in
                    try body.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
                if read == 0 { break }
                filled += read
                if filled > count { break }
            }
        } catch {
            // As the read callback stores it.
            throw CurlError.bodyReadFailed(error)
        }
        guard filled == count else {
            let what = filled > count ? "is longer than" : "ended after \(filled) of"
            throw CurlError(
                kind: .bodyReadFailed, code: Int(CURLE_READ_ERROR.rawValue),
                description: "reading the request body failed: it \(what) the \(length) bytes it announced")
        }
        bytes.removeLast()
        bodyBytesRead = Int64(filled)
        bodyEnded = true
        return bytes
    }

    /// Rewinds the body for a resend (authentication, a retry on a stale connection).
    func rewindBody() -> Int32 {
        guard let body else { return CURL_SEEKFUNC_OK }
        do {
            try body.rewind()
            return CURL_SEEKFUNC_OK
        } catch {
            store(.bodyReadFailed(error))
            return CURL_SEEKFUNC_FAIL
        }
    }

    /// Records debug output; complete request heads go to `events`.
    func receiveDebug(_ type: curl_infotype, _ data: UnsafeRawBufferPointer) {
        guard type == CURLINFO_HEADER_OUT else { return }
        requestHead.append(contentsOf: data)
        if requestHead.count >= 4 && requestHead.suffix(4).elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]) {
            flushRequestHead()
        }
    }

    /// Gives collected request head bytes to `events`; false (with the error stored) when it throws.
    @discardableResult
    func flushRequestHead() -> Bool {
        guard !requestHead.isEmpty else { return true }
        let text = requestHead.withUnsafeBytes { HeaderText.decode($0) }
        requestHead.removeAll(keepingCapacity: true)
        do {
            try events.requestHeadSent(text)
            return true
        } catch {
            store(.responseHandlerFailed(error))
            return false
        }
    }

    /// Reports progress and decides whether to stop; nonzero aborts the transfer.
    func progress(downloaded: Int64, expectedDownload: Int64, uploaded: Int64, expectedUpload: Int64) -> Int32 {
        // libcurl calls this around every read and write of every transfer, mostly with the
        // counters unchanged: `events` hears of a change, and while a body is sent, of no change
        // at most every `progressInterval` seconds (its meter redraws a stalled upload).
        let counters = (downloaded, expectedDownload, uploaded, expectedUpload)
        let sending = uploaded > 0 || expectedUpload > 0
        if counters != lastProgress
            || (sending && TransferContext.now() - lastProgressAt >= TransferContext.progressInterval)
        {
            lastProgress = counters
            if sending { lastProgressAt = TransferContext.now() }
            events.transferProgress(
                downloaded: downloaded, expectedDownload: expectedDownload, uploaded: uploaded,
                expectedUpload: expectedUpload)
        }
        // A stored error (from the debug callback, which cannot stop libcurl) ends the transfer here.
        if failed { return 1 }
        if answeredBeforeBodySent(downloaded: downloaded, uploaded: uploaded, ended: false) {
            answeredEarly = true
            return 1
        }
        if let idleTimeout, idleTimedOut(counters: (downloaded, uploaded), limit: idleTimeout) {
            store(.idle(seconds: idleTimeout))
            return 1
        }
        if afcurl_interrupted() != 0 || events.shouldAbort() {
            abortRequested = true
            return 1
        }
        return 0
    }

    /// Whether the final response is complete while part of the request body is still unsent, on
    /// an HTTP/2 (or HTTP/3) stream: the server answered without the rest of the body, which it
    /// may do when the response does not depend on it (RFC 9113 §8.1), and the exchange is over.
    ///
    /// A server that answers early (nginx's `return 200` to a POST) then resets the stream with
    /// NO_ERROR and stops granting flow-control window. libcurl 7.88 stops reading a stream once
    /// its body has the announced length, so it never sees the reset and retries the send
    /// without end at full CPU (curl spins so); when it does see the reset (a body without a
    /// length, or another stream of the connection read it), its send fails with
    /// CURLE_HTTP2_STREAM although the response was complete. The body is complete when
    /// `downloaded` (wire bytes) reaches the head's Content-Length, or at once for a 204 or 304;
    /// with neither, `ended` says whether libcurl ended the stream cleanly.
    func answeredBeforeBodySent(downloaded: Int64, uploaded: Int64, ended: Bool) -> Bool {
        guard reportedOnStream, unsentBody(uploaded: uploaded) != nil else { return false }
        guard let length = completeBodyLength else { return ended }
        return downloaded >= length
    }

    /// The request body bytes sent (`uploaded`, libcurl's count) and in all (nil while the source
    /// has not ended and its length is unknown), when part of the body is still unsent; nil when
    /// there is no body or all of it was sent.
    func unsentBody(uploaded: Int64) -> (sent: Int64, total: Int64?)? {
        guard let body, !bodyEnded || uploaded < bodyBytesRead else { return nil }
        return (uploaded, bodyEnded ? bodyBytesRead : body.length.map { Int64(clamping: $0) })
    }

    /// The length of `head`'s body once complete: none for a 204 or 304, else its Content-Length;
    /// nil when the end of the stream tells.
    static func completeBodyLength(of head: ResponseHead) -> Int64? {
        if head.statusCode == 204 || head.statusCode == 304 { return 0 }
        return head.value(for: "Content-Length").flatMap { Int64($0) }
    }

    /// Whether no byte has moved for `limit` seconds. libcurl calls the progress callback after
    /// every read and at least once a second while waiting, so the check is that precise.
    private func idleTimedOut(counters: (Int64, Int64), limit: Double) -> Bool {
        let now = TransferContext.now()
        if counters != lastCounters {
            lastCounters = counters
            lastActivity = now
            return false
        }
        return now - lastActivity >= limit
    }

    /// Monotonic seconds, immune to changes of the wall clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }

    /// Delivers what is still pending after a successful transfer: a deferred head (a 401 that
    /// turned out to be final and had no body) and an unterminated request head.
    func finish() throws(CurlError) {
        if !flushRequestHead() || !reportPendingHead(), let error = storedError {
            throw error
        }
    }

    /// Keeps the first error; later ones are consequences of it.
    private func store(_ error: CurlError) {
        guard !failed else { return }
        storedError = error
        failed = true
    }
}

extension TransferContext {
    /// Runs `body` with the context behind a callback's userdata, without retaining it: the
    /// transfer (EasyHandle's active transfer) holds it for as long as libcurl may call back.
    @inline(__always)
    static func with<Result>(_ userdata: UnsafeMutableRawPointer, _ body: (TransferContext) -> Result) -> Result {
        Unmanaged<TransferContext>.fromOpaque(userdata)._withUnsafeGuaranteedRef(body)
    }
}

extension EasyHandle {
    /// Records when libcurl is about to send the request of the transfer just begun (after its
    /// connection was made or reused, and after any wait for one): read back as `requestSentAt`.
    func timeRequestStart() throws(CurlError) {
        guard let context = activeContext else { return }
        try check(
            afcurl_setopt_pointer(rawHandle, CURLOPT_PREREQDATA, Unmanaged.passUnretained(context).toOpaque()),
            "pre-request data")
        try check(
            afcurl_setopt_prereq_function(rawHandle) { userdata, _, _, _, _ in
                guard let userdata else { return Int32(CURL_PREREQFUNC_OK) }
                TransferContext.with(userdata) { context in
                    if context.requestSentAt == 0 { context.requestSentAt = TransferContext.now() }
                }
                return Int32(CURL_PREREQFUNC_OK)
            }, "pre-request callback")
    }

    /// The options whose userdata is the transfer's context.
    private static let userdataOptions = [
        CURLOPT_WRITEDATA, CURLOPT_HEADERDATA, CURLOPT_READDATA, CURLOPT_SEEKDATA, CURLOPT_XFERINFODATA,
    ]

    /// Installs the C callbacks and points their userdata at `context`, which the caller keeps
    /// alive for the whole transfer.
    func installCallbacks(context: TransferContext, reportsRequestHeads: Bool) throws(CurlError) {
        let handle = rawHandle
        let userdata = Unmanaged.passUnretained(context).toOpaque()
        for option in EasyHandle.userdataOptions {
            try check(afcurl_setopt_pointer(handle, option, userdata), "callback data")
        }
        try check(
            afcurl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION) { buffer, size, count, userdata in
                let length = size * count
                guard let buffer, let userdata else { return 0 }
                return TransferContext.with(userdata) {
                    $0.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
                }
            }, "header callback")
        try check(
            afcurl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION) { buffer, size, count, userdata in
                let length = size * count
                guard let buffer, let userdata else { return 0 }
                return TransferContext.with(userdata) {
                    $0.receiveBody(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : Int(AFCURL_WRITEFUNC_ERROR)
                }
            }, "write callback")
        try check(
            afcurl_setopt_read_function(handle) { buffer, size, count, userdata in
                guard let buffer, let userdata else { return Int(AFCURL_READFUNC_ABORT) }
                let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
                return context.readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
            }, "read callback")
        try check(
            afcurl_setopt_seek_function(handle) { userdata, offset, origin in
                guard let userdata else { return CURL_SEEKFUNC_CANTSEEK }
                // libcurl only ever seeks back to the start of the body.
                guard offset == 0, origin == SEEK_SET else { return CURL_SEEKFUNC_CANTSEEK }
                return Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue().rewindBody()
            }, "seek callback")
        try check(
            afcurl_setopt_xferinfo_function(handle) { userdata, downloadTotal, downloadNow, uploadTotal, uploadNow in
                guard let userdata else { return 0 }
                return TransferContext.with(userdata) {
                    $0.progress(
                        downloaded: Int64(downloadNow), expectedDownload: Int64(downloadTotal),
                        uploaded: Int64(uploadNow), expectedUpload: Int64(uploadTotal))
                }
            }, "progress callback")
        try setLong(CURLOPT_NOPROGRESS, 0)
        guard reportsRequestHeads else { return }
        try check(afcurl_setopt_pointer(handle, CURLOPT_DEBUGDATA, userdata), "debug data")
        try check(
            afcurl_setopt_debug_function(handle) { _, type, data, size, userdata in
                guard let data, let userdata else { return 0 }
                let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
                context.receiveDebug(type, UnsafeRawBufferPointer(start: data, count: size))
                return 0
            }, "debug callback")
        // VERBOSE is what makes libcurl call the debug function; with one set nothing is printed.
        try setLong(CURLOPT_VERBOSE, 1)
    }
}
