import Glibc

/// Collects one response body for the cache as it streams: in memory up to `inlineLimit` bytes,
/// then in a temporary file in the bodies directory, hashed on the way; `commit` names the file
/// by its SHA-256. Memory stays flat however large the body.
package final class CacheBodyWriter {
    /// Bodies up to this size are stored in the database itself.
    package static let inlineLimit = 64 * 1024

    private let directory: String
    private var buffer: [UInt8] = []
    private let hasher = BodyDigest()
    private var descriptor: Int32 = -1
    private var temporaryPath: String?
    private(set) var size: Int64 = 0
    /// The first write failure (a full disk); the body is then not stored.
    private(set) var failure: CacheError?

    init(directory: String) {
        self.directory = directory
    }

    deinit {
        discard()
    }

    /// Adds a chunk of the body.
    package func append(_ chunk: UnsafeRawBufferPointer) {
        guard failure == nil, !chunk.isEmpty else { return }
        size += Int64(chunk.count)
        hasher.update(chunk)
        if descriptor < 0, buffer.count + chunk.count <= Self.inlineLimit {
            buffer.append(contentsOf: chunk)
            return
        }
        if descriptor < 0 {
            guard openTemporary() else { return }
            let pending = buffer
            buffer = []
            guard pending.withUnsafeBytes({ writeOut($0) }) else { return }
        }
        _ = writeOut(chunk)
    }

    /// The body as stored, or nil (with `failure` set) when it could not be written. A file is
    /// renamed to its digest only once complete, so no entry ever points at half a body.
    package func commit() -> (body: CacheEntry.Body, size: Int64)? {
        guard failure == nil else { return nil }
        guard descriptor >= 0, let temporaryPath else { return (.inline(buffer), size) }
        let digest = hasher.finalize()
        guard !hasher.failed else {
            failure = .cannotWrite(path: temporaryPath, code: EIO)
            discard()
            return nil
        }
        let target = directory + "/" + digest
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, target) == 0 else {
            failure = .cannotWrite(path: target, code: errno)
            unlink(temporaryPath)
            self.temporaryPath = nil
            return nil
        }
        self.temporaryPath = nil
        return (.file(digest: digest), size)
    }

    /// Drops what was written (a failed or interrupted transfer).
    package func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if let temporaryPath { unlink(temporaryPath) }
        temporaryPath = nil
        buffer = []
    }

    /// Whether `name` is a body file's name: 64 lower-case hex digits.
    static func isDigestName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The prefix of temporary body files, which `cache prune` removes once they are old.
    static let temporaryPrefix = "tmp-"

    private func openTemporary() -> Bool {
        do {
            try CacheDirectory.prepare(directory, createParent: false)
        } catch {
            failure = error
            return false
        }
        for _ in 0..<8 {
            let name =
                Self.temporaryPrefix + String(getpid()) + "-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let path = directory + "/" + name
            let opened = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if opened >= 0 {
                descriptor = opened
                temporaryPath = path
                return true
            }
            if errno != EEXIST {
                failure = .cannotOpen(path: path, code: errno)
                return false
            }
        }
        failure = .cannotOpen(path: directory, code: EEXIST)
        return false
    }

    private func writeOut(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard FileIO.writeAll(descriptor, bytes) else {
            let code = errno
            failure = .cannotWrite(path: temporaryPath ?? directory, code: code)
            discard()
            return false
        }
        return true
    }
}
