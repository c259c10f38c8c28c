import Glibc

/// Moves a partial file's bytes to the disk on a thread of its own, while the transfer goes on.
///
/// Written bytes sit in the page cache until something writes them back; the kernel's own
/// flusher waits for gigabytes or half a minute, so left alone a 1 GiB download would end with a
/// second-long fsync, and each checkpoint's fdatasync would stop the transfer while the disk
/// caught up. Here the downloading thread only publishes how far it has written; this thread
/// starts writeback of every new window (and drops the clean window before it from the page
/// cache, POSIX_FADV_DONTNEED), and checkpoints: it notes the written length, fdatasyncs, and only
/// then records that length in the state file, so a state never vouches for bytes that are not
/// on the disk, whatever moment the process dies at. When the bytes go around the page cache (a
/// `DirectWriter`), there is nothing to write back: the worker only checkpoints, asking the
/// writer how much has reached the file.
final class WritebackWorker: @unchecked Sendable {
    /// How many written bytes are handed to writeback at a time.
    static let window: Int64 = 8 * 1024 * 1024

    private let descriptor: Int32
    private let path: String
    private let statePath: String
    /// The state to record, but for its length.
    private let template: DownloadState
    /// Where the written length comes from when the bytes go around the page cache (a
    /// `DirectWriter`'s `completed`); nil when `publish` tells it, and windows of it are handed
    /// to writeback.
    private let writtenLength: (() -> Int64)?
    private var advisesWriteback: Bool { writtenLength == nil }
    private let monitor = Monitor()
    private var thread: pthread_t?
    // Shared, under `monitor`:
    private var written: Int64
    private var saved: Int64
    private var stopping = false
    private var failure: DownloadError?
    /// Bytes before this offset have been handed to writeback (set by the worker).
    private var advisedUpTo: Int64

    /// Starts a worker for a file whose state file already says `state`, and whose writing goes
    /// on from `state.bytes`; nil when no thread could be started. With `writtenLength` it
    /// only checkpoints, asking it how much is written.
    init?(
        descriptor: Int32, path: String, statePath: String, state: DownloadState,
        writtenLength: (() -> Int64)? = nil
    ) {
        self.descriptor = descriptor
        self.path = path
        self.statePath = statePath
        self.writtenLength = writtenLength
        template = state
        written = state.bytes
        saved = state.bytes
        advisedUpTo = state.bytes
        guard let thread = JoinableThread.start({ self.run() }) else { return nil }
        self.thread = thread
    }

    /// Says that the file now holds `written` bytes (nil when the worker asks a direct writer
    /// instead); throws what the worker failed with, if anything (the disk refused a sync or the
    /// state file).
    func publish(_ written: Int64?) throws(DownloadError) {
        let failure = monitor.locked {
            if let written {
                self.written = written
                if advisesWriteback && written - advisedUpTo >= Self.window { monitor.signal() }
            }
            return self.failure
        }
        if let failure { throw failure }
    }

    /// Stops the thread and returns how many bytes the state file vouches for by now, and the
    /// failure that stopped the worker early, if one did. Calling it again returns the same.
    func stop() -> (saved: Int64, failure: DownloadError?) {
        monitor.locked {
            stopping = true
            monitor.signal()
        }
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        return monitor.locked { (saved, failure) }
    }

    private func run() {
        var schedule = CheckpointSchedule()
        monitor.lock()
        var lastSaved = saved
        while !stopping {
            if !advisesWriteback || written - advisedUpTo < Self.window {
                monitor.wait(until: schedule.due)
                if stopping { break }
            }
            var target = written
            let advised = advisedUpTo
            monitor.unlock()
            if let writtenLength { target = writtenLength() }
            let startsWriteback = advisesWriteback && target - advised >= Self.window
            if startsWriteback { Self.startWriteback(descriptor, from: advised, upTo: target) }
            var outcome: (saved: Int64, failure: DownloadError?)? = nil
            let now = FileIO.monotonicSeconds()
            if now >= schedule.due {
                // With nothing new since the last checkpoint, only the next one is scheduled.
                if target > lastSaved { outcome = checkpoint(target) }
                schedule.checkpointed(started: now, finished: FileIO.monotonicSeconds())
            }
            monitor.lock()
            if startsWriteback { advisedUpTo = target }
            if let outcome {
                if let failure = outcome.failure {
                    self.failure = failure
                    break
                }
                saved = outcome.saved
                lastSaved = outcome.saved
            }
        }
        monitor.unlock()
    }

    /// Starts writing out the bytes of `descriptor` in [advised, end) and drops the window before
    /// them, whose writeback has had a window's time to finish (POSIX_FADV_DONTNEED starts
    /// writeback of dirty pages on Linux without waiting for it, and evicts the clean ones).
    static func startWriteback(_ descriptor: Int32, from advised: Int64, upTo end: Int64) {
        let from = max(0, advised - window)
        _ = posix_fadvise(descriptor, off_t(from), off_t(end - from), POSIX_FADV_DONTNEED)
    }

    /// Makes the first `length` bytes durable, then records them in the state file.
    private func checkpoint(_ length: Int64) -> (saved: Int64, failure: DownloadError?) {
        guard fdatasync(descriptor) == 0 else { return (0, .cannotWrite(path: path, code: errno)) }
        var state = template
        state.bytes = length
        do {
            try DownloadStateFile.write(state, to: statePath)
        } catch {
            return (0, error)
        }
        return (length, nil)
    }
}
