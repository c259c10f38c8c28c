import Glibc

/// `NAME.part` and its state file while a download writes them, with the crash-safe ordering
/// DESIGN §2 asks for: data is fsynced before a state that claims it is written, the state is
/// replaced atomically, and the finished file is fsynced and renamed into place in one step.
/// During a transfer the bytes go to the disk around the page cache (`DirectWriter`) where the
/// file system allows it, else through a `WriteBuffer`; checkpoints (and the page cache's
/// writeback) run on a `WritebackWorker` thread, or inline, between chunks, when no thread can
/// be started.
///
/// The partial file is locked (`flock`) while open, so two afcli processes never write the same
/// one; the lock goes away by itself when a process dies, even by SIGKILL.
package final class PartialFile {
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
    /// The buffer in front of it, when the bytes go through the page cache.
    private let buffer: WriteBuffer
    /// The writer that takes the bytes instead, when they go around it.
    private var direct: DirectWriter?
    /// Whether to try O_DIRECT writing at all.
    private let allowsDirectIO: Bool
    /// When checkpoints are due, when they run inline.
    private var schedule = CheckpointSchedule()
    /// Bytes before this offset have been handed to writeback.
    private var advisedUpTo: Int64 = 0
    /// Whether the descriptor is closed.
    private var closed = false
    /// The thread syncing and checkpointing while a transfer writes, if one could start.
    private var worker: WritebackWorker?

    /// Opens (creating it when missing) and locks a partial file; `busy` when another process
    /// holds the lock. `directIO: false` keeps every write in the page cache.
    ///
    /// The file is never reached through a symbolic link and must be a regular file of the
    /// user's own (`FileIO.openOwnedRegularFile`); its mode is the usual 0644 less the umask,
    /// since it becomes the downloaded file.
    package init(path: String, state: DownloadState, directIO: Bool = true) throws(DownloadError) {
        let descriptor = try FileIO.openOwnedRegularFile(path, flags: O_RDWR | O_CREAT, mode: 0o644)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { throw .busy(path: path) }
            throw .cannotOpen(path: path, code: code)
        }
        self.path = path
        self.statePath = DownloadStateFile.path(forPart: path)
        let inode = FileIO.inode(of: descriptor)
        self.inode = inode
        var state = state
        state.inode = inode
        self.state = state
        self.descriptor = descriptor
        self.buffer = WriteBuffer(descriptor: descriptor, path: path)
        self.allowsDirectIO = directIO
    }

    /// The partial file's inode, recorded in every state written for it.
    package let inode: UInt64?

    deinit {
        _ = worker?.stop()
        direct?.stop()
        if !closed { close(descriptor) }
    }

    /// The current size of the file on disk.
    package var sizeOnDisk: Int64 { FileIO.size(of: descriptor) ?? 0 }

    /// Bytes accepted so far (on disk or buffered).
    package var accepted: Int64 { direct?.accepted ?? buffer.accepted }

    /// Bytes that reached the file (not necessarily the disk), from its start.
    private var written: Int64 { direct?.completed ?? buffer.written }

    /// Whether the bytes go around the page cache (O_DIRECT).
    package var writesDirectly: Bool { direct != nil }

    /// Makes the file exactly `offset` bytes long (never longer than it is), positions writing
    /// there, and records a state for it before any new byte is written.
    ///
    /// The order keeps the state's promise at every instant: the bytes kept are fsynced, then the
    /// state saying `offset` replaces the old one (which vouched for at least as much), and only
    /// then is the file cut, so a restart from zero never leaves a state claiming the old bytes.
    package func start(at offset: Int64, state newState: DownloadState) throws(DownloadError) {
        try stopWorker()
        stopDirectWriter()
        guard fdatasync(descriptor) == 0 else { throw .cannotWrite(path: path, code: errno) }
        state = newState
        state.inode = inode
        state.bytes = min(offset, sizeOnDisk)
        try DownloadStateFile.write(state, to: statePath)
        guard ftruncate(descriptor, off_t(offset)) == 0 else { throw .cannotWrite(path: path, code: errno) }
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw .cannotWrite(path: path, code: errno) }
        buffer.discard(resettingTo: offset)
        advisedUpTo = offset
        state.bytes = offset
        schedule = CheckpointSchedule()
        if allowsDirectIO {
            direct = DirectWriter(path: path, descriptor: descriptor, offset: offset, total: newState.total)
        }
        startWorker()
    }

    /// Starts the checkpointing thread; it hands bytes to writeback when they go through the page
    /// cache, and asks the direct writer what is written when they go around it.
    private func startWorker() {
        let lengthSource = direct.map { direct in { direct.completed } }
        worker = WritebackWorker(
            descriptor: descriptor, path: path, statePath: statePath, state: state, writtenLength: lengthSource)
    }

    /// Appends a chunk of the body; the worker (else this call, when the interval has passed)
    /// checkpoints.
    package func append(_ chunk: UnsafeRawBufferPointer) throws(DownloadError) {
        if let direct {
            try direct.append(chunk)
        } else {
            try buffer.append(chunk)
        }
        if let worker {
            // Around the page cache the worker asks the direct writer how much is written.
            try worker.publish(direct == nil ? buffer.written : nil)
            return
        }
        if direct == nil && buffer.written - advisedUpTo >= Self.writebackWindow { startWriteback() }
        if FileIO.monotonicSeconds() >= schedule.due {
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

    /// Checkpoints every byte accepted so far, instead of waiting for the interval: the worker,
    /// when one runs, is stopped for it and started again after.
    package func checkpointNow() throws(DownloadError) {
        let restarts = worker != nil
        try stopWorker()
        try writeAccepted()
        try checkpoint()
        if restarts { startWorker() }
    }

    /// Writes out what is buffered: all of it through the page cache, only whole buffers
    /// around it (waiting for the buffers' writes would stall the transfer); then fsyncs the
    /// data and records the length written in the state file.
    private func checkpoint() throws(DownloadError) {
        let started = FileIO.monotonicSeconds()
        if direct == nil { try buffer.flush() }
        let length = written
        guard fdatasync(descriptor) == 0 else { throw .cannotWrite(path: path, code: errno) }
        state.bytes = length
        try DownloadStateFile.write(state, to: statePath)
        let finished = FileIO.monotonicSeconds()
        schedule.checkpointed(started: started, finished: finished)
    }

    /// Saves what can be saved after a failure or an interrupt and closes the file: whatever
    /// reached the file is fsynced and recorded, and nothing more is ever claimed.
    package func suspend() {
        guard !closed else { return }
        try? stopWorker()
        try? writeAccepted()
        let length = written
        if fdatasync(descriptor) == 0, length > state.bytes {
            var saved = state
            saved.bytes = length
            if (try? DownloadStateFile.write(saved, to: statePath)) != nil { state = saved }
        }
        // A preallocated file is cut back to what it holds (the state is what counts on resume).
        if let size = FileIO.size(of: descriptor), size > state.bytes, size > length {
            _ = ftruncate(descriptor, off_t(length))
        }
        closeFile()
    }

    /// Flushes and fsyncs the finished data (the file stays open and locked until `close`).
    package func finishWriting() throws(DownloadError) {
        try stopWorker()
        try writeAccepted()
        let length = written
        if let size = FileIO.size(of: descriptor), size > length, direct != nil {
            // Preallocated for more than arrived.
            guard ftruncate(descriptor, off_t(length)) == 0 else { throw .cannotWrite(path: path, code: errno) }
        }
        guard fsync(descriptor) == 0 else { throw .cannotWrite(path: path, code: errno) }
    }

    /// Writes every accepted byte to the file and waits for the writes.
    private func writeAccepted() throws(DownloadError) {
        if let direct {
            try direct.drain()
        } else {
            try buffer.flush()
        }
    }

    /// Stops the direct writer's threads (after the writes already handed to them).
    private func stopDirectWriter() {
        direct?.stop()
        direct = nil
    }

    /// Feeds the first `length` bytes on disk to `hasher`, for a resumed download's digest;
    /// returns early when `interrupted` says SIGINT/SIGTERM arrived meanwhile.
    package func hashPrefix(_ length: Int64, into hasher: BodyDigest, interrupted: () -> Bool) throws(DownloadError) {
        try Self.hash(descriptor: descriptor, path: path, length: length, into: hasher, interrupted: interrupted)
    }

    /// The SHA-256 of a whole file on disk (one not opened as a partial file).
    package static func digest(ofFileAt path: String, interrupted: () -> Bool) throws(DownloadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, code: errno) }
        defer { close(descriptor) }
        let hasher = BodyDigest()
        try hash(
            descriptor: descriptor, path: path, length: FileIO.size(of: descriptor) ?? 0, into: hasher,
            interrupted: interrupted)
        guard let digest = hasher.finalizeBytes() else { throw .checksumUnavailable(path: path) }
        return digest
    }

    /// Reads `length` bytes from the start of `descriptor` into `hasher`, 1 MiB at a time.
    private static func hash(
        descriptor: Int32, path: String, length: Int64, into hasher: BodyDigest, interrupted: () -> Bool
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
        // Rename and link act on whatever the name leads to now: it must still be this file.
        guard FileIO.names(path, descriptor) else { throw .unsafeFile(path: path, problem: .replaced) }
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
        stopDirectWriter()
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
