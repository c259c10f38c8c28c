import AFCurl
import AFKit
import Foundation
import XCTest

/// In-memory, file and standard-input body sources: chunked reads, rewind and size checks.
final class BodySourceTests: TemporaryDirectoryTestCase {
    /// Reads `source` to its end in chunks of `chunk` bytes.
    private func readAll(_ source: BodySource, chunk: Int = 7) throws -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return result }
            result += buffer[0..<count]
        }
    }

    func testBytesSourceReadsInChunksAndRewinds() throws {
        let source = BytesBodySource(bytes("hello world"))
        XCTAssertEqual(source.length, 11)
        XCTAssertEqual(try readAll(source, chunk: 3), bytes("hello world"))
        XCTAssertEqual(try readAll(source), [])
        source.rewind()
        XCTAssertEqual(try readAll(source, chunk: 64), bytes("hello world"))
    }

    func testFileSourceStreamsAndRewinds() throws {
        let contents = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        let source = try FileBodySource(path: try makeFile("data.bin", contents))
        XCTAssertEqual(source.length, 10_000)
        XCTAssertEqual(try readAll(source, chunk: 4096), contents)
        try source.rewind()
        XCTAssertEqual(try readAll(source, chunk: 333), contents)
    }

    func testEmptyFile() throws {
        let source = try FileBodySource(path: try makeFile("empty", []))
        XCTAssertEqual(source.length, 0)
        XCTAssertEqual(try readAll(source), [])
    }

    func testMissingFileIsRefused() {
        let path = directory.appendingPathComponent("nope").path
        assertSerializationError(
            try FileBodySource(path: path), .unreadable(path: path, reason: "no such file or directory"),
            description: "cannot read \"\(path)\": no such file or directory")
    }

    func testDirectoryIsRefused() {
        assertSerializationError(
            try FileBodySource(path: directory.path), .unreadable(path: directory.path, reason: "is a directory"),
            description: "cannot read \"\(directory.path)\": is a directory")
    }

    func testUnreadableFileIsRefused() throws {
        try XCTSkipIf(geteuid() == 0, "root reads every file")
        let path = try makeFile("secret", bytes("x"))
        XCTAssertEqual(chmod(path, 0), 0)
        assertSerializationError(
            try FileBodySource(path: path), .unreadable(path: path, reason: "permission denied"),
            description: "cannot read \"\(path)\": permission denied")
    }

    func testFileThatShrinksFails() throws {
        let path = try makeFile("shrinks", bytes("0123456789"))
        let source = try FileBodySource(path: path)
        XCTAssertEqual(truncate(path, 5), 0)
        var buffer = [UInt8](repeating: 0, count: 64)
        XCTAssertEqual(try buffer.withUnsafeMutableBytes { try source.read(into: $0) }, 5)
        XCTAssertThrowsError(try buffer.withUnsafeMutableBytes { try source.read(into: $0) }) { error in
            XCTAssertEqual(error as? SerializationError, .fileChangedSize(path: path))
            XCTAssertEqual("\(error)", "\"\(path)\" changed size while it was being sent")
        }
    }

    func testFileThatGrowsFails() throws {
        let path = try makeFile("grows", bytes("0123456789"))
        let source = try FileBodySource(path: path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("abc".utf8))
        try handle.close()
        XCTAssertThrowsError(try readAll(source, chunk: 4)) { error in
            XCTAssertEqual(error as? SerializationError, .fileChangedSize(path: path))
        }
    }

    func testStandardInputPeekThenReplay() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]) }
        XCTAssertEqual(write(fds[1], "abc", 3), 3)
        close(fds[1])
        let source = StandardInputBodySource(fileDescriptor: fds[0])
        XCTAssertNil(source.length)
        XCTAssertEqual(try source.peekFirstChunk(), 3)
        XCTAssertEqual(try source.peekFirstChunk(), 3)
        XCTAssertEqual(try readAll(source, chunk: 2), bytes("abc"))
        try source.rewind()
        XCTAssertEqual(try readAll(source), bytes("abc"))
    }

    func testStandardInputEmpty() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]) }
        close(fds[1])
        let source = StandardInputBodySource(fileDescriptor: fds[0])
        XCTAssertEqual(try source.peekFirstChunk(), 0)
        XCTAssertEqual(try readAll(source), [])
        XCTAssertNoThrow(try source.rewind())
    }

    func testStandardInputWithoutPeekAndBeyondFirstChunkCannotRewind() throws {
        let contents = (0..<(StandardInputBodySource.chunkSize + 100)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let descriptor = open(try makeFile("stdin", contents), O_RDONLY)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        let source = StandardInputBodySource(fileDescriptor: descriptor)
        XCTAssertEqual(try readAll(source, chunk: 10_000), contents)
        XCTAssertThrowsError(try source.rewind()) { error in
            XCTAssertEqual(error as? SerializationError, .notRewindable(path: "-"))
            XCTAssertEqual("\(error)", "cannot send standard input again: it was already consumed")
        }
    }

    func testStandardInputReadErrorIsReported() {
        let source = StandardInputBodySource(fileDescriptor: -1)
        assertSerializationError(
            try source.peekFirstChunk(), .unreadable(path: "-", reason: "bad file descriptor"),
            description: "cannot read standard input: bad file descriptor")
    }
}
