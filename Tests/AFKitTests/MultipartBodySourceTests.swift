import AFCurl
import AFKit
import Foundation
import XCTest

/// Streaming behaviour of multipart bodies: files that change size, throttling, boundaries and
/// the MIME table.
final class MultipartBodySourceTests: TemporaryDirectoryTestCase {
    private func append(_ contents: [UInt8], to path: String) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(contents))
        try handle.close()
    }

    private func read(_ source: BodySource, chunk: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: chunk)
        let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        return Array(buffer[0..<count])
    }

    private func readAll(_ source: BodySource, chunk: Int = 4096) throws -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let piece = try read(source, chunk: chunk)
            if piece.isEmpty { return result }
            result += piece
        }
    }

    private func form(_ path: String) throws -> MultipartFormData {
        var form = try MultipartFormData(boundary: "B", mimeTypes: MIMETypeTable(systemFile: nil))
        try form.append(fileAt: path, name: "f")
        return form
    }

    // MARK: - Files that change

    func testFileThatGrewBeforeItWasOpenedIsRefused() throws {
        let path = try makeFile("a.bin", [UInt8](repeating: 1, count: 100))
        let source = try form(path).makeBodySource()
        try append([2], to: path)
        XCTAssertThrowsError(try readAll(source)) { error in
            XCTAssertEqual(error as? SerializationError, .fileChangedSize(path: path))
            XCTAssertEqual("\(error)", "\"\(path)\" changed size while it was being sent")
        }
    }

    func testFileThatGrowsWhileBeingReadIsRefused() throws {
        let path = try makeFile("a.bin", [UInt8](repeating: 1, count: 10_000))
        let source = try form(path).makeBodySource()
        _ = try read(source, chunk: 1000)  // headers and the file's first bytes: the file is open
        try append([UInt8](repeating: 2, count: 10), to: path)
        XCTAssertThrowsError(try readAll(source, chunk: 1000)) { error in
            XCTAssertEqual(error as? SerializationError, .fileChangedSize(path: path))
        }
    }

    func testFileThatShrinksWhileBeingReadIsRefused() throws {
        let path = try makeFile("a.bin", [UInt8](repeating: 1, count: 10_000))
        let source = try form(path).makeBodySource()
        _ = try read(source, chunk: 1000)
        XCTAssertEqual(truncate(path, 5000), 0)
        XCTAssertThrowsError(try readAll(source, chunk: 1000)) { error in
            XCTAssertEqual(error as? SerializationError, .fileChangedSize(path: path))
        }
    }

    func testFileGrowingOnTheLastByteIsNoticedWithExactBuffers() throws {
        // The buffer ends exactly where the file does, so growth must be caught by the next read.
        let path = try makeFile("a.bin", [UInt8](repeating: 1, count: 10))
        let form = try form(path)
        let source = form.makeBodySource()
        let headerLength = 3 + 2 + form.parts[0].headerBytes.count  // "--B\r\n" + headers
        XCTAssertEqual(try read(source, chunk: headerLength + 10).count, headerLength + 10)
        try append([9], to: path)
        XCTAssertThrowsError(try readAll(source))
    }

    func testRewindRestartsFromTheFirstByte() throws {
        let path = try makeFile("a.bin", (0..<5000).map { UInt8($0 % 256) })
        let source = try form(path).makeBodySource()
        let whole = try readAll(source, chunk: 999)
        try source.rewind()
        _ = try read(source, chunk: 300)
        try source.rewind()
        XCTAssertEqual(try readAll(source, chunk: 4096), whole)
        XCTAssertEqual(UInt64(whole.count), source.length)
    }

    // MARK: - Throttling

    func testThrottleParsing() {
        XCTAssertEqual(UploadThrottle(parsing: "3g"), .packets(size: 16384, delay: 0.2))
        XCTAssertEqual(UploadThrottle(parsing: "3G"), .threeG)
        XCTAssertEqual(UploadThrottle(parsing: "500k"), .rate(bytesPerSecond: 512_000))
        XCTAssertEqual(UploadThrottle(parsing: "2M"), .rate(bytesPerSecond: 2_097_152))
        XCTAssertEqual(UploadThrottle(parsing: "1000"), .rate(bytesPerSecond: 1000))
        for bad in ["", "k", "0", "-1", "1.5k", "4g", "10x", "99999999999999999999"] {
            XCTAssertNil(UploadThrottle(parsing: bad), bad)
        }
    }

    func testPacketThrottleGivesSmallPacketsWithPauses() throws {
        let source = ThrottledBodySource(
            BytesBodySource(bytes("abcdefghijkl")), throttle: .packets(size: 4, delay: 0.05))
        let start = Date()
        var packets: [[UInt8]] = []
        while true {
            let packet = try read(source, chunk: 1000)
            if packet.isEmpty { break }
            packets.append(packet)
        }
        XCTAssertEqual(packets, [bytes("abcd"), bytes("efgh"), bytes("ijkl")])
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.14)
        XCTAssertEqual(source.length, 12)
    }

    func testRateThrottlePacesAgainstTheClock() throws {
        let source = ThrottledBodySource(
            BytesBodySource([UInt8](repeating: 7, count: 300)), throttle: .rate(bytesPerSecond: 1000))
        let start = Date()
        let all = try readAll(source, chunk: 65536)
        XCTAssertEqual(all.count, 300)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.28)
        try source.rewind()
        XCTAssertEqual(try read(source, chunk: 65536).count, 100)
    }

    // MARK: - Boundaries

    func testRandomBoundaryHasAFsShape() {
        let first = MultipartBoundary.random()
        let second = MultipartBoundary.random()
        XCTAssertNotEqual(first, second)
        for boundary in [first, second] {
            XCTAssertEqual(boundary.count, 25)
            XCTAssertTrue(boundary.hasPrefix("Boundary+"))
            XCTAssertTrue(boundary.dropFirst(9).allSatisfy { "0123456789ABCDEF".contains($0) }, boundary)
        }
        XCTAssertEqual(MultipartBoundary.make(0x0123_4567_89AB_CDEF), "Boundary+0123456789ABCDEF")
        XCTAssertEqual(MultipartBoundary.make(0xFF), "Boundary+00000000000000FF")
    }

    func testBoundaryRules() {
        XCTAssertNil(MultipartBoundary.problem(with: "Boundary+0123456789ABCDEF"))
        XCTAssertNil(MultipartBoundary.problem(with: "a b'()+_,-./:=?"))
        XCTAssertEqual(MultipartBoundary.problem(with: ""), "is empty")
        XCTAssertEqual(
            MultipartBoundary.problem(with: String(repeating: "x", count: 71)),
            "is longer than 70 characters (RFC 2046)")
        XCTAssertNotNil(MultipartBoundary.problem(with: "a\"b"))
        XCTAssertNotNil(MultipartBoundary.problem(with: "é"))
        XCTAssertEqual(MultipartBoundary.problem(with: "ends "), "must not end with a space (RFC 2046)")
        XCTAssertEqual(MultipartBoundary.parameter(inContentType: "multipart/mixed; boundary=\"x y\""), "x y")
        XCTAssertEqual(MultipartBoundary.parameter(inContentType: "multipart/form-data;BOUNDARY=abc"), "abc")
        XCTAssertNil(MultipartBoundary.parameter(inContentType: "multipart/form-data"))
    }

    // MARK: - MIME types

    func testBuiltInTable() {
        let table = MIMETypeTable(systemFile: nil)
        XCTAssertEqual(table.type(forPath: "img.png"), "image/png")
        XCTAssertEqual(table.type(forPath: "/a/b/PHOTO.JPG"), "image/jpeg")
        XCTAssertEqual(table.type(forPath: "doc.pdf"), "application/pdf")
        XCTAssertEqual(table.type(forPath: "noext"), "application/octet-stream")
        XCTAssertEqual(table.type(forPath: ".bashrc"), "application/octet-stream")
        XCTAssertEqual(table.type(forPath: "x.unknownext"), "application/octet-stream")
        XCTAssertEqual(MIMETypeTable.pathExtension(of: "dir.d/file"), nil)
        XCTAssertEqual(MIMETypeTable.pathExtension(of: "a.tar.GZ"), "gz")
        XCTAssertEqual(MIMETypeTable.pathExtension(of: "a/b.PNG//"), "png")
        XCTAssertEqual(MIMETypeTable.pathExtension(of: "x/.bashrc"), nil)
        XCTAssertEqual(MIMETypeTable.pathExtension(of: "x/..bashrc"), "bashrc")
        XCTAssertEqual(MIMETypeTable.pathExtension(of: "name."), nil)
        XCTAssertEqual(MIMETypeTable.pathExtension(of: "dïr/fïlé.JPG"), "jpg")
        XCTAssertEqual(MIMETypeTable.pathExtension(of: "été.ÉTÉ"), "été")
        XCTAssertEqual(MIMETypeTable.pathExtension(of: ""), nil)
        XCTAssertEqual(MIMETypeTable.pathExtension(of: "/"), nil)
    }

    func testSystemTableComesFirst() throws {
        let path = try makeFile(
            "mime.types",
            bytes(
                "# comment\nimage/x-test\tpng  tst\n\napplication/x-first  dup\napplication/x-second dup # trailing\n"))
        let table = MIMETypeTable(systemFile: path)
        XCTAssertEqual(table.type(forPath: "a.png"), "image/x-test")
        XCTAssertEqual(table.type(forPath: "a.TST"), "image/x-test")
        XCTAssertEqual(table.type(forPath: "a.dup"), "application/x-first")
        XCTAssertEqual(table.type(forPath: "a.jpg"), "image/jpeg")
        XCTAssertEqual(MIMETypeTable(systemFile: "/nonexistent/mime.types").type(forPath: "a.png"), "image/png")
    }
}
