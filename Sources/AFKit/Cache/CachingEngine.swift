import AFCurl

/// The cache stage as an engine decorator, written once for a single request (over a serial
/// engine) and for a run (over the multi handle): before an exchange starts, `ResponseCache.plan`
/// answers it from the store or says how to send it; when the wrapped engine completes it,
/// `ResponseCache.finish` stores the answer or answers a 304 with the stored response (sending
/// the request again when the stored body has gone), a failure may be answered by a stale
/// response (stale-if-error) or else drops what was written for the store, and a success of an
/// unsafe method invalidates the URL's stored responses. Each completion says what the cache did.
///
/// Only put in front of an engine when a cache is on: the plain path pays nothing for it.
package final class CachingEngine: ExchangeEngine {
    package let cache: ResponseCache
    private let inner: any ExchangeEngine
    /// Whether a stale response within its stale-while-revalidate window answers, the entry then
    /// being refreshed by a request whose events go nowhere: a serial engine refreshes it before
    /// `start` returns, a parallel one while its `inFlight` counts the refresh.
    private let revalidatesLater: Bool
    /// The credentials libcurl adds by itself (netrc, cookies, route), for the cache key, by
    /// `CacheCredentials.identity` of the settings they come from (files are read once).
    private var credentials: [String: CacheCredentials] = [:]
    /// What the cache has to do when an exchange it let through completes, by tag.
    private var pending: [Int: Pending] = [:]

    /// The cache's part in an exchange in flight.
    private enum Pending {
        /// It takes no part; the outcome says why, if it should be told.
        case asIs(CacheOutcome?)
        /// An unsafe method: a success invalidates the URL's stored responses.
        case unsafe(PreparedRequest)
        /// Through the cache (stored, or a 304 answered), with the order as it was given.
        case fetch(CacheFetch, ExchangeOrder)
        /// The refresh after a stale answer: its completion is the cache's alone.
        case refresh(CacheFetch)
    }

    package init(wrapping inner: any ExchangeEngine, cache: ResponseCache, revalidatesLater: Bool) {
        self.inner = inner
        self.cache = cache
        self.revalidatesLater = revalidatesLater
    }

    /// Plans `order` with the cache: answered from the store (completed at once), or started on
    /// the wrapped engine as the cache says. Throws the cache's refusals (`--cache=only` with
    /// nothing stored) and the engine's failure to start.
    package func start(_ order: ExchangeOrder) throws -> ExchangeCompletion? {
        let settings = order.options
        let identity = CacheCredentials.identity(settings)
        var material: CacheCredentials
        if let known = credentials[identity] {
            material = known
        } else {
            material = CacheCredentials(settings)
            credentials[identity] = material
        }
        // The cookies the engine sends to this URL now are part of the key: in a run, a cookie
        // set by an earlier request selects other stored answers than none.
        if order.sendsCookies, let cookies = inner.cookieHeader(for: order.request.url) {
            material.engineCookies = cookies
        }
        let step = try cache.plan(
            order.request, credentials: material, follows: settings.follow, maxBodyBytes: settings.limits.maxBodyBytes,
            revalidatesLater: revalidatesLater, delegate: order.delegate)
        return try take(step, order, ending: nil)
    }

    package func run() throws -> [ExchangeCompletion] {
        try inner.run().compactMap(completed)
    }

    package func poll(timeoutMilliseconds: Int) throws {
        try inner.poll(timeoutMilliseconds: timeoutMilliseconds)
    }

    package var inFlight: Int { inner.inFlight }

    /// Cancels the wrapped engine's exchanges; what they wrote for the store is dropped.
    package func cancelAll() -> [ExchangeCompletion] {
        let cancelled = inner.cancelAll().filter {
            if case .refresh = pending[$0.tag] { false } else { true }
        }
        for state in pending.values {
            switch state {
            case .fetch(let fetch, _), .refresh(let fetch): fetch.abandon()
            case .asIs, .unsafe: break
            }
        }
        pending.removeAll()
        return cancelled
    }

    package func cookieHeader(for url: String) -> String? { inner.cookieHeader(for: url) }
    package func adoptCookieFields(of request: inout PreparedRequest) throws { try inner.adoptCookieFields(of: &request) }

    /// Does what `step` says for `order`: a completion (`ending`, the wrapped engine's, with the
    /// cache's result and outcome) when it is over, else the exchange goes to the wrapped engine.
    private func take(_ step: ResponseCache.Step, _ order: ExchangeOrder, ending: ExchangeCompletion?) throws
        -> ExchangeCompletion?
    {
        switch step {
        case .done(let result, let outcome):
            return answered(result, outcome, order, ending)
        case .asIs(let outcome):
            return try send(order, .asIs(outcome))
        case .unsafe:
            return try send(order, .unsafe(order.request))
        case .fetch(let fetch):
            var sent = order
            (sent.request, sent.delegate) = (fetch.request, fetch.delegate)
            return try send(sent, .fetch(fetch, order))
        case .answeredStale(let result, let outcome, let refresh):
            var sent = order
            (sent.request, sent.delegate) = (refresh.request, refresh.delegate)
            // The stale answer is given; a serial engine refreshes the entry before it returns.
            _ = try? send(sent, .refresh(refresh))
            return answered(result, outcome, order, ending)
        }
    }

    /// The completion of an exchange the cache answered: the wrapped engine's when there was one
    /// (its transfer's times), with `result` in place of its own.
    private func answered(
        _ result: HTTPClientResult, _ outcome: CacheOutcome?, _ order: ExchangeOrder, _ ending: ExchangeCompletion?
    ) -> ExchangeCompletion {
        var ended = ending ?? ExchangeCompletion(tag: order.tag, result: .success(result))
        (ended.result, ended.cache) = (.success(result), outcome)
        return ended
    }

    /// Starts `order` on the wrapped engine with the cache's part in it; its completion when the
    /// engine completed it at once.
    private func send(_ order: ExchangeOrder, _ state: Pending) throws -> ExchangeCompletion? {
        pending[order.tag] = state
        let completion: ExchangeCompletion?
        do {
            completion = try inner.start(order)
        } catch {
            switch pending.removeValue(forKey: order.tag) {
            case .fetch(let fetch, _)?, .refresh(let fetch)?: fetch.abandon()
            default: break
            }
            throw error
        }
        return completion.flatMap(completed)
    }

    /// An exchange the wrapped engine completed, finished by the cache; nil when it is not over
    /// (sent again) or was the cache's own refresh.
    private func completed(_ completion: ExchangeCompletion) -> ExchangeCompletion? {
        guard let state = pending.removeValue(forKey: completion.tag) else { return completion }
        var ended = completion
        switch (state, completion.result) {
        case (.asIs(let outcome), _):
            ended.cache = outcome
        case (.unsafe(let request), .success(let result)):
            ended.cache = cache.invalidate(after: result, request: request)
        case (.unsafe, .failure):
            break
        case (.fetch(let fetch, let order), .success(let result)):
            do {
                return try take(try cache.finish(fetch, result: result), order, ending: completion)
            } catch {
                ended.result = .failure(error)
            }
        case (.fetch(let fetch, let order), .failure(let error)):
            // A failed connection or a server error may be answered by a stale response.
            do {
                if let recovered = try cache.recover(fetch, from: error) {
                    return try take(recovered, order, ending: completion)
                }
                fetch.abandon()
            } catch {
                ended.result = .failure(error)
            }
        case (.refresh(let fetch), .success(let result)):
            _ = try? cache.finish(fetch, result: result)
            return nil
        case (.refresh(let fetch), .failure):
            fetch.abandon()
            return nil
        }
        return ended
    }
}
