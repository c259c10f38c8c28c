import AFKit
import XCTest

/// Spec §2 property-list vectors; expected documents are written out by hand.
final class PropertyListWriterTests: XCTestCase {
    private let prologue =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n"

    func testSpecVectorKeyValue() throws {
        let expected =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n\t<key>key</key>\n\t<string>value</string>\n</dict>\n</plist>\n"
        XCTAssertEqual(try PropertyListWriter.encode(object(["key": str("value")])), bytes(expected))
    }

    func testNestedContainersSortedKeysAndEscaping() throws {
        let value = object([
            "d": object(["e": str("f")]),
            "b": .array([num("1"), num("1.5"), .bool(true), .bool(false), str("x<&>\"'")]),
            "c": .array([]), "a": object([:]), "big": num("123456789012345678901234567890"), "exp": num("1e3"),
        ])
        let expected =
            prologue
            + "<dict>\n"
            + "\t<key>a</key>\n"
            + "\t<dict/>\n"
            + "\t<key>b</key>\n"
            + "\t<array>\n"
            + "\t\t<integer>1</integer>\n"
            + "\t\t<real>1.5</real>\n"
            + "\t\t<true/>\n"
            + "\t\t<false/>\n"
            + "\t\t<string>x&lt;&amp;&gt;\"'</string>\n"
            + "\t</array>\n"
            + "\t<key>big</key>\n"
            + "\t<integer>123456789012345678901234567890</integer>\n"
            + "\t<key>c</key>\n"
            + "\t<array/>\n"
            + "\t<key>d</key>\n"
            + "\t<dict>\n"
            + "\t\t<key>e</key>\n"
            + "\t\t<string>f</string>\n"
            + "\t</dict>\n"
            + "\t<key>exp</key>\n"
            + "\t<real>1e3</real>\n"
            + "</dict>\n"
            + "</plist>\n"
        XCTAssertEqual(String(decoding: try PropertyListWriter.encode(value), as: UTF8.self), expected)
    }

    func testTopLevelArrayAndDeepNesting() throws {
        let value = JSONValue.array([.array([object(["k&": .array([str("ü")])])]), object([:])])
        let expected =
            prologue
            + "<array>\n"
            + "\t<array>\n"
            + "\t\t<dict>\n"
            + "\t\t\t<key>k&amp;</key>\n"
            + "\t\t\t<array>\n"
            + "\t\t\t\t<string>ü</string>\n"
            + "\t\t\t</array>\n"
            + "\t\t</dict>\n"
            + "\t</array>\n"
            + "\t<dict/>\n"
            + "</array>\n"
            + "</plist>\n"
        XCTAssertEqual(String(decoding: try PropertyListWriter.encode(value), as: UTF8.self), expected)
    }

    func testEmptyTopLevelDictionary() throws {
        XCTAssertEqual(
            String(decoding: try PropertyListWriter.encode(object([:])), as: UTF8.self),
            prologue + "<dict/>\n</plist>\n")
    }

    func testNullIsRefusedWithKeyPath() {
        assertSerializationError(
            try PropertyListWriter.encode(object(["a": object(["b": .null])])), .propertyListNull(keyPath: "a.b"),
            description: "property lists cannot hold null (at \"a.b\")")
        assertSerializationError(
            try PropertyListWriter.encode(object(["a": .array([num("1"), .null])])),
            .propertyListNull(keyPath: "a[1]"), description: "property lists cannot hold null (at \"a[1]\")")
        assertSerializationError(
            try PropertyListWriter.encode(.null), .propertyListNull(keyPath: ""),
            description: "property lists cannot hold null (at the top level)")
    }

    func testPlistRequestContentType() throws {
        let spec = RequestSpec(
            method: "PUT", url: "http://example.com/doc", parameters: object(["key": str("value")]), encoding: .plist)
        let request = try RequestSerializer.prepare(spec, environment: [:])
        XCTAssertEqual(request.headers.last, HTTPField(name: "Content-Type", value: "application/x-plist"))
        XCTAssertEqual(request.headers.first { $0.name == "Accept" }?.value, "*/*")
        XCTAssertEqual(
            request.bodyBytes,
            bytes(prologue + "<dict>\n\t<key>key</key>\n\t<string>value</string>\n</dict>\n</plist>\n"))
    }

    func testPlistWithoutParametersSendsAnEmptyUntypedBody() throws {
        // AF sets no body without parameters; a PUT still goes out with Content-Length: 0.
        let request = try RequestSerializer.prepare(
            RequestSpec(method: "PUT", url: "http://x/", encoding: .plist), environment: [:])
        XCTAssertEqual(request.body?.length, 0)
        XCTAssertEqual(request.bodyBytes, [])
        XCTAssertFalse(request.headers.contains { $0.name == "Content-Type" })
    }
}
