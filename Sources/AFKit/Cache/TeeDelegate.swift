import AFCurl

/// Forwards a transport's events to the real delegate while copying the final body into the
/// cache, reading it to its end even when the delegate wants no more. A final response the stored
/// one answers instead is kept from the delegate: a 304 to a conditional request, and a 500, 502,
/// 503 or 504 when a stale response may answer an error (stale-if-error).
final class TeeDelegate: ForwardingDelegate {
    /// The server errors a stale response may stand in for (RFC 5861 §4).
    static let serverErrors: Set<Int> = [500, 502, 503, 504]

    let next: HTTPClientDelegate
    private let interceptsNotModified: Bool
    private let makeWriter: (ResponseHead) -> CacheBodyWriter?
    /// Whether a final server error is kept from the delegate.
    var interceptsServerErrors = false
    private(set) var writer: CacheBodyWriter?
    /// The final head kept from the delegate, if any.
    private(set) var intercepted: ResponseHead?
    /// Whether any response event reached the delegate (a stale answer can then no longer replace it).
    private(set) var forwardedResponse = false
    private(set) var completed = false
    private var innerWantsMore = true

    init(
        inner: HTTPClientDelegate, interceptsNotModified: Bool, makeWriter: @escaping (ResponseHead) -> CacheBodyWriter?
    ) {
        self.next = inner
        self.interceptsNotModified = interceptsNotModified
        self.makeWriter = makeWriter
    }

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        if isFinal,
            (interceptsNotModified && head.statusCode == 304)
                || (interceptsServerErrors && Self.serverErrors.contains(head.statusCode))
        {
            intercepted = head
            return
        }
        if isFinal { writer = makeWriter(head) }
        forwardedResponse = true
        try next.didReceive(hop: hop, head: head, isFinal: isFinal)
    }

    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        guard !(isFinal && intercepted != nil) else { return }
        if isFinal { writer?.append(chunk) }
        if !isFinal || innerWantsMore { try next.didReceiveBody(hop: hop, chunk: chunk, isFinal: isFinal) }
    }

    func didFinishResponse(hop: Int, isFinal: Bool) throws {
        if isFinal { completed = true }
        guard !(isFinal && intercepted != nil) else { return }
        try next.didFinishResponse(hop: hop, isFinal: isFinal)
    }

    func needsMoreFinalBody() -> Bool {
        if innerWantsMore { innerWantsMore = next.needsMoreFinalBody() }
        return innerWantsMore || (writer != nil && writer?.failure == nil)
    }
}

/// A delegate that keeps nothing: where the events of a revalidation made after a stale answer go.
final class DiscardingDelegate: HTTPClientDelegate {
    func willSend(hop: Int, request: SentRequest) throws {}
    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {}
    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {}
}
