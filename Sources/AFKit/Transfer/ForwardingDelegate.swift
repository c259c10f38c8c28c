/// A stage between the transport and the reporter (decryption, the envelope, the outcome
/// recorder, the cache's tee): every event it does not handle itself goes on to `next`.
///
/// `HTTPClientDelegate`'s own defaults drop an event; a stage written against them loses any
/// event it forgets (an HSTS note, upload progress) for everything behind it. Conforming to this
/// protocol instead makes forwarding the default, so a new event reaches the reporter through
/// every stage.
package protocol ForwardingDelegate: HTTPClientDelegate {
    /// The delegate events go on to.
    var next: HTTPClientDelegate { get }
}

extension ForwardingDelegate {
    package func willSend(hop: Int, request: SentRequest) throws { try next.willSend(hop: hop, request: request) }

    package func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        try next.didReceive(hop: hop, head: head, isFinal: isFinal)
    }

    package func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        try next.didReceiveBody(hop: hop, chunk: chunk, isFinal: isFinal)
    }

    package func shouldAbort() -> Bool { next.shouldAbort() }

    package func didFinishResponse(hop: Int, isFinal: Bool) throws {
        try next.didFinishResponse(hop: hop, isFinal: isFinal)
    }

    package func needsMoreFinalBody() -> Bool { next.needsMoreFinalBody() }

    package func willFollowInsecureRedirect(hop: Int, to: String) {
        next.willFollowInsecureRedirect(hop: hop, to: to)
    }

    package func didUpgradeByHSTS(hop: Int, requested: String) {
        next.didUpgradeByHSTS(hop: hop, requested: requested)
    }

    package func didProgress(hop: Int, downloaded: Int64, expected: Int64) {
        next.didProgress(hop: hop, downloaded: downloaded, expected: expected)
    }

    package func didProgressUpload(hop: Int, uploaded: Int64, expected: Int64) {
        next.didProgressUpload(hop: hop, uploaded: uploaded, expected: expected)
    }
}
