import AFCurl
import CXMLShim
import Glibc

/// Runs libxml2's push parser on a thread of its own, so that parsing one chunk overlaps with
/// printing the events of the previous one: on a 26 MB document libxml2 alone takes about as
/// long as xh's whole run, and the layout work would otherwise come on top.
///
/// Chunks go in through `submit`, parsed batches come out through `take`. Both queues are
/// bounded (`limit` bytes), so a slow consumer holds libcurl back instead of growing memory.
final class XMLParseWorker: @unchecked Sendable {
    /// The events of one chunk and where the parser stood afterwards.
    struct Batch {
        /// The records, in memory from the shim that `release` frees.
        var events: UnsafeMutableBufferPointer<UInt8>
        /// 0, or -1 when the chunk was malformed (the worker then stops).
        var status: Int32
        var lastOffset: Int
        var lastKind: Int32
        var error: String?
        /// Whether parsing stopped at an element nested deeper than the parser's limit.
        var isTooDeep = false
        /// Whether this is the last batch (the end of the input, or an error).
        var isLast: Bool
        /// Whether parsing stopped because SIGINT or SIGTERM arrived.
        var interrupted = false
        /// Where the DOCTYPE's internal subset was in the input (`[` to after `>`), once read.
        var subsetRange: Range<Int>?

        /// Frees the records.
        func release() {
            cxml_free(events.baseAddress)
        }
    }

    private let parser: OpaquePointer
    private let monitor = Monitor()
    private var inbox: [[UInt8]] = []
    private var inboxBytes = 0
    private var inputEnded = false
    private var outbox: [Batch] = []
    private var outboxBytes = 0
    private var stopped = false
    private var thread: pthread_t?
    private let limit = 512 * 1024

    /// Starts a worker over `parser`, which only the worker touches from now on; nil when no
    /// thread could be started.
    init?(parser: OpaquePointer) {
        self.parser = parser
        // The thread holds the worker until `run` returns; a worker whose thread could not
        // start is released, and its deinit cleans up.
        guard let thread = JoinableThread.start({ self.run() }) else { return nil }
        self.thread = thread
    }

    deinit {
        for batch in outbox { batch.release() }
    }

    /// Queues a chunk and collects the batches parsed so far. While the input queue is full it
    /// waits, but only until there are batches to print: then the chunk is not queued
    /// (`accepted` is false) and the caller prints them and offers the chunk again, so neither
    /// side can wait for the other forever. A stopped worker accepts and drops everything.
    func exchange(_ chunk: [UInt8]) -> (accepted: Bool, batches: [Batch]) {
        monitor.lock()
        defer { monitor.unlock() }
        while inboxBytes >= limit, outbox.isEmpty, !stopped { monitor.wait() }
        let batches = outbox
        outbox = []
        outboxBytes = 0
        var accepted = true
        if !stopped {
            if inboxBytes < limit {
                inbox.append(chunk)
                inboxBytes += chunk.count
            } else {
                accepted = false
            }
        }
        monitor.broadcast()
        return (accepted, batches)
    }

    /// Marks the end of the input.
    func endInput() {
        monitor.locked {
            inputEnded = true
            monitor.broadcast()
        }
    }

    /// The batches parsed so far; with `wait`, blocks until at least one is there.
    func take(wait: Bool) -> [Batch] {
        monitor.lock()
        defer { monitor.unlock() }
        while wait, outbox.isEmpty, !stopped { monitor.wait() }
        let batches = outbox
        outbox = []
        outboxBytes = 0
        monitor.broadcast()
        return batches
    }

    /// Stops the thread (after its current chunk) and waits for it.
    func stop() {
        let running = monitor.locked {
            stopped = true
            monitor.broadcast()
            return thread
        }
        if let running { pthread_join(running, nil) }
        monitor.locked { thread = nil }
    }

    /// Input goes to libxml2 in pieces of this size: small enough that an interrupt is noticed
    /// within a fraction of a second even where entities make parsing slow, and far below
    /// libxml2's 10 MB lookup limit (which applies without `XML_PARSE_HUGE`).
    static let pieceSize = 16 * 1024

    /// Feeds `chunks` (and the end of the input, if `ending`) to `parser` and collects the events;
    /// stops early, as `interrupted`, when SIGINT or SIGTERM arrives.
    static func parse(_ chunks: [[UInt8]], ending: Bool, with parser: OpaquePointer) -> Batch {
        var batch = Batch(
            events: UnsafeMutableBufferPointer(start: nil, count: 0), status: 0, lastOffset: 0, lastKind: 0, error: nil,
            isLast: false)
        for chunk in chunks where batch.status == 0 {
            chunk.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count, batch.status == 0 {
                    if Interruption.isInterrupted {
                        batch.status = -1
                        batch.interrupted = true
                        return
                    }
                    let length = min(pieceSize, bytes.count - offset)
                    let start = bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self)
                    batch.status = cxml_push_feed(parser, start, Int32(length), 0)
                    offset += length
                }
            }
        }
        if batch.status == 0, ending { batch.status = cxml_push_feed(parser, nil, 0, 1) }
        var length = 0
        let events = cxml_push_take_events(parser, &length)
        batch.events = UnsafeMutableBufferPointer(start: events, count: events == nil ? 0 : length)
        var kind: Int32 = 0
        batch.lastOffset = Int(cxml_push_last_offset(parser, &kind))
        batch.lastKind = kind
        var subsetStart: UInt = 0
        var subsetEnd: UInt = 0
        if cxml_push_subset_range(parser, &subsetStart, &subsetEnd) != 0 {
            batch.subsetRange = Int(subsetStart)..<Int(subsetEnd)
        }
        batch.error = cxml_push_error(parser).map { String(cString: $0) }
        batch.isTooDeep = cxml_push_too_deep(parser) != 0
        batch.isLast = ending || batch.status != 0
        return batch
    }

    /// The thread: parses whatever chunks are queued, hands the batch over, until the end or an error.
    private func run() {
        while true {
            monitor.lock()
            while inbox.isEmpty, !inputEnded, !stopped { monitor.wait() }
            if stopped {
                monitor.unlock()
                return
            }
            let chunks = inbox
            inbox = []
            inboxBytes = 0
            let ending = inputEnded
            monitor.broadcast()
            monitor.unlock()

            let batch = Self.parse(chunks, ending: ending, with: parser)
            monitor.lock()
            while outboxBytes >= limit, !stopped { monitor.wait() }
            outbox.append(batch)
            outboxBytes += batch.events.count
            if batch.isLast { stopped = true }
            monitor.broadcast()
            monitor.unlock()
            if batch.isLast { return }
        }
    }
}
