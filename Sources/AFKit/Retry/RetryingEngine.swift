import AFCurl
import Glibc

/// Retries and pacing as an engine decorator (DESIGN §3), the same over a serial engine (a single
/// request) and over the multi handle (a run): curl's rules (`RetryRules`) decide whether a try
/// that failed or got a transient status is sent again, and after how long (the server's
/// `Retry-After` or rate-limit reset, else the backoff).
///
/// Waits never block: a try that waits is kept on a list with the time it is due, `run` starts
/// those that are due, `inFlight` counts them (so a run does not end while one waits), and
/// `poll` waits no longer than the next one is due. While a retried exchange waits for its next
/// try, its run's other requests may use its slot (`slots`): the try takes one again before it is
/// sent. A 429 or a named wait from a host also paces every later request to that host (scheme,
/// host and port): they start when the wait is over, while requests to other hosts go on.
///
/// Each try's events pass through a `RetryGate`, which keeps a try that is retried from the
/// reporter; an order whose tries are planned (`TryPlanner`, a download's) has each planned
/// instead, its planner judging how it ended. A body is sent again from its start
/// (`BodySource.rewind`). With `reconnects`, a GET event stream that drops is connected again
/// with `Last-Event-ID`, after the server's `retry:` time, its new events going on where the
/// reporter's stream stopped (`EventStreamResumption`). Only put in place with `--retry`, and
/// under a download, whose tries it drives: the plain request path pays nothing for it.
package final class RetryingEngine: ExchangeEngine {
    /// A retry decided on: how long to wait, and why (for notes and the run's lines).
    package struct Plan: Equatable, Sendable {
        package var wait: Double
        package var reason: String
    }

    package let rules: RetryRules
    private let inner: any ExchangeEngine
    /// Where `-v`'s notes go (`retrying … in 2 s (HTTP 503, try 2 of 4)`); nil for none.
    private let note: ((String) -> Void)?
    /// Whether a GET event stream that drops is connected again (`--reconnect`).
    private let reconnects: Bool
    /// The exchanges this engine carries (tried, in flight or waiting), by tag.
    private var exchanges: [Int: Exchange] = [:]
    /// Tries waiting to start, each with the monotonic time it is due, and whether its exchange
    /// gave its slot up meanwhile (then it takes one again before it starts).
    private var waiting: [(due: Double, tag: Int, rests: Bool)] = []
    /// The run's slots, which a retried exchange gives up while it waits; nil for a single
    /// request, whose waits keep everything as it is.
    package weak var slots: (any SlotKeeper)?
    /// When each paced origin may be asked again (monotonic seconds), by `origin(of:)`.
    private var originsFreeAt: [String: Double] = [:]

    /// One exchange across its tries.
    private struct Exchange {
        /// The order as it was given (its delegate the event stages').
        var order: ExchangeOrder
        /// The tries started so far.
        var tries = 0
        /// When the first try started (monotonic seconds): `--retry-max-time` counts from then.
        var firstAt: Double
        /// Why it was last retried.
        var lastReason: String?
        /// The gate of the current try.
        var gate: RetryGate?
        /// The event stream it reconnects; nil unless a GET with `reconnects`.
        var stream: EventStreamResumption?
        /// How the stream last dropped: the completion when a reconnection is refused.
        var dropped: ExchangeCompletion?
    }

    /// The wait before a reconnection when the stream set no `retry:` time nor `--retry-delay`
    /// (EventSource leaves it to the user agent; browsers wait a few seconds).
    package static let defaultReconnectionTime = 3.0

    package init(
        wrapping inner: any ExchangeEngine, rules: RetryRules, reconnects: Bool = false,
        note: ((String) -> Void)? = nil
    ) {
        self.inner = inner
        self.rules = rules
        self.reconnects = reconnects
        self.note = note
    }

    package func start(_ order: ExchangeOrder) throws -> ExchangeCompletion? {
        var exchange = Exchange(order: order, firstAt: FileIO.monotonicSeconds())
        if reconnects, order.request.method.uppercased() == "GET" { exchange.stream = EventStreamResumption() }
        exchanges[order.tag] = exchange
        do {
            return try launch(order.tag, at: FileIO.monotonicSeconds())
        } catch {
            // Nothing is in flight for the tag: the runner reports its failure to start.
            exchanges[order.tag] = nil
            throw error
        }
    }

    /// Starts the due tries, then runs the wrapped engine; the exchanges that are over.
    package func run() throws -> [ExchangeCompletion] {
        var finished: [ExchangeCompletion] = []
        let now = FileIO.monotonicSeconds()
        if waiting.contains(where: { $0.due <= now }) {
            let due = waiting.filter { $0.due <= now }.sorted { $0.due < $1.due }
            waiting.removeAll { $0.due <= now }
            for each in due {
                // A try whose exchange gave its slot up waits on while every slot is taken.
                if each.rests, let slots, !slots.resume(each.tag) {
                    waiting.append(each)
                    continue
                }
                do {
                    if let ended = try launch(each.tag, at: now) { finished.append(ended) }
                } catch {
                    if let ended = concluded(ExchangeCompletion(tag: each.tag, result: .failure(error))) {
                        finished.append(ended)
                    }
                }
            }
        }
        for each in try inner.run() {
            if let ended = concluded(each) { finished.append(ended) }
        }
        return finished
    }

    /// Waits for the wrapped engine's transfers, or sleeps, no longer than the next try is due.
    package func poll(timeoutMilliseconds: Int) throws {
        var timeout = timeoutMilliseconds
        // A due try that waits for a slot waits for an exchange to end, which wakes the poll.
        let now = FileIO.monotonicSeconds()
        if let due = waiting.filter({ !($0.rests && $0.due <= now) }).map(\.due).min() {
            let left = max(0, due - now)
            timeout = min(timeout, Int((left * 1000).rounded(.up)))
        }
        if inner.inFlight > 0 {
            try inner.poll(timeoutMilliseconds: timeout)
        } else if !waiting.isEmpty, timeout > 0 {
            // SIGINT ends the sleep early (its handler has no SA_RESTART): Ctrl-C is seen at once.
            var time = timespec(tv_sec: timeout / 1000, tv_nsec: (timeout % 1000) * 1_000_000)
            nanosleep(&time, nil)
        }
    }

    package var inFlight: Int { inner.inFlight + waiting.count }

    /// Cancels the wrapped engine's exchanges and the tries waiting; each ends as interrupted.
    package func cancelAll() -> [ExchangeCompletion] {
        var cancelled = inner.cancelAll().map { recorded($0) }
        for each in waiting {
            let interrupted = CurlError.interrupted(signal: Interruption.signal ?? 0)
            cancelled.append(recorded(ExchangeCompletion(tag: each.tag, result: .failure(interrupted))))
        }
        waiting.removeAll()
        exchanges.removeAll()
        return cancelled
    }

    package func cookieHeader(for url: String) -> String? { inner.cookieHeader(for: url) }
    package func adoptCookieFields(of request: inout PreparedRequest) throws { try inner.adoptCookieFields(of: &request) }

    /// Starts the next try of exchange `tag` now, or puts it on the waiting list while its origin
    /// is paced; its completion when the wrapped engine completed it at once and it is over.
    private func launch(_ tag: Int, at now: Double) throws -> ExchangeCompletion? {
        guard var exchange = exchanges[tag] else { return nil }
        if let planner = exchange.order.tries {
            exchange.tries += 1
            let over = planner.planTry(&exchange.order.request)
            exchanges[tag] = exchange
            if let over { return recorded(ExchangeCompletion(tag: tag, result: over)) }
            guard let completion = try inner.start(exchange.order) else { return nil }
            return concluded(completion)
        }
        if let freeAt = originsFreeAt[Self.origin(of: exchange.order.request.url)], freeAt > now {
            // Paced, it keeps its slot: lent, it would let request after request start only to
            // wait on the same host, each holding its body.
            waiting.append((freeAt, tag, false))
            return nil
        }
        exchange.tries += 1
        let gate = RetryGate(
            next: exchange.order.delegate, url: exchange.order.request.url, stream: exchange.stream,
            mayReconnect: { [unowned self] in self.exchanges[tag].map(self.mayReconnect) ?? false },
            decide: { [unowned self] head, url in self.decide(tag, head: head, url: url) })
        exchange.gate = gate
        exchanges[tag] = exchange
        var order = exchange.order
        order.delegate = gate
        guard let completion = try inner.start(order) else { return nil }
        return concluded(completion)
    }

    /// What a try that ended means: nil when it is retried (it waits on the list), else the
    /// exchange's completion with its tries recorded.
    private func concluded(_ completion: ExchangeCompletion) -> ExchangeCompletion? {
        guard let exchange = exchanges[completion.tag] else { return completion }
        if let planner = exchange.order.tries { return planned(exchange, planner, completion) }
        if let stream = exchange.stream, stream.started { return reconnected(exchange, stream, completion) }
        var plan = exchange.gate?.retry
        if plan == nil, case .failure(let error) = completion.result, let reason = rules.reason(error: error) {
            plan = retryPlan(exchange, reason: reason, serverWait: nil)
        }
        guard let plan else {
            // The try is the one the reporter gets: the request heads it held go on first.
            var ended = completion
            if case .success = completion.result {
            } else if let gate = exchange.gate {
                do { try gate.passHeld() } catch { ended.result = .failure(error) }
            }
            return recorded(ended)
        }
        do {
            try exchange.order.request.body?.rewind()
        } catch {
            var ended = completion
            ended.result = .failure(RetryError.cannotResendBody(reason: plan.reason, underlying: error))
            return recorded(ended)
        }
        exchanges[completion.tag]?.lastReason = plan.reason
        let request = exchange.order.request
        note?(
            "retrying \(request.method) \(request.url) in \(Self.seconds(plan.wait)) (\(plan.reason), try "
                + "\(exchange.tries + 1) of \(rules.retries + 1))")
        waiting.append((FileIO.monotonicSeconds() + plan.wait, completion.tag, slots?.rest(completion.tag) ?? false))
        return nil
    }

    /// What the end of a try of a planned exchange means, as its planner says: the exchange is
    /// over, is tried again at once (not counted as a retry), or failed, and is retried after the
    /// server's wait or the backoff while the rules allow.
    private func planned(
        _ exchange: Exchange, _ planner: any TryPlanner, _ completion: ExchangeCompletion
    ) -> ExchangeCompletion? {
        var ended = completion
        switch planner.tryEnded(completion.result) {
        case .over(let result):
            ended.result = result
        case .again:
            exchanges[completion.tag]?.tries -= 1
            do {
                return try launch(completion.tag, at: FileIO.monotonicSeconds())
            } catch {
                ended.result = .failure(error)
            }
        case .failed(let error, let transient, let serverWait):
            ended.result = .failure(error)
            guard transient, exchange.tries <= rules.retries else { break }
            let wait =
                serverWait.map { min(max($0, 0), rules.longestWait(elapsed: 0)) }
                ?? rules.backoff(beforeRetry: exchange.tries)
            planner.willRetry(after: error, wait: wait, retry: exchange.tries, of: rules.retries)
            waiting.append((FileIO.monotonicSeconds() + wait, completion.tag, slots?.rest(completion.tag) ?? false))
            return nil
        }
        return recorded(ended)
    }

    /// What the end of a try of an event stream means: a drop, or the close that ends a stream
    /// without a framed end, is connected again (nil) while tries are left, else the exchange is
    /// over; a reconnection answered by anything but the stream ends it as the drop did.
    private func reconnected(
        _ exchange: Exchange, _ stream: EventStreamResumption, _ completion: ExchangeCompletion
    ) -> ExchangeCompletion? {
        if exchange.gate?.refused == true { return streamEnded(exchange, stream, exchange.dropped ?? completion) }
        let reason: String
        switch completion.result {
        case .success:
            // The gate kept the response's end back when it decided to reconnect.
            guard stream.pendingFinish != nil else { return recorded(completion) }
            reason = "the server closed the stream"
        case .failure(let error):
            guard let dropped = Self.dropReason(error, rules), mayReconnect(exchange) else {
                return streamEnded(exchange, stream, completion)
            }
            reason = dropped
        }
        let wait = stream.reconnectionTime ?? rules.delay ?? Self.defaultReconnectionTime
        var request = exchange.order.request
        request.headers.removeAll { ASCIICase.equal($0.name, "last-event-id") }
        if let id = stream.lastEventID { request.headers.append(HTTPField(name: "Last-Event-ID", value: id)) }
        stream.reconnecting = true
        exchanges[completion.tag]?.order.request = request
        exchanges[completion.tag]?.dropped = completion
        exchanges[completion.tag]?.lastReason = reason
        note?(
            "reconnecting to \(request.url) in \(Self.seconds(wait)) (\(reason), try \(exchange.tries + 1) of "
                + "\(rules.retries + 1))" + (stream.lastEventID.map { " with Last-Event-ID: \($0)" } ?? ""))
        waiting.append((FileIO.monotonicSeconds() + wait, completion.tag, slots?.rest(completion.tag) ?? false))
        return nil
    }

    /// Whether `exchange` may connect its stream again: tries left, and time under `--retry-max-time`.
    private func mayReconnect(_ exchange: Exchange) -> Bool {
        exchange.tries <= rules.retries
            && (rules.maxTime.map { FileIO.monotonicSeconds() - exchange.firstAt < $0 } ?? true)
    }

    /// `completion` of a stream that is over: what was held of an open event, and the response's
    /// end kept back for a reconnection that is not coming, go to the reporter first.
    private func streamEnded(
        _ exchange: Exchange, _ stream: EventStreamResumption, _ completion: ExchangeCompletion
    ) -> ExchangeCompletion {
        var ended = completion
        let delegate = exchange.order.delegate
        do {
            try stream.release { try delegate.didReceiveBody(hop: stream.lastHop, chunk: $0, isFinal: true) }
            if let hop = stream.pendingFinish {
                stream.pendingFinish = nil
                try delegate.didFinishResponse(hop: hop, isFinal: true)
            }
        } catch {
            if case .success = ended.result { ended.result = .failure(error) }
        }
        return recorded(ended)
    }

    /// Why an event stream ended by `error` is connected again: it dropped (a failure of the
    /// connection or of reading it, a timeout); nil for an interrupt and everything else.
    static func dropReason(_ error: any Error, _ rules: RetryRules) -> String? {
        if let reason = rules.reason(error: error) { return reason }
        guard let error = error as? CurlError else { return nil }
        switch error.kind {
        case .receiveFailed, .sendFailed: return "the stream dropped"
        default: return nil
        }
    }

    /// `completion`, with how many tries its exchange took and why it was last retried; the
    /// exchange is then forgotten.
    private func recorded(_ completion: ExchangeCompletion) -> ExchangeCompletion {
        guard let exchange = exchanges.removeValue(forKey: completion.tag) else { return completion }
        var ended = completion
        ended.retry = RetryRecord(tries: max(exchange.tries, 1), reason: exchange.lastReason)
        return ended
    }

    /// Asked at the final head of a try of exchange `tag`, from `url`: paces the origin when the
    /// server asks for a wait (or throttles with a 429), and returns the retry when the status is
    /// transient and the rules allow another try.
    private func decide(_ tag: Int, head: ResponseHead, url: String) -> Plan? {
        guard let exchange = exchanges[tag] else { return nil }
        let now = FileIO.monotonicSeconds()
        let server = ServerWait.read(head, now: WallClock.now())
        if head.statusCode == 429 || server.seconds != nil {
            let pace = min(
                server.seconds ?? rules.backoff(beforeRetry: exchange.tries), rules.longestWait(elapsed: 0))
            let origin = Self.origin(of: url)
            originsFreeAt[origin] = max(originsFreeAt[origin] ?? 0, now + pace)
        }
        guard let reason = rules.reason(status: head.statusCode) else { return nil }
        return retryPlan(exchange, reason: reason, serverWait: server.seconds)
    }

    /// The retry of `exchange` for `reason`, after the server's wait or the backoff; nil when
    /// its method is not retried, its tries are used up, or the wait would pass `--retry-max-time`.
    private func retryPlan(_ exchange: Exchange, reason: String, serverWait: Double?) -> Plan? {
        let request = exchange.order.request
        guard rules.mayRetry(method: request.method) else {
            // Said once, at the first try: what --retry would have done and what would do it.
            if exchange.tries == 1 {
                note?(
                    "not retrying \(request.method) \(request.url) (\(reason)): \(request.method.uppercased()) is not "
                        + "idempotent, so sending it again could repeat its effect; --retry-all-errors retries it")
            }
            return nil
        }
        guard exchange.tries <= rules.retries else { return nil }
        let elapsed = FileIO.monotonicSeconds() - exchange.firstAt
        if let maxTime = rules.maxTime, elapsed >= maxTime { return nil }
        let wait = serverWait ?? rules.backoff(beforeRetry: exchange.tries)
        guard wait <= rules.longestWait(elapsed: elapsed) else {
            note?(
                "not retrying \(request.method) \(request.url) (\(reason)): its wait of "
                    + "\(Self.seconds(wait)) is longer than \(rules.maxTime == nil ? "afcli waits" : "--retry-max-time allows")")
            return nil
        }
        return Plan(wait: wait, reason: reason)
    }

    /// The origin `url` is paced by: scheme, host and port.
    static func origin(of url: String) -> String {
        guard let parts = CurlURL(url) else { return url }
        return "\(parts.scheme)://\(parts.host):\(parts.port)"
    }

    /// A wait as a note shows it: `2 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths / 10)
        let fraction = Int(tenths) % 10
        return fraction == 0 ? "\(whole) s" : "\(whole).\(fraction) s"
    }
}

/// What `RetryingEngine` records on an exchange's completion: how many tries it took (1 when it
/// was not retried), and why it was last retried.
package struct RetryRecord: Equatable, Sendable {
    package var tries: Int
    package var reason: String?

    package init(tries: Int, reason: String? = nil) {
        self.tries = tries
        self.reason = reason
    }
}

/// A retry that could not be made.
package enum RetryError: ClassifiedError, CustomStringConvertible {
    /// The request body could not be sent again from its start.
    case cannotResendBody(reason: String, underlying: any Error)

    package var failureClass: FailureClass { .failure }

    package var description: String {
        switch self {
        case .cannotResendBody(let reason, let underlying):
            return "cannot retry after \(reason): the request body cannot be sent again: \(underlying)"
        }
    }
}
