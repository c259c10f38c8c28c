import CCurlShim

/// The Swift owner of one libcurl multi handle: runs many `EasyHandle` transfers at once on one
/// thread, sharing one connection cache (connections are reused between transfers, and HTTP/2
/// streams are multiplexed over one TLS connection).
///
/// Each transfer is configured by the same `EasyHandle.begin` that `perform` uses, so an easy
/// transfer and a multi transfer set exactly the same options and callbacks; errors raised in
/// callbacks are stored in the transfer's context and come back from `conclude`, never unwound
/// through libcurl's C frames.
package final class MultiHandle {
    /// One transfer that ended: the handle it ran on (free for another transfer) and its result.
    package struct Completion {
        /// The easy handle, no longer part of the multi handle.
        package let handle: EasyHandle
        /// The outcome, or the transfer's failure.
        package let result: TransferResult
    }

    /// The `CURLM *` this object owns.
    private let multi: UnsafeMutableRawPointer
    /// The transfers running, by their `CURL *`, kept alive while libcurl uses them.
    private var running: [UnsafeMutableRawPointer: EasyHandle] = [:]
    /// Whether the next wait polls without sleeping first.
    private var spinWait = SpinWait()

    /// Creates a multi handle that opens at most `maxConnections` connections at once (0 for no
    /// limit) and multiplexes HTTP/2 streams over one connection per host.
    package init(maxConnections: Int = 0) throws(CurlError) {
        let initCode = afcurl_global_init()
        guard initCode == CURLE_OK else { throw CurlError.setup("could not initialise libcurl", code: initCode) }
        guard let multi = afcurl_multi_init() else {
            throw CurlError(kind: .other, description: "could not create a libcurl multi handle")
        }
        self.multi = multi
        Self.keepFreedBuffersInTheHeap()
        try set(CURLMOPT_PIPELINING, AFCURL_PIPE_MULTIPLEX, "multiplexing")
        if maxConnections > 0 {
            try set(CURLMOPT_MAX_TOTAL_CONNECTIONS, maxConnections, "the connection limit")
        }
    }

    /// libcurl allocates each transfer's receive buffer (`EasyHandle.receiveBufferSize`) when the
    /// transfer starts and frees it when it ends. Left to glibc's defaults, the buffers are taken
    /// from the top of the heap, which is trimmed back whenever the transfers in flight ebb (and
    /// a buffer above glibc's mapping threshold is mapped and unmapped for each transfer): every
    /// transfer's buffer costs fresh page faults (2,000 small GETs 50 at a time made ~1,700 more
    /// faults, 15 % of the run). Buffers of that size stay in the heap, and the heap keeps up to
    /// 64 MiB free for the next ones: memory stays bounded by the most transfers in flight at once.
    private static func keepFreedBuffersInTheHeap() {
        afcurl_keep_freed_memory(Int32(4 * EasyHandle.receiveBufferSize), 64 << 20)
    }

    deinit {
        cancelAll()
        afcurl_multi_cleanup(multi)
    }

    /// The number of transfers added and not yet completed.
    package var count: Int { running.count }

    /// Configures `handle` for `request` and starts it; its events arrive during `perform`.
    package func add(_ handle: EasyHandle, request: TransferRequest, events: TransferEvents) throws(CurlError) {
        try handle.begin(request, events: events)
        do throws(CurlError) {
            // Waits for a connection that can multiplex instead of opening one per stream, as
            // curl -Z does: N parallel requests to one h2 server share one connection. Only where
            // HTTP/2 can multiplex: over cleartext HTTP/1.1 the wait would hold every other
            // transfer until the first one ends.
            if Self.canMultiplex(request) { try handle.setLong(CURLOPT_PIPEWAIT, 1) }
            // A transfer may wait here for a connection, and libcurl's phase times start after
            // that wait: when the request goes out tells how long it was.
            try handle.timeRequestStart()
            let code = afcurl_multi_add_handle(multi, handle.rawHandle)
            guard code == CURLM_OK else { throw MultiHandle.error(code, "could not start a transfer") }
        } catch {
            _ = try? handle.conclude(code: CURLE_FAILED_INIT)
            throw error
        }
        running[handle.rawHandle] = handle
    }

    /// Whether `request` may share a connection as an HTTP/2 stream: over TLS (where ALPN may
    /// agree on h2) unless HTTP/1.1 is forced, or with h2c prior knowledge.
    package static func canMultiplex(_ request: TransferRequest) -> Bool {
        canMultiplex(url: request.url, httpVersion: request.options.httpVersion)
    }

    /// Whether a request for `url` under `httpVersion` may share a connection as an HTTP/2 stream.
    package static func canMultiplex(url: String, httpVersion: HTTPVersionPreference) -> Bool {
        switch httpVersion {
        case .http1_1: return false
        case .http2PriorKnowledge: return true
        case .automatic, .http2, .http3:
            // Compared byte by byte, case-folded: no copy of the URL's first bytes.
            var url = url.utf8.makeIterator()
            for expected in "https://".utf8 {
                guard let byte = url.next(), byte | 0x20 == expected else { return false }
            }
            return true
        }
    }

    /// Runs what can run now, without waiting, and returns the transfers that ended, in the
    /// order libcurl reported them. (libcurl 7.88 visits every transfer on each call, so callers
    /// run once per wake-up, not in a loop.)
    package func run() throws(CurlError) -> [Completion] {
        var stillRunning: Int32 = 0
        let code = afcurl_multi_perform(multi, &stillRunning)
        guard code == CURLM_OK else { throw MultiHandle.error(code, "the transfers failed") }
        return collect()
    }

    /// Waits up to `timeoutMilliseconds` for activity on any transfer (or one of libcurl's
    /// timers); a signal ends the wait early, and the caller checks the interrupt flag.
    ///
    /// The wait polls without sleeping for a moment first when recent waits were that short
    /// (`SpinWait`).
    package func poll(timeoutMilliseconds: Int) throws(CurlError) {
        guard !running.isEmpty else { return }
        if timeoutMilliseconds > 0, spinWait.spins() {
            // A failing poll ends the spin and is left to the wait below, which reports it.
            var failed = false
            let caught = spinWait.spin {
                var ready: Int32 = 0
                failed = afcurl_multi_poll(multi, nil, 0, 0, &ready) != CURLM_OK
                return failed || ready > 0
            }
            if caught, !failed { return }
        }
        let code = afcurl_multi_poll(multi, nil, 0, Int32(clamping: timeoutMilliseconds), nil)
        guard code == CURLM_OK || code == CURLM_UNRECOVERABLE_POLL else {
            throw MultiHandle.error(code, "waiting for the transfers failed")
        }
    }

    /// Runs what can run and, when nothing ended, waits up to `timeoutMilliseconds` and runs
    /// again; returns the transfers that ended.
    package func perform(timeoutMilliseconds: Int) throws(CurlError) -> [Completion] {
        let completions = try run()
        guard completions.isEmpty, timeoutMilliseconds > 0 else { return completions }
        try poll(timeoutMilliseconds: timeoutMilliseconds)
        return try run()
    }

    /// Removes every running transfer without completing it; each ends as interrupted, its
    /// error carrying its times up to now (the request was sent and timed).
    @discardableResult
    package func cancelAll() -> [Completion] {
        var cancelled: [Completion] = []
        for (raw, handle) in running {
            let metrics = TransferMetrics.read(from: raw)
            afcurl_multi_remove_handle(multi, raw)
            var error = CurlError.interrupted(signal: 0)
            do throws(CurlError) {
                _ = try handle.conclude(code: CURLE_ABORTED_BY_CALLBACK)
            } catch let thrown {
                error = thrown
            }
            if error.metrics == nil { error.metrics = metrics }
            cancelled.append(Completion(handle: handle, result: .failure(error)))
        }
        running.removeAll()
        return cancelled
    }

    /// Reads every "done" message, removing each finished handle and concluding its transfer.
    private func collect() -> [Completion] {
        var completions: [Completion] = []
        var easy: UnsafeMutableRawPointer?
        var result = CURLE_OK
        while afcurl_multi_next_done(multi, &easy, &result) != 0 {
            guard let raw = easy, let handle = running.removeValue(forKey: raw) else { continue }
            afcurl_multi_remove_handle(multi, raw)
            let outcome: TransferResult
            do {
                outcome = .success(try handle.conclude(code: result))
            } catch {
                outcome = .failure(error)
            }
            completions.append(Completion(handle: handle, result: outcome))
        }
        return completions
    }

    /// Sets a `long` multi option, turning a rejection into a `CurlError`.
    private func set(_ option: CURLMoption, _ value: Int, _ what: String) throws(CurlError) {
        let code = afcurl_multi_setopt_long(multi, option, value)
        guard code == CURLM_OK else { throw MultiHandle.error(code, "could not set \(what)") }
    }

    /// A `CurlError` for a failed multi call.
    private static func error(_ code: CURLMcode, _ what: String) -> CurlError {
        CurlError(
            kind: .other, code: Int(code.rawValue),
            description: "\(what) (\(String(cString: afcurl_multi_strerror(code))))")
    }
}
