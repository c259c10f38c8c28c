import Glibc

/// `NAME.part` and its state file while a download writes them, with the crash-safe ordering
/// DESIGN §2 asks for: data is fsynced before a state that claims it is written, the state is
/// replaced atomically, and the finished file is fsynced and renamed into place in one step.
/// During a transfer, writeback and checkpoints run on a `WritebackWorker` thread; when no
/// thread can be started they run inline, between chunks.
///
/// The partial file is locked (`flock`) while open, so two afcli processes never write the same
/// one; the lock goes away by itself when a process dies, even by SIGKILL.
package final class PartialFile {
    /// The shortest time between two checkpoints during a transfer (seconds).
    package static let checkpointInterval = 0.2
    /// Checkpoints wait for the disk (fdatasync, and a cache flush on most devices), so the gap
    /// after one grows to this many times what it took: at most about 5% of a fast download is
    /// spent in them, while a slow one still saves its progress five times a second.
    static let checkpointSpacing = 20.0
    /// How many written bytes are handed to the kernel's writeback at a time, so the final fsync
    /// does not wait for the whole file and the page cache does not fill with it.
    static let writebackWindow = WritebackWorker.window

    /// The partial file's path (`NAME.part`).
    package let path: String
    /// The state file's path (`NAME.part.state`).
    package let statePath: String
    /// What the state file says, or will say at the next checkpoint.
    package private(set) var state: DownloadState
    /// The open descriptor, read-write.
    private let descriptor: Int32
    /// The buffer in front of it.
    private let buffer: WriteBuffer
    /// When the next checkpoint is due (monotonic seconds).
    private var nextCheckpoint = 0.0
    /// Bytes before this offset have been handed to writeback.
    private var advisedUpTo: Int64 = 0
    /// Whether the descriptor is closed.
    private var closed = false
    /// The thread syncing and checkpointing while a transfer writes, if one could start.
    private var worker: WritebackWorker?

    /// Opens (creating it when missing) and locks a partial file; `busy` when another process
    /// holds the lock.
    package init(path: String, state: DownloadState) throws(DownloadError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, code: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { throw .busy(path: path) }
            throw .cannotOpen(path: path, code: code)
        }
        self.path = path
        self.statePath = DownloadStateFile.path(forPart: path)
        self.state = state
        self.descriptor = descriptor
        self.buffer = WriteBuffer(descriptor: descriptor, path: path)
    }

    deinit {
        _ = worker?.stop()
        if !closed { close(descriptor) }
    }

    /// The current size of the file on disk.
    package var sizeOnDisk: Int64 { FileIO.size(of: descriptor) ?? 0 }

    /// Bytes accepted so far (on disk or buffered).
    package var accepted: Int64 { buffer.accepted }

    /// Makes the file exactly `offset` bytes long (never longer than it is), positions writing
    /// there, and records a state for it before any new byte is written.
    ///
    /// The order keeps the state's promise at every instant: the bytes kept are fsynced, then the
    /// state saying `offset` replaces the old one (which vouched for at least as much), and only
    /// then is the file cut, so a restart from zero never leaves a state claiming the old bytes.
    package func start(at offset: Int64, state newState: DownloadState) throws(DownloadError) {
        try stopWorker()
        guard fdatasync(descriptor) == 0 else { throw .cannotWrite(path: path, code: errno) }
        state = newState
        state.bytes = min(offset, sizeOnDisk)
        try DownloadStateFile.write(state, to: statePath)
        guard ftruncate(descriptor, off_t(offset)) == 0 else { throw .cannotWrite(path: path, code: errno) }
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw .cannotWrite(path: path, code: errno) }
        buffer.discard(resettingTo: offset)
        advisedUpTo = offset
        state.bytes = offset
        nextCheckpoint = FileIO.monotonicSeconds() + Self.checkpointInterval
        worker = WritebackWorker(descriptor: descriptor, path: path, statePath: statePath, state: state)
    }

    /// Appends a chunk of the body; the worker (else this call, when the interval has passed)
    /// checkpoints.
    package func append(_ chunk: UnsafeRawBufferPointer) throws(DownloadError) {
        try buffer.append(chunk)
        if let worker {
            try worker.publish(buffer.written)
            return
        }
        if buffer.written - advisedUpTo >= Self.writebackWindow { startWriteback() }
        if FileIO.monotonicSeconds() >= nextCheckpoint {
            try checkpoint()
        }
    }

    /// Stops the worker, taking over what its state file says; throws the failure that stopped
    /// it, if one did.
    private func stopWorker() throws(DownloadError) {
        guard let worker else { return }
        self.worker = nil
        let (saved, failure) = worker.stop()
        if saved > state.bytes { state.bytes = saved }
        if let failure { throw failure }
    }

    /// Checkpoints now, instead of waiting for the interval: the worker, when one runs, is
    /// stopped for it and started again after.
    package func checkpointNow() throws(DownloadError) {
        let restarts = worker != nil
        try stopWorker()
        try checkpoint()
        if restarts {
            worker = WritebackWorker(descriptor: descriptor, path: path, statePath: statePath, state: state)
        }
    }

    /// Writes buffered bytes, fsyncs the data, then records the new length in the state file.
    private func checkpoint() throws(DownloadError) {
        let started = FileIO.monotonicSeconds()
        try buffer.flush()
        guard fdatasync(descriptor) == 0 else { throw .cannotWrite(path: path, code: errno) }
        state.bytes = buffer.written
        try DownloadStateFile.write(state, to: statePath)
        let finished = FileIO.monotonicSeconds()
        nextCheckpoint = finished + max(Self.checkpointInterval, (finished - started) * Self.checkpointSpacing)
    }

    /// Saves what can be saved after a failure or an interrupt and closes the file: whatever
    /// reached the file is fsynced and recorded, and nothing more is ever claimed.
    package func suspend() {
        guard !closed else { return }
        try? stopWorker()
        try? buffer.flush()
        if fdatasync(descriptor) == 0, buffer.written > state.bytes {
            var saved = state
            saved.bytes = buffer.written
            if (try? DownloadStateFile.write(saved, to: statePath)) != nil { state = saved }
        }
        closeFile()
    }

    /// Flushes and fsyncs the finished data (the file stays open and locked until `close`).
    package func finishWriting() throws(DownloadError) {
        try stopWorker()
        try buffer.flush()
        guard fsync(descriptor) == 0 else { throw .cannotWrite(path: path, code: errno) }
    }

    /// Feeds the first `length` bytes on disk to `hasher`, for a resumed download's digest;
    /// returns early when `interrupted` says SIGINT/SIGTERM arrived meanwhile.
    package func hashPrefix(_ length: Int64, into hasher: inout SHA256, interrupted: () -> Bool) throws(DownloadError) {
        try Self.hash(descriptor: descriptor, path: path, length: length, into: &hasher, interrupted: interrupted)
    }

    /// The SHA-256 of a whole file on disk (one not opened as a partial file).
    package static func digest(ofFileAt path: String, interrupted: () -> Bool) throws(DownloadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, code: errno) }
        defer { close(descriptor) }
        var hasher = SHA256()
        try hash(
            descriptor: descriptor, path: path, length: FileIO.size(of: descriptor) ?? 0, into: &hasher,
            interrupted: interrupted)
        return hasher.finalize()
    }

    /// Reads `length` bytes from the start of `descriptor` into `hasher`, 1 MiB at a time.
    private static func hash(
        descriptor: Int32, path: String, length: Int64, into hasher: inout SHA256, interrupted: () -> Bool
    ) throws(DownloadError) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 4096)
        defer { chunk.deallocate() }
        var offset: Int64 = 0
        while offset < length {
            if interrupted() { return }
            let wanted = Int(min(Int64(chunk.count), length - offset))
            let count = pread(descriptor, chunk.baseAddress, wanted, off_t(offset))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .cannotRead(path: path, code: count == 0 ? EIO : errno) }
            hasher.update(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
            offset += Int64(count)
        }
    }

    /// Moves the finished file to `final` and removes the state: with `replacing`, an existing
    /// file is replaced atomically (rename); without, a name that exists by now is left alone and
    /// the next free `-1`, `-2`… name is used (link fails rather than overwrite). Returns the path
    /// the file now has.
    package func install(as final: String, replacing: Bool) throws(DownloadError) -> String {
        var target = final
        if replacing {
            guard rename(path, final) == 0 else { throw .cannotRename(from: path, to: final, code: errno) }
        } else {
            let directory = FileIO.directory(of: final)
            let name = FileIO.baseName(of: final)
            var number = 0
            while true {
                if link(path, target) == 0 {
                    unlink(path)
                    break
                }
                let code = errno
                if code == EEXIST && FileIO.sameFile(path, target) {
                    // An earlier run linked the file into place and was killed before unlinking
                    // the partial name: the file is installed already.
                    unlink(path)
                    break
                }
                // File systems without hard links: check, then rename (a small window remains).
                let linkless = code == EPERM || code == EOPNOTSUPP || code == EMLINK
                if code == EEXIST || (linkless && FileIO.exists(target)) {
                    number += 1
                    guard number < 10000 else { throw .noFreeName(name) }
                    target = FileIO.join(directory, DownloadName.numbered(name, number))
                    continue
                }
                guard linkless else { throw .cannotRename(from: path, to: target, code: code) }
                guard rename(path, target) == 0 else { throw .cannotRename(from: path, to: target, code: errno) }
                break
            }
        }
        FileIO.syncDirectory(FileIO.directory(of: target))
        DownloadStateFile.remove(statePath)
        closeFile()
        return target
    }

    /// Closes the descriptor (and so the lock).
    package func closeFile() {
        guard !closed else { return }
        _ = try? stopWorker()
        closed = true
        close(descriptor)
    }

    /// Removes the partial file and its state (a digest mismatch, or a download restarted under
    /// another name).
    package func remove() {
        closeFile()
        unlink(path)
        DownloadStateFile.remove(statePath)
    }

    /// Hands the bytes since the last call to writeback (the inline path; see WritebackWorker).
    private func startWriteback() {
        WritebackWorker.startWriteback(descriptor, from: advisedUpTo, upTo: buffer.written)
        advisedUpTo = buffer.written
    }
}
