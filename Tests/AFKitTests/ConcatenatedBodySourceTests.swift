import XCTest

@testable import AFKit

/// Several body sources sent as one: length, order, rewind.
final class ConcatenatedBodySourceTests: TemporaryDirectoryTestCase {
    private func readAll(_ source: BodySource, chunk: Int) throws -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += buffer[0..<count]
        }
    }

    func testPartsAreSentInOrderAndRewound() throws {
        let path = try makeFile("part", Array("middle".utf8))
        let source = ConcatenatedBodySource([
            BytesBodySource(Array("head\r\n".utf8)), try FileBodySource(path: path), BytesBodySource([]),
            BytesBodySource(Array("\r\ntail".utf8)),
        ])
        XCTAssertEqual(source.length, 18)
        XCTAssertEqual(try readAll(source, chunk: 4), "head\r\nmiddle\r\ntail")
        try source.rewind()
        XCTAssertEqual(try readAll(source, chunk: 1024), "head\r\nmiddle\r\ntail")
    }

    func testALengthIsUnknownWhenAPartsIs() throws {
        final class Unknown: BodySource {
            var length: UInt64? { nil }
            func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { 0 }
            func rewind() throws {}
        }
        XCTAssertNil(ConcatenatedBodySource([BytesBodySource([1]), Unknown()]).length)
        XCTAssertEqual(ConcatenatedBodySource([]).length, 0)
    }
}
