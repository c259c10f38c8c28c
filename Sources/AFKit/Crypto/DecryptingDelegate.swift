/// The decryption stage of the request pipeline (DESIGN §3): a delegate in front of the next
/// stage that pipes the final response's body through a shell command and hands the command's
/// output on as the body, before validation, the envelope and the formatters see it.
///
/// Only a final 2xx response with a body is decrypted: redirects, error pages from a proxy (a
/// 502 of nginx is not encrypted) and empty bodies pass as received. The command runs on the
/// thread that delivers the body (the transfer's), fed and read with `poll`. Its output goes to an
/// unlinked 0600 temporary file and reaches the next stage only once the command has exited with
/// status 0: a failed decryption hands on nothing (no partial plain text on standard output, no
/// `-o` file created), and memory stays bounded by one chunk whatever the body's size. The whole
/// body is read even when the next stage wants no more of it, since the command needs all of it.
package final class DecryptingDelegate: ForwardingDelegate {
    /// The stage the decrypted body goes to.
    package let next: HTTPClientDelegate
    /// The shell command (`--decrypt-cmd`).
    package let command: String
    /// Called before the head of a response whose body will be decrypted is handed on, so that
    /// the output stage can treat the body as what it now is (plain text, sniffed for JSON).
    package var willDecrypt: (() -> Void)?
    private var pipe: PipedCommand?
    /// The command's output so far, handed on when the command succeeds.
    private var spool: TemporaryFileBodySource?
    private var decrypting = false

    package init(next: HTTPClientDelegate, command: String) {
        self.next = next
        self.command = command
    }

    deinit {
        pipe?.terminate()
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
        let spool = try self.spool ?? TemporaryFileBodySource(holding: "the decrypted body")
        self.spool = spool
        let pipe = try self.pipe ?? PipedCommand(command: command, role: "decrypt")
        self.pipe = pipe
        try pipe.feed(chunk) { try spool.append($0) }
    }

    package func didFinishResponse(hop: Int, isFinal: Bool) throws {
        if decrypting, isFinal, let pipe, let spool {
            self.pipe = nil
            self.spool = nil
            defer { pipe.terminate() }
            try pipe.finish { try spool.append($0) }
            try handOn(spool, hop: hop)
        }
        try next.didFinishResponse(hop: hop, isFinal: isFinal)
    }

    /// Hands the whole output of a command that succeeded to the next stage, a chunk at a time.
    private func handOn(_ spool: TemporaryFileBodySource, hop: Int) throws {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try spool.read(into: $0) }
            if count == 0 { return }
            try chunk.withUnsafeBytes {
                try next.didReceiveBody(hop: hop, chunk: UnsafeRawBufferPointer(rebasing: $0[0..<count]), isFinal: true)
            }
        }
    }

    package func needsMoreFinalBody() -> Bool {
        decrypting || next.needsMoreFinalBody()
    }
}
