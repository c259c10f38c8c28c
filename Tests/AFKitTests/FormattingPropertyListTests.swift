import AFKit
import XCTest

/// Property lists: a binary list (made by Python's plistlib) decoded without Foundation, XML
/// lists through the XML path, and both shown as JSON.
final class FormattingPropertyListTests: XCTestCase {
    /// plistlib.dumps({"name": "玩具车", "count": 42, "neg": -7, "big": 2**63+5, "pi": 1.5, "ok": True,
    /// "no": False, "when": datetime(2024, 2, 29, 12, 30, 45), "blob": b"\x00\x01hi",
    /// "list": [1, "two", {"k": "v"}], "empty": {}}, fmt=FMT_BINARY, sort_keys=False)
    static let binaryHex =
        "62706c6973743030db0102030405060708090a0b0c0d0e0f1011121314151b546e616d6555636f756e74536e6567536269675270"
        + "69526f6b526e6f547768656e54626c6f62546c69737455656d7074796373a951778f66102a13fffffffffffffff9140000000000"
        + "0000008000000000000005233ff800000000000009083341c5c8583a8000004400016869a316171810015374776fd1191a516b51"
        + "76d0081f242a2e3235383b40454a50575962737c7d7e878c909296999b9d0000000000000101000000000000001c000000000000"
        + "0000000000000000009e"

    static var binary: [UInt8] {
        var bytes: [UInt8] = []
        var index = binaryHex.startIndex
        while index < binaryHex.endIndex {
            let next = binaryHex.index(index, offsetBy: 2)
            bytes.append(UInt8(binaryHex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    private func show(_ bytes: [UInt8], as display: PropertyListDisplay, chunk: Int = 7) throws -> (String, [String]) {
        let sink = CollectingSink()
        let formatter = PropertyListFormatter(
            display: display, xml: XMLFormatOptions(), json: JSONFormatOptions(layout: .indented(2)), sink: sink)
        let warnings = try feed(bytes, to: formatter, chunk: chunk)
        return (String(decoding: sink.bytes, as: UTF8.self), warnings)
    }

    func testBinaryListDecodes() throws {
        let value = try BinaryPropertyListDecoder.decode(Self.binary)
        XCTAssertEqual(
            value,
            .dictionary([
                ("name", .string("玩具车")), ("count", .integer("42")), ("neg", .integer("-7")),
                ("big", .integer("9223372036854775813")), ("pi", .real("1.5")), ("ok", .boolean(true)),
                ("no", .boolean(false)), ("when", .date("2024-02-29T12:30:45Z")), ("blob", .data([0, 1, 104, 105])),
                ("list", .array([.integer("1"), .string("two"), .dictionary([("k", .string("v"))])])),
                ("empty", .dictionary([])),
            ]))
    }

    func testBinaryListShownAsIndentedXML() throws {
        let (output, warnings) = try show(Self.binary, as: .xml)
        XCTAssertEqual(
            output,
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
              <dict>
                <key>name</key>
                <string>玩具车</string>
                <key>count</key>
                <integer>42</integer>
                <key>neg</key>
                <integer>-7</integer>
                <key>big</key>
                <integer>9223372036854775813</integer>
                <key>pi</key>
                <real>1.5</real>
                <key>ok</key>
                <true/>
                <key>no</key>
                <false/>
                <key>when</key>
                <date>2024-02-29T12:30:45Z</date>
                <key>blob</key>
                <data>AAFoaQ==</data>
                <key>list</key>
                <array>
                  <integer>1</integer>
                  <string>two</string>
                  <dict>
                    <key>k</key>
                    <string>v</string>
                  </dict>
                </array>
                <key>empty</key>
                <dict/>
              </dict>
            </plist>

            """)
        XCTAssertEqual(warnings, [])
    }

    func testBinaryAndXMLListsShownAsJSON() throws {
        let expected = """
            {
              "name": "玩具车",
              "count": 42,
              "neg": -7,
              "big": 9223372036854775813,
              "pi": 1.5,
              "ok": true,
              "no": false,
              "when": "2024-02-29T12:30:45Z",
              "blob": "AAFoaQ==",
              "list": [
                1,
                "two",
                {
                  "k": "v"
                }
              ],
              "empty": {}
            }

            """
        XCTAssertEqual(try show(Self.binary, as: .json).0, expected)
        let xml = try BinaryPropertyListDecoder.decode(Self.binary).xmlDocument
        XCTAssertEqual(try show(xml, as: .json).0, expected)
    }

    func testXMLListStreamsThroughTheXMLFormatter() throws {
        let xml =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array><string>a &amp; b</string><real>2.5</real></array></plist>"#
        XCTAssertEqual(
            try show(Array(xml.utf8), as: .xml).0,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n  <array>\n    <string>a &amp; b</string>\n"
                + "    <real>2.5</real>\n  </array>\n</plist>\n")
    }

    func testDamagedBinaryListIsShownAsReceived() throws {
        var damaged = Self.binary
        damaged[damaged.count - 1] = 0xFF
        let (output, warnings) = try show(damaged, as: .xml)
        XCTAssertEqual(Array(output.utf8.prefix(8)), Array("bplist00".utf8))
        XCTAssertEqual(output.utf8.count, String(decoding: damaged, as: UTF8.self).utf8.count)
        XCTAssertEqual(
            warnings,
            ["cannot read the property list (damaged binary property list trailer); the body is shown as received"])
        for length in [8, 20, 41] {
            XCTAssertThrowsError(try BinaryPropertyListDecoder.decode(Array(Self.binary.prefix(length))))
        }
    }

    func testReferenceCycleIsAnError() throws {
        // One array (object 0) whose only element is itself.
        var bytes = Array("bplist00".utf8) + [0xA1, 0x00]
        let table = bytes.count
        bytes += [0x08]
        bytes +=
            [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
            + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        XCTAssertThrowsError(try BinaryPropertyListDecoder.decode(bytes)) { error in
            XCTAssertEqual("\(error)", "reference cycle")
        }
    }
}
