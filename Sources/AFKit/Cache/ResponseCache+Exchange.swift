import AFCurl
import Glibc

/// A request on its way to the network through the cache stage: the request as sent (with the
/// conditional headers of a revalidation), the delegate that tees a storable body into the store
/// on its way to the real delegate, and what `ResponseCache.finish` needs afterwards.
package final class CacheFetch {
    /// What to send.
    package let request: PreparedRequest
    /// Where the transport's events go.
    package var delegate: HTTPClientDelegate { tee }
    /// The request as it came to the stage, before any condition was added.
    let original: PreparedRequest
    let target: HTTPClientDelegate
    let key: CacheKey
    let revalidating: ResponseCache.Candidate?
    let requestControl: CacheControl
    let requestTime: Double
    let tee: TeeDelegate
    /// `--max-filesize`, which a stored body answering a 304 is held to as well.
    let maxBodyBytes: Int64?
    /// What libcurl adds by itself, for the key of a response reached through redirects.
    var credentials = CacheCredentials()
    /// A stale stored response that may answer a server error or a failed connection
    /// (stale-if-error); nil when none may.
    var fallback: ResponseCache.Candidate?

    init(
        request: PreparedRequest, original: PreparedRequest, target: HTTPClientDelegate, key: CacheKey,
        revalidating: ResponseCache.Candidate?, requestControl: CacheControl, requestTime: Double, tee: TeeDelegate,
        maxBodyBytes: Int64?
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.request = request
        self.original = original
        self.target = target
        self.key = key
        self.revalidating = revalidating
        self.requestControl = requestControl
        self.requestTime = requestTime
        self.tee = tee
    }

    /// The transfer failed: what was written for the store is dropped.
    package func abandon() {
        tee.writer?.discard()
    }
}

extension ResponseCache {
    /// Prepares asking the network (conditionally when `revalidating`) with a storable answer
    /// teed into the store.
    func startFetch(
        _ request: PreparedRequest, key: CacheKey, revalidating: Candidate?, requestControl: CacheControl,
        maxBodyBytes: Int64?, delegate: HTTPClientDelegate
    ) -> CacheFetch {
        var sent = request
        if let stored = revalidating?.entry.head {
            if let etag = stored.value(for: "ETag") {
                sent.headers.append(HTTPField(name: "If-None-Match", value: etag))
            }
            if let modified = stored.value(for: "Last-Modified") {
                sent.headers.append(HTTPField(name: "If-Modified-Since", value: modified))
            }
        }
        let requestTime = configuration.now()
        let mode = configuration.mode
        let tee = TeeDelegate(inner: delegate, interceptsNotModified: revalidating != nil) { [self] head in
            // Decided when the head arrives, so a body that will not be stored is not written.
            let storable =
                mode.isCJStrategy
                ? (200...299).contains(head.statusCode) && !CacheControl(head.values(for: "Cache-Control")).noStore
                    && !requestControl.noStore
                : CacheFreshness.isStorable(
                    method: request.method, head: head, requestControl: requestControl, responseTime: requestTime)
            guard storable, Self.replaysAlike(head) else { return nil }
            return guarded { $0.bodyWriter() }
        }
        return CacheFetch(
            request: sent, original: request, target: delegate, key: key, revalidating: revalidating,
            requestControl: requestControl, requestTime: requestTime, tee: tee, maxBodyBytes: maxBodyBytes)
    }

    /// Whether a replay of `head` would judge its codings as the transfer did. Not when the loaded
    /// libcurl kept a coding as received (its curl_version_info lacks it) that a replay would take
    /// as decoded (`acceptEncoding` offers it): such a response is not stored. Debian's libcurl
    /// decodes them all.
    static func replaysAlike(_ head: ResponseHead) -> Bool {
        head.keptCoding == nil || ContentCoding.undecodable(in: head, decodedBy: acceptEncoding) != nil
    }

    /// Ends a fetch with the network's answer: stores it when it may be, or answers a 304 with
    /// the stored response. `.fetch` again when the stored body of a revalidated response has
    /// gone meanwhile: the request is then to be sent again without conditions.
    package func finish(_ fetch: CacheFetch, result: HTTPClientResult) throws -> Step {
        let responseTime = configuration.now()
        let tee = fetch.tee
        if tee.intercepted?.statusCode == 304, let candidate = fetch.revalidating {
            return try answerNotModified(result, fetch: fetch, candidate: candidate, responseTime: responseTime)
        }
        if let intercepted = tee.intercepted, intercepted.statusCode != 304 {
            let error = "the server answered \(intercepted.statusCode) \(intercepted.reasonPhrase)"
            return try answerStale(fetch, instead: error, network: result) ?? .done(result, .notStored)
        }
        guard let writer = tee.writer, tee.completed, let key = finalKey(fetch, result: result) else {
            tee.writer?.discard()
            return .done(result, .notStored)
        }
        guard let body = writer.commit() else {
            if let failure = writer.failure { warn("the response was not stored in the cache: \(failure)") }
            return .done(result, .notStored)
        }
        let head = result.head
        let expires: Double? =
            switch (configuration.mode.isCJStrategy, configuration.lifetime) {
            case (true, .forever?): nil
            case (true, .seconds(let seconds)?): responseTime + seconds
            default: CacheFreshness.expiry(head, requestTime: fetch.requestTime, responseTime: responseTime)
            }
        let names = CacheKey.varyNames(head)
        let entry = CacheEntry(
            namespace: key.namespace, method: key.method, url: key.url, varyNames: names, statusCode: head.statusCode,
            reasonPhrase: head.reasonPhrase, httpVersion: head.httpVersion, headers: head.headers, body: body.body,
            bodySize: body.size, requestTime: fetch.requestTime, responseTime: responseTime, expires: expires,
            lastUsed: responseTime)
        let variant = CacheKey.variant(names: names, headers: fetch.original.headers)
        let stored = guarded { try $0.put(key: key.digest, variant: variant, entry: entry) } != nil
        return .done(result, stored ? .stored : .notStored)
    }

    /// The key the final response is stored under: the request's, or after followed redirects the
    /// final request's (its URL and method; a GET after a 303 has no body). Nil when a redirected
    /// request had its own Host, whose target after the redirect is not known here.
    private func finalKey(_ fetch: CacheFetch, result: HTTPClientResult) -> CacheKey? {
        guard result.redirectCount > 0 else { return fetch.key }
        var final = fetch.original
        guard !final.headers.contains(where: { ASCIICase.equal($0.name, "host") }) else { return nil }
        final.url = result.url
        if result.method != final.method {
            final.method = result.method
            final.body = nil
            final.bodyBytes = nil
            final.plainBodyDigest = nil
        }
        return CacheKey(
            request: final, namespace: configuration.namespace,
            credentials: fetch.credentials.material(for: final.url, now: configuration.now()))
    }

    /// The same request again, without conditions (the 304 could not be used).
    private func refetch(_ fetch: CacheFetch) -> Step {
        let again = startFetch(
            fetch.original, key: fetch.key, revalidating: nil, requestControl: fetch.requestControl,
            maxBodyBytes: fetch.maxBodyBytes, delegate: fetch.target)
        again.credentials = fetch.credentials
        return .fetch(again)
    }

    /// A 304 to a conditional request: the stored head is updated and the stored response answers.
    private func answerNotModified(
        _ result: HTTPClientResult, fetch: CacheFetch, candidate: Candidate, responseTime: Double
    ) throws -> Step {
        let requestTime = fetch.requestTime
        var entry = candidate.entry
        // RFC 9111 §4.3.4: a 304 whose strong validator is not the stored one is about another
        // representation; it updates nothing, and the request is sent again without conditions.
        if CacheFreshness.namesOtherRepresentation(notModified: result.head, stored: entry.head) {
            return refetch(fetch)
        }
        entry.headers = CacheFreshness.merge(stored: entry.headers, notModified: result.head)
        entry.requestTime = requestTime
        entry.responseTime = responseTime
        entry.lastUsed = responseTime
        entry.expires = CacheFreshness.expiry(entry.head, requestTime: requestTime, responseTime: responseTime)
        _ = guarded { try $0.refresh(key: fetch.key.digest, variant: candidate.variant, entry: entry) }
        let age = CacheFreshness.age(
            entry.head, requestTime: requestTime, responseTime: responseTime, now: responseTime)
        guard
            let answered = try replay(
                (candidate.variant, entry), age: age, request: fetch.original, maxBodyBytes: fetch.maxBodyBytes,
                to: fetch.target)
        else {
            // The stored body is gone: ask again without conditions.
            return refetch(fetch)
        }
        if CacheControl(result.head.values(for: "Cache-Control")).noStore {
            // A 304 that says no-store answers this request but keeps nothing alive.
            _ = guarded { try $0.remove(key: fetch.key.digest, variant: candidate.variant) }
        }
        let revalidated = HTTPClientResult(
            answered, outcome: TransferOutcome(answered.outcome, metrics: result.outcome.metrics),
            totalTime: result.totalTime, cookieLines: result.cookieLines, cookiesChanged: result.cookiesChanged,
            hopMetrics: result.hopMetrics)
        return .done(revalidated, .revalidated)
    }

    /// Sends a stored response to `delegate` as a transport would (head, body in chunks, end),
    /// with `Age` set; nil, with nothing sent, when its body file is missing or damaged. A body
    /// over `maxBodyBytes` (`--max-filesize`) is refused as the network's would be; the result
    /// carries metrics whose fetch type is `localCache`.
    func replay(
        _ candidate: Candidate, age: Double, request: PreparedRequest, maxBodyBytes: Int64?,
        to delegate: HTTPClientDelegate
    ) throws -> HTTPClientResult? {
        let entry = candidate.entry
        if let maxBodyBytes, request.method != "HEAD", entry.bodySize > maxBodyBytes {
            throw CurlError.limitExceeded(.bodySize(limit: maxBodyBytes))
        }
        let started = Self.monotonicSeconds()
        var descriptor: Int32 = -1
        if case .file(let digest) = entry.body {
            guard let opened = guarded({ $0.openBody(digest: digest, size: entry.bodySize) }) ?? nil else { return nil }
            descriptor = opened
        }
        defer { if descriptor >= 0 { close(descriptor) } }
        var head = entry.head.replacingHeaders(
            entry.head.headers.filter { ASCIICase.lowercased($0.name) != "age" } + [("Age", String(Int(age)))])
        // A body stored in a coding libcurl could not decode was stored as received: the replay
        // says so as the transfer did, judged by the codings the cache's requests offer.
        if ContentCoding.namesCodings(head) {
            head = head.keeping(ContentCoding.undecodable(in: head, decodedBy: Self.acceptEncoding))
        }
        try delegate.didReceive(hop: 0, head: head, isFinal: true)
        if request.method != "HEAD" {
            switch entry.body {
            case .inline(let bytes):
                if !bytes.isEmpty, delegate.needsMoreFinalBody() {
                    try bytes.withUnsafeBytes { try delegate.didReceiveBody(hop: 0, chunk: $0, isFinal: true) }
                }
            case .file:
                try Self.stream(descriptor, size: entry.bodySize, to: delegate)
            }
        }
        try delegate.didFinishResponse(hop: 0, isFinal: true)
        let outcome = TransferOutcome(
            statusCode: entry.statusCode, effectiveURL: request.url, httpVersion: entry.httpVersion,
            bytesDownloaded: entry.bodySize, head: head)
        let elapsed = Self.monotonicSeconds() - started
        var metrics = TransferMetrics()
        metrics.answeredFromCache = true
        metrics.startDate = configuration.now() - elapsed
        metrics.total = elapsed
        metrics.startTransfer = elapsed
        metrics.responseCode = entry.statusCode
        metrics.method = request.method
        metrics.effectiveURL = request.url
        metrics.contentType = head.value(for: "Content-Type")
        return HTTPClientResult(
            head: head, outcome: outcome, url: request.url, method: request.method, redirectCount: 0,
            totalTime: elapsed, hopMetrics: [metrics])
    }

    /// A monotonic clock in seconds, for the duration of a replay.
    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Streams a body file to the delegate while it wants more, polling Ctrl-C. The file is
    /// mapped a window at a time and each window handed over as it is: no copy out of the page
    /// cache (a read into a buffer would cost as much as receiving the body), and the resident
    /// size stays one window however large the body.
    private static func stream(_ descriptor: Int32, size: Int64, to delegate: HTTPClientDelegate) throws {
        let window: Int64 = 4 << 20
        var offset: Int64 = 0
        while offset < size, delegate.needsMoreFinalBody() {
            if Interruption.isInterrupted { throw CurlError.interrupted(signal: Interruption.signal ?? 0) }
            let length = Int(min(window, size - offset))
            // Bodies are only ever renamed into place, never rewritten, so the file cannot shrink
            // under afcli's feet; checked anyway, because touching a mapped page past the end of
            // a truncated file would kill the process (SIGBUS) instead of failing the request.
            var info = stat()
            guard fstat(descriptor, &info) == 0, Int64(info.st_size) >= offset + Int64(length) else {
                throw CacheError.cannotOpen(path: "a cached body", code: EIO)
            }
            guard let base = mmap(nil, length, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, off_t(offset)),
                base != MAP_FAILED
            else { throw CacheError.cannotOpen(path: "a cached body", code: errno) }
            defer { munmap(base, length) }
            // Chunks of 1 MiB, so that a delegate that has seen enough stops soon.
            var start = 0
            while start < length, delegate.needsMoreFinalBody() {
                let count = min(1 << 20, length - start)
                try delegate.didReceiveBody(
                    hop: 0, chunk: UnsafeRawBufferPointer(start: base + start, count: count), isFinal: true)
                start += count
            }
            offset += Int64(length)
        }
    }
}
