import AFKit
import XCTest

/// Image headers (dimensions from PNG, JPEG, GIF, BMP, ICO, TIFF and WebP), the summary line, and
/// charset conversion for terminal display.
final class FormattingImageTests: XCTestCase {
    func testHeaders() {
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [0, 0, 2, 0x80, 0, 0, 1, 0xE0, 8, 6, 0, 0, 0]
        XCTAssertEqual(ImageHeader.parse(png), ImageHeader(format: "PNG", width: 640, height: 480))
        let gif = Array("GIF89a".utf8) + [0x0A, 0x00, 0x14, 0x00]
        XCTAssertEqual(ImageHeader.parse(gif), ImageHeader(format: "GIF", width: 10, height: 20))
        var bmp =
            Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0] + [3, 0, 0, 0] + [
                0xFE, 0xFF, 0xFF, 0xFF,
            ]
        bmp += [1, 0, 24, 0]
        XCTAssertEqual(ImageHeader.parse(bmp), ImageHeader(format: "BMP", width: 3, height: 2))
        let ico: [UInt8] =
            [0, 0, 1, 0, 2, 0] + [16, 16] + [UInt8](repeating: 0, count: 14) + [0, 0] + [UInt8](repeating: 0, count: 14)
        XCTAssertEqual(ImageHeader.parse(ico), ImageHeader(format: "ICO", width: 256, height: 256))
        // SOI, an APP0 segment of 16 bytes, then SOF0 with height 0x0100 and width 0x0200.
        let jpeg: [UInt8] =
            [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + [UInt8](repeating: 0, count: 14)
            + [0xFF, 0xC0, 0, 17, 8, 0x01, 0x00, 0x02, 0x00, 3]
        XCTAssertEqual(ImageHeader.parse(jpeg), ImageHeader(format: "JPEG", width: 512, height: 256))
        let tiff: [UInt8] =
            Array("II*\0".utf8) + [8, 0, 0, 0] + [2, 0]
            + [0, 1, 3, 0, 1, 0, 0, 0, 0x2C, 0x01, 0, 0] + [1, 1, 4, 0, 1, 0, 0, 0, 0xC8, 0, 0, 0]
        XCTAssertEqual(ImageHeader.parse(tiff), ImageHeader(format: "TIFF", width: 300, height: 200))
        let webp =
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [UInt8](repeating: 0, count: 8)
            + [0x3F, 0x01, 0x00, 0xC7, 0x00, 0x00]
        XCTAssertEqual(ImageHeader.parse(webp), ImageHeader(format: "WebP", width: 320, height: 200))
        XCTAssertNil(ImageHeader.parse(Array("hello".utf8)))
        XCTAssertEqual(ImageHeader.parse([0xFF, 0xD8, 0xFF]), ImageHeader(format: "JPEG"))
    }

    func testSummaryLine() throws {
        XCTAssertEqual(
            ImageSummaryFormatter.line(
                header: ImageHeader(format: "PNG", width: 640, height: 480), mediaType: "image/png", size: 15234),
            "PNG image, 640 × 480, 15 234 bytes")
        XCTAssertEqual(
            ImageSummaryFormatter.line(header: nil, mediaType: "image/x-foo", size: 1), "image/x-foo, 1 byte")
        let sink = CollectingSink()
        let formatter = ImageSummaryFormatter(mediaType: "image/gif", sink: sink)
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0] + [UInt8](repeating: 7, count: 1_000_000)
        try feed(gif, to: formatter, chunk: 65536)
        XCTAssertEqual(String(decoding: sink.bytes, as: UTF8.self), "GIF image, 1 × 1, 1 000 010 bytes\n")
    }

    func testCharsetConversion() throws {
        XCTAssertNil(CharsetConverter(charset: "utf-8"))
        XCTAssertNil(CharsetConverter(charset: "no-such-charset"))
        let latin1 = try XCTUnwrap(CharsetConverter(charset: "ISO-8859-1"))
        XCTAssertEqual(
            ([0x63, 0x61, 0x66, 0xE9] as [UInt8]).withUnsafeBytes { latin1.convert($0) }, Array("café".utf8))
        // "中文" in GBK is D6 D0 CE C4; split inside the second character.
        let gbk = try XCTUnwrap(CharsetConverter(charset: "GBK"))
        var output = ([0xD6, 0xD0, 0xCE] as [UInt8]).withUnsafeBytes { gbk.convert($0) }
        output += ([0xC4] as [UInt8]).withUnsafeBytes { gbk.convert($0, final: true) }
        XCTAssertEqual(String(decoding: output, as: UTF8.self), "中文")
        let broken = try XCTUnwrap(CharsetConverter(charset: "GBK"))
        XCTAssertEqual(
            String(
                decoding: ([0x41, 0xD6] as [UInt8]).withUnsafeBytes { broken.convert($0, final: true) }, as: UTF8.self),
            "A\u{FFFD}")
    }
}
