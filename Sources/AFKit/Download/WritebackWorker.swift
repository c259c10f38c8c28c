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
/// on the disk, whatever moment the process dies at.
final class WritebackWorker: @unchecked Sendable {
    /// How many written bytes are handed to writeback at a time.
    static let window: Int64 = 8 * 1024 * 1024

    private let descriptor: Int32
    private let path: String
    private let statePath: String
    /// The state to record, but for its length.
    private let template: DownloadState
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread: pthread_t?
    // Shared, under `lock`:
    private var written: Int64
    private var saved: Int64
    private var stopping = false
    private var failure: DownloadError?
    /// Bytes before this offset have been handed to writeback (set by the worker).
    private var advisedUpTo: Int64

    /// Starts a worker for a file whose state file already says `state`, and whose writing goes
    /// on from `state.bytes`; nil when no thread could be started.
    init?(descriptor: Int32, path: String, statePath: String, state: DownloadState) {
        self.descriptor = descriptor
        self.path = path
        self.statePath = statePath
        template = state
        written = state.bytes
        saved = state.bytes
        advisedUpTo = state.bytes
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(changed, &attributes)
        pthread_condattr_destroy(&attributes)
        pthread_mutex_init(lock, nil)
        guard let thread = JoinableThread.start({ self.run() }) else { return nil }
        self.thread = thread
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        changed.deallocate()
    }

    /// Says that the file now holds `written` bytes; throws what the worker failed with, if
    /// anything (the disk refused a sync or the state file).
    func publish(_ written: Int64) throws(DownloadError) {
        pthread_mutex_lock(lock)
        self.written = written
        let wake = written - advisedUpTo >= Self.window
        let failure = self.failure
        if wake { pthread_cond_signal(changed) }
        pthread_mutex_unlock(lock)
        if let failure { throw failure }
    }

    /// Stops the thread and returns how many bytes the state file vouches for by now, and the
    /// failure that stopped the worker early, if one did. Calling it again returns the same.
    func stop() -> (saved: Int64, failure: DownloadError?) {
        pthread_mutex_lock(lock)
        stopping = true
        pthread_cond_signal(changed)
        pthread_mutex_unlock(lock)
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return (saved, failure)
    }

    private func run() {
        var nextCheckpoint = FileIO.monotonicSeconds() + PartialFile.checkpointInterval
        pthread_mutex_lock(lock)
        var lastSaved = saved
        while !stopping {
            if written - advisedUpTo < Self.window {
                var deadline = timespec()
                deadline.tv_sec = Int(nextCheckpoint)
                deadline.tv_nsec = Int((nextCheckpoint - Double(deadline.tv_sec)) * 1_000_000_000)
                pthread_cond_timedwait(changed, lock, &deadline)
                if stopping { break }
            }
            let target = written
            let advised = advisedUpTo
            pthread_mutex_unlock(lock)
            let startsWriteback = target - advised >= Self.window
            if startsWriteback { Self.startWriteback(descriptor, from: advised, upTo: target) }
            var outcome: (saved: Int64, failure: DownloadError?)? = nil
            let now = FileIO.monotonicSeconds()
            if now >= nextCheckpoint {
                // With nothing new since the last checkpoint, only the next one is scheduled.
                if target > lastSaved { outcome = checkpoint(target) }
                let finished = FileIO.monotonicSeconds()
                nextCheckpoint =
                    finished + max(PartialFile.checkpointInterval, (finished - now) * PartialFile.checkpointSpacing)
            }
            pthread_mutex_lock(lock)
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
        pthread_mutex_unlock(lock)
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
