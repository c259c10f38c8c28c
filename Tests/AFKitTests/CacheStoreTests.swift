import Foundation
import Glibc
import XCTest

@testable import AFKit

/// The cache's storage: entries round-trip, bodies past the inline limit become digest-named
/// 0600 files only once complete, a failed write stores nothing, and unsafe places are refused.
final class CacheStoreTests: TemporaryDirectoryTestCase {
    private var cacheDirectory: String { directory.path + "/afcli" }

    private func entry(_ url: String, body: CacheEntry.Body, size: Int64, used: Double = 0, expires: Double? = nil) -> CacheEntry {
        CacheEntry(
            namespace: "ns", method: "GET", url: url, varyNames: ["accept"], statusCode: 200, reasonPhrase: "OK",
            httpVersion: "HTTP/1.1", headers: [("ETag", "\"a\""), ("Set-Cookie", "s=1"), ("Keep-Alive", "timeout=5")], body: body, bodySize: size,
            requestTime: 1, responseTime: 2, expires: expires, lastUsed: used)
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0, path)
        return info.st_mode & 0o777
    }

    func testEntriesRoundTripWithSetCookieButNoHopByHopField() throws {
        let store = try CacheStore(directory: cacheDirectory)
        try store.put(key: "k", variant: "v", entry: entry("http://h/", body: .inline([1, 2, 3]), size: 3))
        let found = try store.variants(of: "k")
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found[0].variant, "v")
        XCTAssertEqual(found[0].entry.body, .inline([1, 2, 3]))
        XCTAssertEqual(found[0].entry.varyNames, ["accept"])
        XCTAssertEqual(found[0].entry.headers.map(\.name), ["ETag", "Set-Cookie"])
        XCTAssertEqual(mode(cacheDirectory), 0o700)
        XCTAssertEqual(mode(store.databasePath), 0o600)
        // A second open of the warm database sees the same entry.
        XCTAssertEqual(try CacheStore(directory: cacheDirectory).entries().count, 1)
    }

    func testLargeBodyBecomesADigestNamedFileOnlyOnCommit() throws {
        let store = try CacheStore(directory: cacheDirectory)
        let writer = store.bodyWriter()
        let body = [UInt8](repeating: 7, count: CacheBodyWriter.inlineLimit + 10)
        body.withUnsafeBytes { writer.append($0) }
        let bodies = cacheDirectory + "/bodies"
        let names = FileIO.names(in: bodies)
        XCTAssertEqual(names.count, 1)
        XCTAssertTrue(names[0].hasPrefix("tmp-"))
        let committed = try XCTUnwrap(writer.commit())
        let digest = SHA256.hex(SHA256.hash(body))
        XCTAssertEqual(committed.body, .file(digest: digest))
        XCTAssertEqual(FileIO.names(in: bodies), [digest])
        XCTAssertEqual(mode(bodies), 0o700)
        XCTAssertEqual(mode(bodies + "/" + digest), 0o600)
        try store.put(key: "k", variant: "", entry: entry("http://h/", body: committed.body, size: committed.size))
        let descriptor = try XCTUnwrap(store.openBody(digest: digest, size: Int64(body.count)))
        close(descriptor)
        XCTAssertNil(store.openBody(digest: digest, size: 5))
        // Replacing the entry removes the body file no one uses any more.
        try store.put(key: "k", variant: "", entry: entry("http://h/", body: .inline([]), size: 0))
        XCTAssertEqual(FileIO.names(in: bodies), [])
    }

    func testBodyDigestMatchesSHA256InAnyChunking() {
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 63, 64, 65, 1000, 100_000] {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let digest = BodyDigest()
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + 7 + offset % 4096)
                bytes[offset..<end].withUnsafeBytes { digest.update($0) }
                offset = end
            }
            XCTAssertEqual(digest.finalize(), SHA256.hex(SHA256.hash(bytes)), "size \(size)")
            XCTAssertFalse(digest.failed)
        }
    }

    func testDiscardedBodyLeavesNothing() throws {
        let store = try CacheStore(directory: cacheDirectory)
        let writer = store.bodyWriter()
        [UInt8](repeating: 1, count: CacheBodyWriter.inlineLimit * 2).withUnsafeBytes { writer.append($0) }
        writer.discard()
        XCTAssertEqual(FileIO.names(in: cacheDirectory + "/bodies"), [])
    }

    func testFailedWriteStoresNothingAndKeepsTheOldEntry() throws {
        let store = try CacheStore(directory: cacheDirectory)
        try store.put(key: "k", variant: "", entry: entry("http://h/", body: .inline([9]), size: 1))
        // A file size limit makes writes fail (EFBIG) as a full disk does (ENOSPC).
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        var limited = saved
        limited.rlim_cur = rlim_t(CacheBodyWriter.inlineLimit + 4096)
        let previous = signal(SIGXFSZ, SIG_IGN)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limited)
        let writer = store.bodyWriter()
        [UInt8](repeating: 1, count: CacheBodyWriter.inlineLimit * 4).withUnsafeBytes { writer.append($0) }
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        signal(SIGXFSZ, previous)
        XCTAssertNil(writer.commit())
        XCTAssertNotNil(writer.failure)
        XCTAssertEqual(FileIO.names(in: cacheDirectory + "/bodies"), [])
        XCTAssertEqual(try store.variants(of: "k").first?.entry.body, .inline([9]))
    }

    func testInvalidateRemoveAndPrune() throws {
        let store = try CacheStore(directory: cacheDirectory)
        try store.put(key: "a", variant: "", entry: entry("http://h/a", body: .inline([1]), size: 100, used: 1, expires: 50))
        try store.put(key: "b", variant: "", entry: entry("http://h/b", body: .inline([1]), size: 100, used: 2))
        try store.put(key: "c", variant: "", entry: entry("http://h/c", body: .inline([1]), size: 100, used: 3))
        try store.put(key: "d", variant: "", entry: entry("http://h/d", body: .inline([1]), size: 100, used: 4))
        try store.invalidate(url: "http://h/d")
        XCTAssertEqual(try store.variants(of: "d").count, 0)
        let report = try store.prune(now: 60, maxSize: 150)
        XCTAssertEqual(report.expired, 1)
        XCTAssertEqual(report.evicted, 1)
        XCTAssertEqual(try store.entries().map(\.url), ["http://h/c"])
        XCTAssertEqual(try store.remove(url: "HTTP://H/c"), 1)
    }

    func testRemovingSeveralBodyFilesAtOnceRemovesEveryEntryAndFile() throws {
        // One statement counts the users of each body file in turn; it used to be bound again
        // without a reset, which SQLite refuses (SQLITE_MISUSE) from the second file on.
        let store = try CacheStore(directory: cacheDirectory)
        var digests: [String] = []
        for index in 0..<3 {
            let writer = store.bodyWriter()
            let body = [UInt8](repeating: UInt8(index), count: CacheBodyWriter.inlineLimit + 1)
            body.withUnsafeBytes { writer.append($0) }
            let committed = try XCTUnwrap(writer.commit())
            if case .file(let digest) = committed.body { digests.append(digest) }
            try store.put(
                key: "k", variant: "v\(index)", entry: entry("http://h/x", body: committed.body, size: committed.size))
        }
        XCTAssertEqual(digests.count, 3)
        try store.invalidate(url: "http://h/x")
        XCTAssertEqual(try store.entries().count, 0)
        XCTAssertEqual(FileIO.names(in: cacheDirectory + "/bodies"), [])
        for index in 0..<2 {
            let writer = store.bodyWriter()
            [UInt8](repeating: UInt8(9 + index), count: CacheBodyWriter.inlineLimit + 1).withUnsafeBytes {
                writer.append($0)
            }
            let committed = try XCTUnwrap(writer.commit())
            try store.put(key: "k\(index)", variant: "", entry: entry("http://h/\(index)", body: committed.body, size: committed.size))
        }
        XCTAssertEqual(try store.removeAll(), 2)
        XCTAssertEqual(FileIO.names(in: cacheDirectory + "/bodies"), [])
    }

    func testSymbolicLinksAndForeignDirectoriesAreRefused() throws {
        let elsewhere = directory.path + "/elsewhere"
        XCTAssertEqual(mkdir(elsewhere, 0o700), 0)
        XCTAssertEqual(symlink(elsewhere, cacheDirectory), 0)
        XCTAssertThrowsError(try CacheStore(directory: cacheDirectory)) { error in
            XCTAssertTrue("\(error)".contains("symbolic link"), "\(error)")
        }
        unlink(cacheDirectory)
        XCTAssertEqual(mkdir(cacheDirectory, 0o777), 0)
        chmod(cacheDirectory, 0o777)
        XCTAssertThrowsError(try CacheStore(directory: cacheDirectory)) { error in
            XCTAssertTrue("\(error)".contains("others can write"), "\(error)")
        }
    }

    func testGarbageDatabaseIsAnErrorAndRebuildRecovers() throws {
        XCTAssertEqual(mkdir(cacheDirectory, 0o700), 0)
        let path = cacheDirectory + "/cache.db"
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try CacheStore(directory: cacheDirectory)) { error in
            XCTAssertTrue("\(error)".contains("unreadable"), "\(error)")
        }
        let store = try CacheStore.rebuild(directory: cacheDirectory)
        XCTAssertEqual(try store.entries().count, 0)
    }
}
