import Glibc
import XCTest

@testable import AFKit

/// Lines read from a descriptor one buffer at a time, with a bounded length.
final class LineReaderTests: TemporaryDirectoryTestCase {
    /// Every line of a file with `contents`, read with `limit`.
    private func lines(_ contents: [UInt8], limit: Int = LineReader.defaultMaximumLineLength) throws -> [String] {
        let path = try makeFile("input", contents)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var reader = LineReader(descriptor: descriptor, maximumLineLength: limit)
        var result: [String] = []
        while let line = try reader.next() {
            result.append(line)
            XCTAssertEqual(reader.lineNumber, result.count)
        }
        return result
    }

    func testLinesEndAtLFAndDropCR() throws {
        XCTAssertEqual(try lines(Array("a\r\nb\n\nc".utf8)), ["a", "b", "", "c"])
        XCTAssertEqual(try lines(Array("a\n".utf8)), ["a"])
        XCTAssertEqual(try lines([]), [])
    }

    func testLinesLongerThanOneBufferAreJoined() throws {
        let long = String(repeating: "x", count: 150_000)
        XCTAssertEqual(try lines(Array((long + "\nshort\n").utf8), limit: 200_000), [long, "short"])
    }

    func testALineOverTheLimitIsRefusedWithItsNumber() throws {
        let text = "ok\n" + String(repeating: "y", count: 2000) + "\n"
        XCTAssertThrowsError(try lines(Array(text.utf8), limit: 1024)) { error in
            XCTAssertEqual(error as? LineReaderError, .lineTooLong(line: 2, limit: 1024))
            XCTAssertEqual("\(error)", "the line is longer than 1 KiB, the most a line may be")
        }
        // An endless line is refused once the limit is passed, without reading the rest.
        XCTAssertThrowsError(try lines([UInt8](repeating: 0x61, count: 300_000), limit: 1024)) { error in
            XCTAssertEqual(error as? LineReaderError, .lineTooLong(line: 1, limit: 1024))
        }
    }

    func testALineOfTheLimitIsAcceptedWhenItsCRIsReadBeforeItsLF() throws {
        // The last line without LF, and a line whose LF comes in a later read: the CR is not counted.
        XCTAssertEqual(try lines(Array("abcd\r".utf8), limit: 4), ["abcd"])
        XCTAssertEqual(try lines(Array("abcd\r\nxy".utf8), limit: 4), ["abcd", "xy"])
        XCTAssertThrowsError(try lines(Array("abcde\r".utf8), limit: 4)) { error in
            XCTAssertEqual(error as? LineReaderError, .lineTooLong(line: 1, limit: 4))
        }
    }

    func testInvalidUTF8IsRefused() throws {
        XCTAssertThrowsError(try lines([0x61, 0x0A, 0xFF, 0xFE, 0x0A])) { error in
            XCTAssertEqual(error as? LineReaderError, .notUTF8(line: 2))
        }
    }

    func testCtrlCStopsReading() throws {
        Interruption.install()
        raise(SIGINT)
        defer { Interruption.clear() }
        XCTAssertThrowsError(try lines(Array("a\n".utf8))) { error in
            XCTAssertEqual(error as? LineReaderError, .interrupted)
        }
    }
}
