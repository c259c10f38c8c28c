#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `-A oauth2` as an engine decorator, the same for a single request and every request of a run:
/// a request whose `Authorization` is the placeholder (`OAuth2Engine.placeholder`, what the
/// request stages, `--offline`, `--curl` and the request log see) gets `Bearer TOKEN` just before
/// it is started, the token from `OAuth2Client` (fetched once, kept until it expires). When the
/// API answers 401 with `WWW-Authenticate: Bearer error="invalid_token"`, that answer is not
/// delivered: the token is dropped, a new one fetched, and the request sent once more.
///
/// The token never reaches what the user sees unless `--show-secrets`: `-v`'s request head
/// hides Authorization's value as every credential is hidden (`HeaderRedaction`).
package final class OAuth2Engine: ExchangeEngine {
    /// The `Authorization` value the request stages put where the token goes.
    package static let placeholder = "Bearer <oauth2 token>"

    private let base: any ExchangeEngine
    private let client: OAuth2Client
    private let clock: () -> Int64
    /// The exchanges in flight that carry a token: the order as given, the gate, and whether this
    /// is already the second try.
    private var pending: [Int: (order: ExchangeOrder, gate: BearerGate, retried: Bool)] = [:]

    package init(
        wrapping base: any ExchangeEngine, client: OAuth2Client,
        clock: @escaping () -> Int64 = { Int64(time(nil)) }
    ) {
        self.base = base
        self.client = client
        self.clock = clock
    }

    package func start(_ order: ExchangeOrder) throws -> ExchangeCompletion? {
        guard order.request.headers.contains(where: { $0.value == Self.placeholder }) else { return try base.start(order) }
        return try send(order, retried: false)
    }

    /// Starts `order` with a token; a serial engine's completion is settled at once.
    private func send(_ order: ExchangeOrder, retried: Bool) throws -> ExchangeCompletion? {
        let token = try client.token(now: clock(), settings: order.options)
        var sent = order
        for index in sent.request.headers.indices where sent.request.headers[index].value == Self.placeholder {
            sent.request.headers[index].value = "Bearer " + token
        }
        let gate = BearerGate(order.delegate, token: token, retries: !retried)
        sent.delegate = gate
        pending[order.tag] = (order, gate, retried)
        let started: ExchangeCompletion?
        do {
            started = try base.start(sent)
        } catch {
            // Nothing is in flight for the tag: forget it.
            pending.removeValue(forKey: order.tag)
            throw error
        }
        guard let completion = started else { return nil }
        return try settle(completion)
    }

    /// The completion to report: the exchange's own, or, when the gate held back an
    /// `invalid_token` answer, the completion of the second try (nil while it runs).
    private func settle(_ completion: ExchangeCompletion) throws -> ExchangeCompletion? {
        guard let entry = pending.removeValue(forKey: completion.tag) else { return completion }
        guard entry.gate.refused else { return completion }
        client.discard(entry.gate.token)
        do {
            try entry.order.request.body?.rewind()
        } catch {
            var failed = completion
            failed.result = .failure(error)
            return failed
        }
        return try send(entry.order, retried: true)
    }

    package func run() throws -> [ExchangeCompletion] {
        var settled: [ExchangeCompletion] = []
        for completion in try base.run() {
            if let done = try settle(completion) { settled.append(done) }
        }
        return settled
    }

    package func poll(timeoutMilliseconds: Int) throws { try base.poll(timeoutMilliseconds: timeoutMilliseconds) }
    package var inFlight: Int { base.inFlight }
    package func cancelAll() -> [ExchangeCompletion] {
        pending.removeAll()
        return base.cancelAll()
    }
    package func cookieHeader(for url: String) -> String? { base.cookieHeader(for: url) }
    package func adoptCookieFields(of request: inout PreparedRequest) throws { try base.adoptCookieFields(of: &request) }
}

/// Passes an exchange's events on, and holds back a final 401 whose `WWW-Authenticate` says `Bearer … error="invalid_token"` when a
/// second try is allowed (`refused` then tells the engine).
final class BearerGate: HTTPClientDelegate {
    private let next: HTTPClientDelegate
    let token: String
    private let retries: Bool
    private(set) var refused = false

    init(_ next: HTTPClientDelegate, token: String, retries: Bool) {
        self.next = next
        self.token = token
        self.retries = retries
    }

    func willSend(hop: Int, request: SentRequest) throws {
        try next.willSend(hop: hop, request: request)
    }

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        if isFinal, retries, head.statusCode == 401, Self.isInvalidToken(head.values(for: "WWW-Authenticate")) {
            refused = true
            return
        }
        try next.didReceive(hop: hop, head: head, isFinal: isFinal)
    }

    /// Whether a challenge is Bearer's with `error="invalid_token"` (RFC 6750 §3.1).
    static func isInvalidToken(_ challenges: [String]) -> Bool {
        challenges.contains { value in
            let lower = value.lowercased()
            return lower.hasPrefix("bearer") && (lower.contains("error=\"invalid_token\"") || lower.contains("error=invalid_token"))
        }
    }

    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        if refused, isFinal { return }
        try next.didReceiveBody(hop: hop, chunk: chunk, isFinal: isFinal)
    }

    func shouldAbort() -> Bool { next.shouldAbort() }
    func didFinishResponse(hop: Int, isFinal: Bool) throws {
        if refused, isFinal { return }
        try next.didFinishResponse(hop: hop, isFinal: isFinal)
    }
    func needsMoreFinalBody() -> Bool { refused ? false : next.needsMoreFinalBody() }
    func willFollowInsecureRedirect(hop: Int, to: String) { next.willFollowInsecureRedirect(hop: hop, to: to) }
    func didUpgradeByHSTS(hop: Int, requested: String) { next.didUpgradeByHSTS(hop: hop, requested: requested) }
    func didProgress(hop: Int, downloaded: Int64, expected: Int64) {
        next.didProgress(hop: hop, downloaded: downloaded, expected: expected)
    }
    func didProgressUpload(hop: Int, uploaded: Int64, expected: Int64) {
        next.didProgressUpload(hop: hop, uploaded: uploaded, expected: expected)
    }
}
