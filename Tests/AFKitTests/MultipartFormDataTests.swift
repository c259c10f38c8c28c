import AFCurl
import AFKit
import Foundation
import XCTest

/// The multipart body byte for byte: spec vectors M1 and M2 and more, with every expected body
/// written out here from the layout in spec/AFNETWORKING.md §4, never produced by the code under test.
final class MultipartFormDataTests: TemporaryDirectoryTestCase {
    /// The fixed boundary the spec's vectors use.
    static let boundary = "Boundary+0123456789ABCDEF"

    /// A form with the spec's boundary and no system MIME table (the built-in one is stable).
    private func makeForm() throws -> MultipartFormData {
        try MultipartFormData(boundary: Self.boundary, mimeTypes: MIMETypeTable(systemFile: nil))
    }

    // MARK: - Spec vectors

    func testM1SingleField() throws {
        var form = try makeForm()
        try form.append(field: "foo", value: "bar")
        let expected = bytes(
            "--Boundary+0123456789ABCDEF\r\n" + "Content-Disposition: form-data; name=\"foo\"\r\n" + "\r\n" + "bar"
                + "\r\n--Boundary+0123456789ABCDEF--\r\n")
        XCTAssertEqual(expected.count, 111)
        XCTAssertEqual(form.contentLength, 111)
        XCTAssertEqual(try readAll(form.makeBodySource()), expected)
        XCTAssertEqual(form.inMemoryBytes, expected)
        XCTAssertEqual(form.contentType, "multipart/form-data; boundary=Boundary+0123456789ABCDEF")
    }

    func testM2FieldThenFileData() throws {
        var form = try makeForm()
        try form.append(field: "key", value: "value")
        try form.append(data: bytes("Data"), name: "DataName", filename: "DataFileName", contentType: "data")
        let expected = bytes(
            "--Boundary+0123456789ABCDEF\r\n" + "Content-Disposition: form-data; name=\"key\"\r\n\r\n" + "value"
                + "\r\n--Boundary+0123456789ABCDEF\r\n"
                + "Content-Disposition: form-data; name=\"DataName\"; filename=\"DataFileName\"\r\n"
                + "Content-Type: data\r\n\r\n" + "Data" + "\r\n--Boundary+0123456789ABCDEF--\r\n")
        XCTAssertEqual(expected.count, 244)
        XCTAssertEqual(form.contentLength, 244)
        for chunk in [1, 7, 64, 4096] {
            XCTAssertEqual(try readAll(form.makeBodySource(), chunk: chunk), expected, "chunk \(chunk)")
        }
    }

    // MARK: - More layouts

    func testSeveralFilesUnderOneFieldAreRepeatedParts() throws {
        let a = try makeFile("a.jpg", bytes("AAA"))
        let b = try makeFile("b.jpg", bytes("BB"))
        let c = try makeFile("c.txt", bytes("C\n"))
        var form = try makeForm()
        try form.append(field: "title", value: "Beach")
        for path in [a, b, c] { try form.append(fileAt: path, name: "files") }
        let delimiter = "\r\n--Boundary+0123456789ABCDEF\r\n"
        let expected = bytes(
            "--Boundary+0123456789ABCDEF\r\n" + "Content-Disposition: form-data; name=\"title\"\r\n\r\nBeach"
                + delimiter + "Content-Disposition: form-data; name=\"files\"; filename=\"a.jpg\"\r\n"
                + "Content-Type: image/jpeg\r\n\r\nAAA"
                + delimiter + "Content-Disposition: form-data; name=\"files\"; filename=\"b.jpg\"\r\n"
                + "Content-Type: image/jpeg\r\n\r\nBB"
                + delimiter + "Content-Disposition: form-data; name=\"files\"; filename=\"c.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nC\n" + "\r\n--Boundary+0123456789ABCDEF--\r\n")
        XCTAssertEqual(form.contentLength, UInt64(expected.count))
        XCTAssertNil(form.inMemoryBytes)
        XCTAssertEqual(try readAll(form.makeBodySource(), chunk: 5), expected)
        XCTAssertEqual(try readAll(form.makeBodySource(), chunk: 65536), expected)
    }

    func testExplicitTypeAndFilename() throws {
        let path = try makeFile("report.bin", bytes("%PDF"))
        var form = try makeForm()
        try form.append(fileAt: path, name: "doc", filename: "q3.pdf", contentType: "application/pdf")
        let expected = bytes(
            "--Boundary+0123456789ABCDEF\r\n"
                + "Content-Disposition: form-data; name=\"doc\"; filename=\"q3.pdf\"\r\n"
                + "Content-Type: application/pdf\r\n\r\n%PDF\r\n--Boundary+0123456789ABCDEF--\r\n")
        XCTAssertEqual(try readAll(form.makeBodySource()), expected)
    }

    func testUnknownExtensionIsOctetStream() throws {
        let path = try makeFile("blob.qqq", [0, 1, 2])
        var form = try makeForm()
        try form.append(fileAt: path, name: "f")
        XCTAssertEqual(form.parts.first?.contentType, "application/octet-stream")
        XCTAssertEqual(form.parts.first?.filename, "blob.qqq")
    }

    func testNonASCIINamesAreWrittenAsUTF8Unescaped() throws {
        let path = try makeFile("naïve café.txt", bytes("x"))
        var form = try makeForm()
        try form.append(field: "José", value: "ünï 😀")
        try form.append(fileAt: path, name: "фото")
        let expected = bytes(
            "--Boundary+0123456789ABCDEF\r\n" + "Content-Disposition: form-data; name=\"José\"\r\n\r\nünï 😀"
                + "\r\n--Boundary+0123456789ABCDEF\r\n"
                + "Content-Disposition: form-data; name=\"фото\"; filename=\"naïve café.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nx" + "\r\n--Boundary+0123456789ABCDEF--\r\n")
        XCTAssertEqual(form.contentLength, UInt64(expected.count))
        XCTAssertEqual(try readAll(form.makeBodySource()), expected)
    }

    func testEmptyFileAndEmptyField() throws {
        let path = try makeFile("empty.txt", [])
        var form = try makeForm()
        try form.append(field: "n", value: "")
        try form.append(fileAt: path, name: "f")
        let expected = bytes(
            "--Boundary+0123456789ABCDEF\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n"
                + "\r\n--Boundary+0123456789ABCDEF\r\n"
                + "Content-Disposition: form-data; name=\"f\"; filename=\"empty.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n" + "\r\n--Boundary+0123456789ABCDEF--\r\n")
        XCTAssertEqual(form.contentLength, UInt64(expected.count))
        XCTAssertEqual(try readAll(form.makeBodySource(), chunk: 3), expected)
    }

    func testFileLargerThanAnyBufferStreamsExactly() throws {
        // 3 MiB + 5 bytes of a pattern that repeats every 251 bytes, so misplaced chunks show.
        let contents = (0..<(3 * 1024 * 1024 + 5)).map { UInt8($0 % 251) }
        let path = try makeFile("big.bin", contents)
        var form = try makeForm()
        try form.append(field: "a", value: "1")
        try form.append(fileAt: path, name: "big")
        let head = bytes(
            "--Boundary+0123456789ABCDEF\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1"
                + "\r\n--Boundary+0123456789ABCDEF\r\n"
                + "Content-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n")
        let expected = head + contents + bytes("\r\n--Boundary+0123456789ABCDEF--\r\n")
        XCTAssertEqual(form.contentLength, UInt64(expected.count))
        let source = form.makeBodySource()
        XCTAssertEqual(source.length, UInt64(expected.count))
        XCTAssertEqual(try readAll(source, chunk: 65536), expected)
        try source.rewind()
        XCTAssertEqual(try readAll(source, chunk: 100_003), expected)
    }

    func testStreamPartHasNoLengthAndIsReadOnce() throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("from stdin\n".utf8))
        try pipe.fileHandleForWriting.close()
        var form = try makeForm()
        try form.append(field: "k", value: "v")
        try form.append(
            stream: StandardInputBodySource(fileDescriptor: pipe.fileHandleForReading.fileDescriptor), path: "-",
            name: "upload", filename: "-")
        XCTAssertNil(form.contentLength)
        let source = form.makeBodySource()
        XCTAssertNil(source.length)
        let expected = bytes(
            "--Boundary+0123456789ABCDEF\r\nContent-Disposition: form-data; name=\"k\"\r\n\r\nv"
                + "\r\n--Boundary+0123456789ABCDEF\r\n"
                + "Content-Disposition: form-data; name=\"upload\"; filename=\"-\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\nfrom stdin\n"
                + "\r\n--Boundary+0123456789ABCDEF--\r\n")
        XCTAssertEqual(try readAll(source, chunk: 4096), expected)
        // The first chunk of standard input is kept, so a rewind before more was read replays it.
        try source.rewind()
        XCTAssertEqual(try readAll(source, chunk: 4096), expected)
    }

    func testPreviewReplacesFileContentsAndStreams() throws {
        let path = try makeFile("a.bin", [1, 2, 3, 4])
        var form = try makeForm()
        try form.append(fileAt: path, name: "f")
        try form.append(
            stream: StandardInputBodySource(fileDescriptor: -1), path: "-", name: "s", filename: "-",
            contentType: "text/csv")
        let head =
            "--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"f\"; filename=\"a.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        let middle =
            "\r\n--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"s\"; filename=\"-\"\r\nContent-Type: text/csv\r\n\r\n"
            + "[streamed from standard input, not shown]" + "\r\n--Boundary+0123456789ABCDEF--\r\n"
        let hidden = form.makeBodySource(rendering: .preview(showsFileContents: false))
        XCTAssertEqual(try readAll(hidden), bytes(head + "[4 bytes of file data not shown]" + middle))
        let shown = form.makeBodySource(rendering: .preview(showsFileContents: true))
        XCTAssertEqual(try readAll(shown), bytes(head) + [1, 2, 3, 4] + bytes(middle))
    }

    // MARK: - Refusals

    func testNamesWithQuotesOrLineBreaksAreRefused() throws {
        var form = try makeForm()
        for name in ["a\"b", "a\rb", "a\nb"] {
            XCTAssertThrowsError(try form.append(field: name, value: "x")) { error in
                XCTAssertEqual(
                    error as? SerializationError,
                    .invalidPartName(name, field: nil, reason: "names cannot contain \", CR or LF"))
            }
        }
        assertSerializationError(
            try form.append(data: [], name: "f", filename: "x\"y.png", contentType: "image/png"),
            .invalidPartName("x\"y.png", field: "f", reason: "names cannot contain \", CR or LF"),
            description: "invalid file name \"x\\\"y.png\" for the field \"f\": names cannot contain \", CR or LF "
                + "(;filename= sets another)")
        let quoted = try makeFile("say \"hi\".txt", bytes("hi"))
        XCTAssertThrowsError(try form.append(fileAt: quoted, name: "f"))
        XCTAssertNoThrow(try form.append(fileAt: quoted, name: "f", filename: "hi.txt"))
    }

    func testMissingDirectoryAndUnwritableTypeAreRefused() throws {
        var form = try makeForm()
        let missing = directory.appendingPathComponent("missing.png").path
        assertSerializationError(
            try form.append(fileAt: missing, name: "f"),
            .unreadable(path: missing, reason: "no such file or directory"),
            description: "cannot read \"\(missing)\": no such file or directory")
        assertSerializationError(
            try form.append(fileAt: directory.path, name: "f"),
            .unreadable(path: directory.path, reason: "is a directory"),
            description: "cannot read \"\(directory.path)\": is a directory")
        let path = try makeFile("a.txt", bytes("a"))
        assertSerializationError(
            try form.append(fileAt: path, name: "f", contentType: "text/plain\r\nX-Evil: 1"),
            .invalidPartContentType("text/plain\r\nX-Evil: 1", field: "f"),
            description: "invalid content type \"text/plain\\r\\nX-Evil: 1\" for the field \"f\"")
        XCTAssertTrue(form.parts.isEmpty)
    }

    func testInvalidBoundaryIsRefused() {
        assertSerializationError(
            try MultipartFormData(boundary: "has\"quote"),
            .invalidBoundary(
                "has\"quote", reason: "may only contain letters, digits, space and '()+_,-./:=? (RFC 2046)"),
            description: "invalid multipart boundary \"has\\\"quote\": may only contain letters, digits, space "
                + "and '()+_,-./:=? (RFC 2046)")
    }

    // MARK: - Helpers

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
}
