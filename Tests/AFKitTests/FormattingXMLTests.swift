import AFKit
import XCTest

/// Byte-exact vectors for the XML formatter (libxml2's push parser through CXMLShim): layout,
/// escaping, declarations, namespaces, and malformed input printed as received.
final class FormattingXMLTests: XCTestCase {
    private func format(
        _ input: [UInt8], options: XMLFormatOptions = XMLFormatOptions(), chunk: Int? = nil, threaded: Bool = true
    ) throws -> (String, [String]) {
        let sink = CollectingSink()
        let formatter = XMLStreamFormatter(options: options, sink: sink, threaded: threaded)
        let warnings = try feed(input, to: formatter, chunk: chunk)
        return (String(decoding: sink.bytes, as: UTF8.self), warnings)
    }

    private func format(_ input: String, chunk: Int? = nil, threaded: Bool = true) throws -> (String, [String]) {
        try format(Array(input.utf8), chunk: chunk, threaded: threaded)
    }

    func testDocumentIsIndentedByTwo() throws {
        let input =
            #"<?xml version="1.0" encoding="UTF-8"?><!-- top --><root a="1" b="x &amp; &lt;y&gt; &quot;q&quot;">"#
            + "<child>text &amp; more &lt;b&gt;</child><empty/><e2></e2><?pi data?><c><![CDATA[<raw> & ]]></c>"
            + "<mixed>one <b>two</b> three</mixed></root>"
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- top -->
            <root a="1" b="x &amp; &lt;y&gt; &quot;q&quot;">
              <child>text &amp; more &lt;b&gt;</child>
              <empty/>
              <e2/>
              <?pi data?>
              <c><![CDATA[<raw> & ]]></c>
              <mixed>one <b>two</b> three</mixed>
            </root>

            """
        for threaded in [true, false] {
            let (output, warnings) = try format(input, threaded: threaded)
            XCTAssertEqual(output, expected)
            XCTAssertEqual(warnings, [])
            XCTAssertEqual(try format(input, chunk: 1, threaded: threaded).0, expected)
        }
    }

    func testExistingIndentationIsReplaced() throws {
        let input = "<a>\n    <b>x</b>\n\t<c>\n  <d/>\n  </c>\n</a>\n"
        XCTAssertEqual(try format(input).0, "<a>\n  <b>x</b>\n  <c>\n    <d/>\n  </c>\n</a>\n")
    }

    func testTextKeepsItsSpacesAndEntitiesAreReEscaped() throws {
        XCTAssertEqual(try format("<a>  x  y  </a>").0, "<a>  x  y  </a>\n")
        XCTAssertEqual(try format("<a>caf&#233; &#x4E2D; 1 &gt; 0</a>").0, "<a>café 中 1 &gt; 0</a>\n")
    }

    func testNamespacesAndAttributesKeepTheirPrefixes() throws {
        let input = #"<a xmlns="urn:a" xmlns:p="urn:p"><p:b p:c="1" d='2'/></a>"#
        XCTAssertEqual(try format(input).0, "<a xmlns=\"urn:a\" xmlns:p=\"urn:p\">\n  <p:b p:c=\"1\" d=\"2\"/>\n</a>\n")
    }

    func testDoctypeIsKept() throws {
        let input =
            #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#
            + #"<plist version="1.0"><dict><key>a</key><string>b</string></dict></plist>"#
        XCTAssertEqual(
            try format(input).0,
            #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#
                + "\n<plist version=\"1.0\">\n  <dict>\n    <key>a</key>\n    <string>b</string>\n  </dict>\n</plist>\n"
        )
    }

    func testOtherEncodingsComeOutAsUTF8() throws {
        let input = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><a>caf"#.utf8) + [0xE9] + Array("</a>".utf8)
        XCTAssertEqual(try format(input).0, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>café</a>\n")
    }

    func testColours() throws {
        var colors = SyntaxColors()
        colors.tag = StaticBytes("<T>")
        colors.attributeName = StaticBytes("<N>")
        colors.attributeValue = StaticBytes("<V>")
        colors.comment = StaticBytes("<C>")
        colors.reset = StaticBytes("</>")
        let (output, _) = try format(
            Array(#"<a k="v"><!--c--><b>t</b></a>"#.utf8), options: XMLFormatOptions(colors: colors))
        XCTAssertEqual(
            output,
            "<T><a</> <N>k</>=<V>\"v\"</><T>></>\n  <C><!--c--></>\n  <T><b</><T>></>t<T></b></>\n<T></a></>\n")
    }

    func testPreservedLayoutKeepsWhiteSpaceAndAddsNone() throws {
        let input = "<?xml version=\"1.0\"?>\n<a>\n  <b x='1'>t</b>\n  <c></c>\n</a>\n"
        let (output, _) = try format(Array(input.utf8), options: XMLFormatOptions(preservesLayout: true))
        XCTAssertEqual(output, "<?xml version=\"1.0\"?>\n<a>\n  <b x=\"1\">t</b>\n  <c/>\n</a>\n")
    }

    func testEmptyBodyPrintsNothing() throws {
        XCTAssertEqual(try format("").0, "")
        XCTAssertEqual(try format("").1, [])
    }

    func testMalformedInputIsPrintedAsReceived() throws {
        for input in ["<a><b></a>", "<a>text", "not xml at all", "<a b=1/>", "<a></a><b/>"] {
            for threaded in [true, false] {
                let (output, warnings) = try format(input, threaded: threaded)
                XCTAssertEqual(output, input)
                XCTAssertEqual(warnings.count, 1, input)
                XCTAssertTrue(warnings[0].hasPrefix("malformed XML (line 1, column "), warnings[0])
                XCTAssertTrue(warnings[0].hasSuffix("); the rest is shown as received"), warnings[0])
            }
        }
    }

    func testErrorAfterOutputWasWrittenKeepsTheFormattedPartAndCopiesTheRest() throws {
        let count = 40_000
        let input = "<r>" + String(repeating: "<i>1</i>", count: count) + "<x></y>tail"
        let expected = "<r>" + String(repeating: "\n  <i>1</i>", count: count) + "\n  <x" + "></y>tail"
        for threaded in [true, false] {
            let (output, warnings) = try format(input, chunk: 16384, threaded: threaded)
            XCTAssertEqual(output, expected)
            XCTAssertEqual(warnings.count, 1)
        }
    }
}
