import AFKit
import XCTest

/// Control characters from the network are shown as `\xHH` on a terminal; tabs, line feeds,
/// CR LF and (when a formatter colours) SGR colour sequences pass.
final class TerminalEscaperTests: XCTestCase {
    private func escape(_ input: [UInt8], colors: Bool = false, chunk: Int? = nil) throws -> String {
        var escaper = TerminalEscaper(passesColorSequences: colors)
        var out: [UInt8] = []
        let size = chunk ?? max(input.count, 1)
        var start = 0
        while start < input.count {
            let end = min(start + size, input.count)
            try input[start..<end].withUnsafeBytes { chunk in try escaper.escape(chunk) { out += $0 } }
            start = end
        }
        try escaper.finish { out += $0 }
        return String(decoding: out, as: UTF8.self)
    }

    func testControlsAreShownEscaped() throws {
        XCTAssertEqual(try escape(Array("a\u{1B}]0;title\u{07}b\u{1B}[2Jc".utf8)), #"a\x1b]0;title\x07b\x1b[2Jc"#)
        XCTAssertEqual(try escape([0x00, 0x08, 0x7F, 0x41]), #"\x00\x08\x7fA"#)
    }

    func testTabsLineFeedsAndCRLFPass() throws {
        XCTAssertEqual(try escape(Array("a\tb\nc\r\nd".utf8)), "a\tb\nc\r\nd")
        XCTAssertEqual(try escape(Array("over\rwrite\r".utf8)), #"over\x0dwrite\x0d"#)
    }

    func testC1ControlsInUTF8AreEscapedAndOtherTextPasses() throws {
        XCTAssertEqual(try escape(Array("\u{9B}2J é ©".utf8)), #"\x9b2J é ©"#)
    }

    func testSplitsAcrossChunksDoNotMatter() throws {
        let input = Array("x\r\ny\u{9B}\u{1B}[31mred\u{1B}[0m\rz\u{1B}]0;t\u{07}".utf8)
        let whole = try escape(input, colors: true)
        XCTAssertEqual(whole, "x\r\ny\\x9b\u{1B}[31mred\u{1B}[0m\\x0dz\\x1b]0;t\\x07")
        for size in 1...5 { XCTAssertEqual(try escape(input, colors: true, chunk: size), whole, "chunk \(size)") }
    }

    func testColourSequencesPassOnlyWhenAFormatterColours() throws {
        let input = Array("\u{1B}[1;34mkey\u{1B}[0m".utf8)
        XCTAssertEqual(try escape(input, colors: true), "\u{1B}[1;34mkey\u{1B}[0m")
        XCTAssertEqual(try escape(input), #"\x1b[1;34mkey\x1b[0m"#)
        XCTAssertEqual(try escape(Array("\u{1B}[8mhidden\u{1B}[2J".utf8), colors: true), "\u{1B}[8mhidden\\x1b[2J")
    }

    func testHeaderValuesAreEscaped() {
        XCTAssertEqual("\u{1B}]0;title\u{07}".escapingTerminalControls, #"\x1b]0;title\x07"#)
        XCTAssertEqual("plain value".escapingTerminalControls, "plain value")
    }

    func testDiagnosticsStayOnOneLine() {
        XCTAssertEqual("a\nb\r\nc\u{1B}[2J".escapingControlsOnOneLine, #"a\nb\x0d\nc\x1b[2J"#)
        XCTAssertEqual("tab\tand é".escapingControlsOnOneLine, "tab\tand é")
    }

    func testFormattersEscapeWhatTheyShowAsReceived() throws {
        let sink = CollectingSink()
        let formatter = JSONStreamFormatter(options: JSONFormatOptions(escapesControls: true), sink: sink)
        try feed(Array("{\"a\": \"\u{1B}[2J\"}".utf8), to: formatter)
        XCTAssertEqual(String(decoding: sink.bytes, as: UTF8.self), "{\"a\": \"\\x1b[2J\"}")
    }
}
