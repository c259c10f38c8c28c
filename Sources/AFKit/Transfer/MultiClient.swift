import AFCurl
import Glibc

/// Sends many prepared requests at once over one libcurl multi handle, on the calling thread.
///
/// Each request is an `HTTPExchange`, as with `HTTPClient`: the same transfer options, the same
/// delegate events and the same redirect rules. A redirect's next hop is queued as a new transfer
/// on the easy handle the previous hop ended on. Connections live in the multi handle's cache, so
/// they are reused by every later transfer to the same origin, and HTTP/2 requests to one origin
/// share a connection as streams. Every transfer uses one cookie engine, libcurl's, shared by all
/// of them (`TransferShare`): a cookie set by one request is sent by the requests that start after
/// it, each only to the domain and path it belongs to. `TransferSettings.cookies` is not read: the
/// engine is seeded once, at `init`.
package final class MultiClient: ExchangeEngine {
    /// One exchange that ended.
    package typealias Finished = ExchangeCompletion

    /// An exchange in flight.
    private struct Running {
        let tag: Int
        let exchange: HTTPExchange
        /// Whether its transfers use the shared cookie engine.
        let sendsCookies: Bool
        /// Seconds the request waited before its first transfer was handed to libcurl, and then
        /// inside libcurl before its transfers started (libcurl's times start after that wait).
        var queue: Double
        /// When its current transfer was handed to libcurl (monotonic seconds).
        var handedAt: Double
        /// When libcurl was first run after that (its total time starts then); 0 until then.
        var performedAt = 0.0
    }

    /// The multi handle every transfer runs on.
    private let multi: MultiHandle
    /// Easy handles that finished a transfer, kept for the next one.
    private var idle: [EasyHandle] = []
    /// The exchanges in flight, by the easy handle their current hop runs on.
    private var running: [ObjectIdentifier: Running] = [:]
    /// The header lines of the last transfer, shared by the next one with the same fields.
    private let headerLines = HeaderLinesMemo()
    /// The transfers handed to libcurl since it last ran, whose `performedAt` the next run sets.
    private var handedSinceRun: [ObjectIdentifier] = []
    /// The cookie engine every transfer shares, unless its request opts out.
    private let cookies: TransferShare
    /// The cookies the engine held once seeded, to tell whether the run changed them.
    private let seededCookies: Set<String>

    /// Creates a client that opens at most `maxConnections` connections at once (0: no limit),
    /// its cookie engine seeded from `cookies` (a Netscape file and lines).
    package convenience init(maxConnections: Int = 0, cookies seed: CookieSettings = CookieSettings()) throws {
        let cookies = try TransferShare()
        try cookies.seed(file: seed.file, lines: [])
        // What the file held is the baseline: cookies added from the command line are changes.
        let seeded: Set<String> = seed.file == nil ? [] : Set(cookies.lines())
        try cookies.seed(file: nil, lines: seed.lines)
        try self.init(maxConnections: maxConnections, cookies: cookies, seeded: seeded)
    }

    private init(maxConnections: Int, cookies: TransferShare, seeded: Set<String>) throws {
        multi = try MultiHandle(maxConnections: maxConnections)
        self.cookies = cookies
        seededCookies = seeded
    }

    /// Every cookie the engine holds now, as Netscape lines.
    package var cookieLines: [String] { cookies.lines() }

    /// Whether the engine holds other cookies than its cookie file did.
    package func cookiesChanged(_ lines: [String]) -> Bool { Set(lines) != seededCookies }

    /// The cookies the engine would send to `url` now, as a `Cookie` header's value; nil for none.
    package func cookieHeader(for url: String) -> String? {
        CurlCookieSelection.cookieHeader(lines: cookies.lines(), url: url, now: Int64(time(nil)))
    }

    /// Adds the request's `Cookie` fields to the shared engine (on the run's thread, which seeds
    /// and reads it).
    package func adoptCookieFields(of request: inout PreparedRequest) throws {
        let lines = Session.takeCookieFields(from: &request)
        if !lines.isEmpty { try cookies.seed(file: nil, lines: lines) }
    }

    /// The number of exchanges started and not yet finished.
    package var inFlight: Int { running.count }

    /// Starts sending `request`, streaming its hops to `delegate`. `readyAt` (monotonic seconds,
    /// `FileIO.monotonicSeconds`) is when the request was ready to go: the time from then until
    /// its first transfer is handed to libcurl is recorded as `TransferMetrics.queue`. Throws when
    /// the first transfer cannot be set up; nothing is then in flight for `tag`.
    /// `sendsCookies` false keeps the request out of the cookie engine: it neither sends the
    /// run's cookies nor stores those its responses set (`# @no-cookie-jar`).
    package func start(
        _ request: PreparedRequest, options: TransferSettings, delegate: HTTPClientDelegate, tag: Int, readyAt: Double,
        sendsCookies: Bool = true
    ) throws {
        let exchange = HTTPExchange(request, options: options, delegate: delegate, headerLines: headerLines)
        let (transfer, events) = try exchange.nextTransfer()
        let handle = try idle.popLast() ?? EasyHandle()
        let now = FileIO.monotonicSeconds()
        let queue = max(0, now - readyAt)
        do {
            try useCookies(sendsCookies, handle)
            try multi.add(handle, request: transfer, events: events)
        } catch {
            idle.append(handle)
            // Reports the failed hop to the delegate as a single request would, then rethrows.
            _ = try exchange.hopEnded(.failure(error))
            throw error
        }
        running[ObjectIdentifier(handle)] = Running(
            tag: tag, exchange: exchange, sendsCookies: sendsCookies, queue: queue, handedAt: now)
        handedSinceRun.append(ObjectIdentifier(handle))
    }

    /// Starts `order` as `start(_:options:delegate:tag:readyAt:sendsCookies:)` does; it completes
    /// in a later `run` or `wait`.
    package func start(_ order: ExchangeOrder) throws -> ExchangeCompletion? {
        try start(
            order.request, options: order.options, delegate: order.delegate, tag: order.tag, readyAt: order.readyAt,
            sendsCookies: order.sendsCookies)
        return nil
    }

    /// Attaches `handle` to the shared cookie engine, which turns the engine on for its
    /// transfers, or detaches it (a handle is reused by requests with and without cookies). The
    /// transfer's options are left alone: they are shared by every request of the run, and a
    /// change would copy them for each transfer.
    private func useCookies(_ sends: Bool, _ handle: EasyHandle) throws(CurlError) {
        try handle.useCookies(sends ? cookies : nil)
    }

    /// Runs the transfers for up to `timeoutMilliseconds` (less when one ends) and returns the
    /// exchanges that ended, in the order their last transfers ended.
    package func wait(timeoutMilliseconds: Int) throws -> [Finished] {
        markPerformed()
        return finish(try multi.perform(timeoutMilliseconds: timeoutMilliseconds))
    }

    /// Runs what can run now, without waiting (new requests go out), and returns the exchanges
    /// that ended.
    package func run() throws -> [Finished] {
        markPerformed()
        return finish(try multi.run())
    }

    /// Records that libcurl runs now for the transfers handed to it since it last ran.
    private func markPerformed() {
        guard !handedSinceRun.isEmpty else { return }
        let now = FileIO.monotonicSeconds()
        for key in handedSinceRun { running[key]?.performedAt = now }
        handedSinceRun.removeAll(keepingCapacity: true)
    }

    /// Waits up to `timeoutMilliseconds` for activity on any transfer; `run` then handles it.
    package func poll(timeoutMilliseconds: Int) throws {
        try multi.poll(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Concludes the hops that ended; the exchanges that are over, in order.
    private func finish(_ completions: [MultiHandle.Completion]) -> [Finished] {
        var finished: [Finished] = []
        finished.reserveCapacity(completions.count)
        for completion in completions {
            let key = ObjectIdentifier(completion.handle)
            guard let entry = running.removeValue(forKey: key) else { continue }
            if let ended = conclude(entry, handle: completion.handle, result: completion.result) {
                finished.append(ended)
            }
            if running[key] == nil { idle.append(completion.handle) }
        }
        return finished
    }

    /// Stops every transfer in flight; their exchanges end as interrupted, each with the times
    /// of its transfer up to now (`Finished.metrics`), in no particular order.
    @discardableResult
    package func cancelAll() -> [Finished] {
        var cancelled: [Finished] = []
        for completion in multi.cancelAll() {
            guard let entry = running[ObjectIdentifier(completion.handle)] else { continue }
            var ended = Finished(tag: entry.tag, result: .failure(CurlError.interrupted(signal: 0)))
            if case .failure(let error) = completion.result, var metrics = error.metrics {
                // libcurl's total is not kept current while a transfer waits for its answer.
                metrics.total = max(metrics.total, FileIO.monotonicSeconds() - entry.handedAt)
                var entry = entry
                Self.separateWait(&entry, &metrics, sentAt: completion.handle.requestSentAt)
                (ended.metrics, ended.transferFailed) = (metrics, true)
            }
            cancelled.append(ended)
        }
        running.removeAll()
        return cancelled
    }

    /// Moves the time `entry`'s transfer waited before libcurl started its phases (for libcurl to
    /// run, for a connection, for one to multiplex on) into its queue time. The phases start
    /// when the request was about to be sent (`sentAt`, absolute) less the phases before it
    /// (`preTransfer`); libcurl's total starts when it first ran the transfer, so a wait for a
    /// connection after that is in the total too, and is taken out of it: the queue tells the
    /// whole wait and the total is the transfer's own.
    private static func separateWait(_ entry: inout Running, _ metrics: inout TransferMetrics, sentAt: Double) {
        if sentAt > 0 {
            let phasesStart = sentAt - metrics.preTransfer
            entry.queue += max(0, phasesStart - entry.handedAt)
            let held = max(0, phasesStart - (entry.performedAt > 0 ? entry.performedAt : entry.handedAt))
            metrics.total = max(metrics.total - held, metrics.startTransfer, metrics.preTransfer)
        }
        metrics.queue = entry.queue
    }

    /// Ends one hop of `entry`: the exchange's end when it is over, nil when its next hop was
    /// queued on `handle`.
    private func conclude(_ entry: Running, handle: EasyHandle, result: TransferResult) -> Finished? {
        var entry = entry
        // The hop's times, read before the exchange consumes the result: they are reported
        // even when the exchange fails after the transfer (a delegate's error).
        var result = result
        var metrics: TransferMetrics?
        switch result {
        case .success(let outcome):
            var times = outcome.metrics
            Self.separateWait(&entry, &times, sentAt: handle.requestSentAt)
            metrics = times
            result = .success(TransferOutcome(outcome, metrics: times))
        case .failure(var error):
            if var times = error.metrics {
                Self.separateWait(&entry, &times, sentAt: handle.requestSentAt)
                error.metrics = times
                metrics = times
            }
            result = .failure(error)
        }
        let transferFailed = if case .failure = result { true } else { false }
        func ended(_ exchangeResult: Result<HTTPClientResult, any Error>) -> Finished {
            var ended = Finished(tag: entry.tag, result: exchangeResult)
            (ended.metrics, ended.transferFailed) = (metrics, transferFailed)
            return ended
        }
        do {
            if let final = try entry.exchange.hopEnded(result) { return ended(.success(final)) }
            let (transfer, events) = try entry.exchange.nextTransfer()
            do {
                try useCookies(entry.sendsCookies, handle)
                try multi.add(handle, request: transfer, events: events)
            } catch {
                _ = try entry.exchange.hopEnded(.failure(error))
                throw error
            }
            entry.handedAt = FileIO.monotonicSeconds()
            entry.performedAt = 0
            running[ObjectIdentifier(handle)] = entry
            handedSinceRun.append(ObjectIdentifier(handle))
            return nil
        } catch {
            return ended(.failure(error))
        }
    }
}
