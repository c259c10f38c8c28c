import Glibc
import XCTest

@testable import AFKit

/// The system layer: errno texts in one casing, whole writes, and small whole-file reads.
final class SystemLayerTests: TemporaryDirectoryTestCase {
    func testErrnoTextsStartLowerCaseUnlessAnAcronym() {
        XCTAssertEqual(SystemError.message(ENOENT), "no such file or directory")
        XCTAssertEqual(SystemError.message(EPIPE), "broken pipe")
        XCTAssertEqual(SystemError(code: EACCES).description, "permission denied")
        XCTAssertEqual(SystemError.lowercasingFirstLetter("RPC struct is bad"), "RPC struct is bad")
        XCTAssertEqual(SystemError.lowercasingFirstLetter(""), "")
    }

    func testWriteAllWritesMoreThanAPipeHoldsInOneCall() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let reader = Thread {
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received += chunk[0..<count]
            }
            close(readEnd)
            XCTAssertEqual(received, bytes)
        }
        reader.start()
        try bytes.withUnsafeBytes { try FileDescriptorIO.writeAll(writeEnd, $0) }
        close(writeEnd)
        while !reader.isFinished { usleep(1000) }
    }

    func testWriteAllReportsTheErrno() {
        XCTAssertThrowsError(try FileDescriptorIO.writeAll(-1, "x")) { error in
            XCTAssertEqual(error as? SystemError, SystemError(code: EBADF))
            XCTAssertEqual((error as? SystemError)?.description, "bad file descriptor")
        }
    }

    func testSmallFileReadsWholeFilesWithinTheLimit() throws {
        let path = try makeFile("a.pem", Array(repeating: 0x41, count: 40_000))
        XCTAssertEqual(try SmallFile.read(path).count, 40_000)
        XCTAssertThrowsError(try SmallFile.read(path, limit: 1000, tooLarge: "too large")) { error in
            XCTAssertEqual((error as? SmallFile.ReadError)?.reason, "too large")
        }
        XCTAssertThrowsError(try SmallFile.read(directory.path)) { error in
            XCTAssertEqual((error as? SmallFile.ReadError)?.reason, "not a regular file")
        }
        XCTAssertThrowsError(try SmallFile.read(directory.path + "/missing")) { error in
            XCTAssertEqual((error as? SmallFile.ReadError)?.reason, "no such file or directory")
        }
    }
}
