/// The decryption stage of the request pipeline (DESIGN §3): a delegate in front of the next
/// stage that pipes the final response's body through a shell command and hands the command's
/// output on as the body, before validation, the envelope and the formatters see it.
///
/// Only a final 2xx response with a body is decrypted: redirects, error pages from a proxy (a
/// 502 of nginx is not encrypted) and empty bodies pass as received. The command runs on the
/// thread that delivers the body (the transfer's), fed and read with `poll`, so output reaches
/// the next stage on that same thread, in order, with memory bounded by one chunk. The whole body
/// is read even when the next stage wants no more of it, since the command needs all of it.
package final class DecryptingDelegate: HTTPClientDelegate {
    /// The stage the decrypted body goes to.
    package let next: HTTPClientDelegate
    /// The shell command (`--decrypt-cmd`).
    package let command: String
    /// Called before the head of a response whose body will be decrypted is handed on, so that
    /// the output stage can treat the body as what it now is (plain text, sniffed for JSON).
    package var willDecrypt: (() -> Void)?
    private var pipe: PipedCommand?
    private var decrypting = false

    package init(next: HTTPClientDelegate, command: String) {
        self.next = next
        self.command = command
    }

    deinit {
        pipe?.terminate()
    }

    package func willSend(hop: Int, request: SentRequest) throws {
        try next.willSend(hop: hop, request: request)
    }

    package func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        decrypting = isFinal && (200...299).contains(head.statusCode)
        if decrypting { willDecrypt?() }
        try next.didReceive(hop: hop, head: head, isFinal: isFinal)
    }

    package func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        guard decrypting, isFinal else {
            try next.didReceiveBody(hop: hop, chunk: chunk, isFinal: isFinal)
            return
        }
        guard !chunk.isEmpty else { return }
        // Started on the first byte: an empty body (204, HEAD) is not handed to the command.
        let pipe = try self.pipe ?? PipedCommand(command: command, role: "decrypt")
        self.pipe = pipe
        try pipe.feed(chunk) { try self.next.didReceiveBody(hop: hop, chunk: $0, isFinal: true) }
    }

    package func didFinishResponse(hop: Int, isFinal: Bool) throws {
        if decrypting, isFinal, let pipe {
            self.pipe = nil
            defer { pipe.terminate() }
            try pipe.finish { try self.next.didReceiveBody(hop: hop, chunk: $0, isFinal: true) }
        }
        try next.didFinishResponse(hop: hop, isFinal: isFinal)
    }

    package func shouldAbort() -> Bool {
        next.shouldAbort()
    }

    package func needsMoreFinalBody() -> Bool {
        decrypting || next.needsMoreFinalBody()
    }

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
