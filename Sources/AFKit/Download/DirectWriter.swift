import CFileShim
import Glibc

/// Writes a partial file around the page cache (O_DIRECT), from two writer threads, while the
/// transfer thread fills the next buffer.
///
/// Through the page cache, every downloaded byte is copied into a cache page, marked dirty,
/// written back by the kernel and evicted again: on a machine with two cores that work costs
/// about as much CPU as the transfer itself. With O_DIRECT the disk reads the bytes straight
/// from afcli's buffer, and two writes in flight keep it busy. The file is preallocated ahead of
/// the data, so the writes do not extend it and may run side by side.
///
/// The preallocation grows in steps as data arrives, never to whatever length the server
/// announced at once: a server claiming 20 GB and sending 5 bytes must not take 20 GB of disk
/// (which a SIGKILL would leave taken). Each step reserves at least `minimumStep` past the
/// buffer being filled, as much again as has arrived so far, and at most `maximumStep`; so the
/// space held beyond the data stays bounded, and fallocate (which waits for the writes in
/// flight) runs a few dozen times per gigabyte.
///
/// O_DIRECT wants file offsets, lengths and memory aligned to the device's block size (4096
/// bytes covers all common ones). A buffer that would start or end off the grid (the head of a
/// resumed download, the tail of any) is written through the ordinary descriptor instead; so is
/// everything once the file system refuses a direct write (EINVAL).
///
/// `completed` is the length of the prefix every byte of which has reached the file: the only
/// figure a state file may take (after an fdatasync).
final class DirectWriter: @unchecked Sendable {
    /// The size of one buffer, and of one write.
    static let bufferSize = 512 * 1024
    /// The alignment O_DIRECT gets: offsets, lengths and buffer addresses.
    static let alignment = 4096
    /// Buffers: one filling while two are written.
    static let bufferCount = 3
    /// Writer threads, so two writes are in flight.
    static let writerCount = 2
    /// The longest a buffer collects a slow body before it is written anyway (seconds), so a
    /// checkpoint can soon vouch for what arrived.
    static let maximumAge = CheckpointSchedule.firstGap
    /// The least the preallocation reaches past the buffer being filled.
    static let minimumStep: Int64 = 4 << 20
    /// The most one preallocation step reserves.
    static let maximumStep: Int64 = 64 << 20

    /// One write: a buffer (or the tail of one) at a file offset.
    private struct Job {
        var sequence: Int
        var buffer: Int
        var start: Int
        var count: Int
        var offset: Int64
        /// Whether it may go through the O_DIRECT descriptor.
        var direct: Bool
        /// Whether finishing it frees the buffer (the first of two jobs cut from one buffer does not).
        var releasesBuffer: Bool
        var taken = false
        var done = false
        var written = 0
        var error: Int32 = 0
    }

    private let directDescriptor: Int32
    private let descriptor: Int32
    private let path: String
    private let memory: UnsafeMutableRawPointer
    private let monitor = Monitor()
    private var threads: [pthread_t] = []

    // The transfer thread's:
    /// The buffer being filled, its file offset and how much it holds and may hold.
    private var current: Int?
    private var currentOffset: Int64
    private var filled = 0
    private var capacity = 0
    /// When the current buffer was taken (monotonic seconds).
    private var currentTaken = 0.0
    private var nextSequence = 0
    /// Bytes taken so far (written, being written or buffered).
    private(set) var accepted: Int64
    /// Where this writer started, and the announced total length (nil: unknown).
    private let firstOffset: Int64
    private let total: Int64?
    /// The end of the preallocated part of the file.
    private(set) var allocatedEnd: Int64
    /// Set when fallocate failed: the file then grows by its writes.
    private var allocationStopped = false

    // Shared, under `monitor`:
    private var free: [Int]
    /// Submitted jobs in file order; finished ones leave from the front.
    private var jobs: [Job] = []
    private var completedLength: Int64
    private var failure: DownloadError?
    private var directRefused = false
    private var stopping = false

    /// A writer for the file open as `descriptor` at `path`, writing from `offset` on; it
    /// preallocates in steps up to `total` bytes when given (see the type's comment). Nil when the file system does not take
    /// O_DIRECT, the path no longer names the open file, or no thread can start.
    init?(path: String, descriptor: Int32, offset: Int64, total: Int64?) {
        let direct = cfile_open_direct(path)
        guard direct >= 0 else { return nil }
        guard FileIO.sameFile(direct, descriptor) else {
            close(direct)
            return nil
        }
        self.directDescriptor = direct
        self.descriptor = descriptor
        self.path = path
        memory = UnsafeMutableRawPointer.allocate(
            byteCount: Self.bufferSize * Self.bufferCount, alignment: Self.alignment)
        free = Array((0..<Self.bufferCount).reversed())
        currentOffset = offset
        accepted = offset
        completedLength = offset
        firstOffset = offset
        self.total = total
        allocatedEnd = offset
        for _ in 0..<Self.writerCount {
            guard let thread = JoinableThread.start({ self.writeJobs() }) else { break }
            threads.append(thread)
        }
        guard !threads.isEmpty else {
            close(direct)
            memory.deallocate()
            return nil
        }
        if !reserve(through: offset + Int64(Self.bufferSize)) {
            // No fallocate here (nothing is written yet): the file keeps its length.
            _ = ftruncate(descriptor, off_t(offset))
        }
    }

    /// The writer threads hold the writer until `stop`.
    deinit {
        close(directDescriptor)
        memory.deallocate()
    }

    /// The length of the written prefix (see the type's comment).
    var completed: Int64 { monitor.locked { completedLength } }

    /// Takes a chunk of the body; throws the failure of an earlier write, if one failed.
    func append(_ chunk: UnsafeRawBufferPointer) throws(DownloadError) {
        guard var source = chunk.baseAddress else { return }
        var left = chunk.count
        while left > 0 {
            let buffer: Int
            if let current {
                buffer = current
            } else {
                buffer = try takeBuffer()
            }
            let count = min(left, capacity - filled)
            (memory + buffer * Self.bufferSize + filled).copyMemory(from: source, byteCount: count)
            filled += count
            accepted += Int64(count)
            source += count
            left -= count
            if filled == capacity { submit() }
        }
        if current != nil, FileIO.monotonicSeconds() - currentTaken >= Self.maximumAge { submit() }
    }

    /// Writes what is buffered and waits for every write; returns `completed`, or throws the
    /// failure that stopped a write. Appending may go on afterwards.
    @discardableResult
    func drain() throws(DownloadError) -> Int64 {
        submit()
        monitor.lock()
        defer { monitor.unlock() }
        while !jobs.allSatisfy(\.done) { monitor.wait() }
        if let failure { throw failure }
        return completedLength
    }

    /// Lets the writer threads finish the submitted jobs and stops them; what is still being
    /// buffered is dropped (call `drain` first to keep it). Calling it again does nothing.
    func stop() {
        monitor.locked {
            stopping = true
            monitor.broadcast()
        }
        for thread in threads { pthread_join(thread, nil) }
        threads = []
    }

    // MARK: - The transfer thread's side

    /// Waits for a free buffer and starts filling it at `accepted`.
    private func takeBuffer() throws(DownloadError) -> Int {
        monitor.lock()
        while free.isEmpty, failure == nil { monitor.wait() }
        if let failure {
            monitor.unlock()
            throw failure
        }
        let buffer = free.removeLast()
        monitor.unlock()
        current = buffer
        currentOffset = accepted
        // The buffer taken must lie inside the file before it is written (see the type's comment).
        reserve(through: currentOffset + Int64(Self.bufferSize))
        currentTaken = FileIO.monotonicSeconds()
        filled = 0
        // Off the grid, only the bytes up to the next block boundary: written the ordinary way,
        // they put every later buffer on it.
        let misalignment = Int(accepted % Int64(Self.alignment))
        capacity = misalignment == 0 ? Self.bufferSize : Self.alignment - misalignment
        return buffer
    }

    /// Hands the current buffer to the writers: its aligned part direct, a ragged tail not.
    private func submit() {
        guard let buffer = current else { return }
        current = nil
        guard filled > 0 else {
            monitor.locked {
                free.append(buffer)
                monitor.broadcast()
            }
            return
        }
        let aligned = currentOffset % Int64(Self.alignment) == 0
        let directCount = aligned ? filled - filled % Self.alignment : 0
        var newJobs: [Job] = []
        if directCount > 0 {
            newJobs.append(
                job(buffer: buffer, start: 0, count: directCount, direct: true, releases: directCount == filled))
        }
        if directCount < filled {
            newJobs.append(
                job(buffer: buffer, start: directCount, count: filled - directCount, direct: false, releases: true))
        }
        monitor.locked {
            jobs.append(contentsOf: newJobs)
            monitor.broadcast()
        }
    }

    private func job(buffer: Int, start: Int, count: Int, direct: Bool, releases: Bool) -> Job {
        nextSequence += 1
        return Job(
            sequence: nextSequence, buffer: buffer, start: start, count: count,
            offset: currentOffset + Int64(start), direct: direct, releasesBuffer: releases)
    }

    // MARK: - The writer threads' side

    private func writeJobs() {
        monitor.lock()
        while true {
            guard let index = jobs.firstIndex(where: { !$0.taken }) else {
                if stopping { break }
                monitor.wait()
                continue
            }
            jobs[index].taken = true
            let job = jobs[index]
            let direct = job.direct && !directRefused
            monitor.unlock()
            let (written, error, refused) = perform(job, direct: direct)
            monitor.lock()
            if refused { directRefused = true }
            if let finished = jobs.firstIndex(where: { $0.sequence == job.sequence }) {
                jobs[finished].done = true
                jobs[finished].written = written
                jobs[finished].error = error
            }
            if error != 0, failure == nil { failure = .cannotWrite(path: path, code: error) }
            retireFinishedJobs()
            monitor.broadcast()
        }
        monitor.unlock()
    }

    /// Moves `completedLength` over the finished jobs at the front and frees their buffers; a
    /// failed job stays, counting only the bytes it did write.
    private func retireFinishedJobs() {
        while let first = jobs.first, first.done {
            if first.error != 0 {
                completedLength = first.offset + Int64(first.written)
                return
            }
            completedLength = first.offset + Int64(first.count)
            if first.releasesBuffer { free.append(first.buffer) }
            jobs.removeFirst()
        }
    }

    /// Writes one job, retrying after EINTR and short writes; falls back to the ordinary
    /// descriptor when the direct one refuses (EINVAL). Returns the bytes written, the errno
    /// that stopped it (0 when none) and whether the direct descriptor refused.
    private func perform(_ job: Job, direct: Bool) -> (written: Int, error: Int32, refused: Bool) {
        let base = memory + job.buffer * Self.bufferSize + job.start
        var direct = direct
        var refused = false
        var done = 0
        while done < job.count {
            let count = pwrite(
                direct ? directDescriptor : descriptor, base + done, job.count - done, off_t(job.offset + Int64(done)))
            if count > 0 {
                done += count
                continue
            }
            let code = count == 0 ? EIO : errno
            if code == EINTR { continue }
            if code == EINVAL && direct {
                // Refused outright: the file system does not do direct writes after all. After a
                // short write only this job's misaligned rest goes the ordinary way.
                refused = done == 0
                direct = false
                continue
            }
            return (done, code, refused)
        }
        return (done, 0, refused)
    }

    // MARK: - Helpers

    /// Reserves the file's blocks through `end` and one step beyond (never past the total), so
    /// direct writes land inside the file (writes past its end are serialised by the file
    /// system). Best effort: false when fallocate failed (no support, no space), after which the
    /// file grows by its writes. Runs on the transfer thread.
    @discardableResult
    private func reserve(through end: Int64) -> Bool {
        guard let total, !allocationStopped, allocatedEnd < min(end, total) else { return true }
        let step = min(max(accepted - firstOffset, Self.minimumStep), Self.maximumStep)
        let target = min(total, end + step)
        guard cfile_allocate(descriptor, off_t(allocatedEnd), off_t(target - allocatedEnd)) == 0 else {
            allocationStopped = true
            return false
        }
        allocatedEnd = target
        return true
    }
}
