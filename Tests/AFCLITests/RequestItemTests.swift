import XCTest

@testable import AFCLI
@testable import AFKit

/// The HTTPie item grammar: separators, precedence, escapes, file options and nested keys.
final class RequestItemTests: XCTestCase {
    private func parse(_ text: String) throws -> RequestItem {
        try XCTUnwrap(RequestItem.parse(text), "no separator in \(text)")
    }

    func testEverySeparator() throws {
        let cases: [(String, RequestItem.Kind, String, String)] = [
            ("X-A:1", .header, "X-A", "1"),
            ("X-A;", .emptyHeader, "X-A", ""),
            ("X-A:@f.txt", .headerFromFile, "X-A", "f.txt"),
            ("q==1", .query, "q", "1"),
            ("q==@f.txt", .queryFromFile, "q", "f.txt"),
            ("a=b", .dataString, "a", "b"),
            ("a:=1", .dataJSON, "a", "1"),
            ("a=@f.txt", .dataStringFromFile, "a", "f.txt"),
            ("a:=@f.json", .dataJSONFromFile, "a", "f.json"),
            ("f@x.png", .file, "f", "x.png"),
            ("@body.json", .file, "", "body.json"),
        ]
        for (text, kind, key, value) in cases {
            let item = try parse(text)
            XCTAssertEqual(item.kind, kind, text)
            XCTAssertEqual(item.key, key, text)
            XCTAssertEqual(item.value, value, text)
        }
    }

    func testEarliestSeparatorWinsThenLongest() throws {
        XCTAssertEqual(try parse("a=b:=c").kind, .dataString)
        XCTAssertEqual(try parse("a=b:=c").value, "b:=c")
        XCTAssertEqual(try parse("url==http://x/?a=b").value, "http://x/?a=b")
        XCTAssertEqual(try parse("Host:example.com:8080").value, "example.com:8080")
        XCTAssertNil(RequestItem.parse("plain"))
    }

    func testBackslashEscapesSeparators() throws {
        let item = try parse(#"a\=b=c"#)
        XCTAssertEqual(item.key, "a=b")
        XCTAssertEqual(item.rawKey, #"a\=b"#)
        XCTAssertEqual(try parse(#"x\:y:=1"#).key, "x:y")
        XCTAssertEqual(try parse(#"k=v\=w"#).value, "v=w")
        XCTAssertEqual(try parse(#"k=C:\path"#).value, #"C:\path"#)
    }

    func testNestedKeyPaths() throws {
        XCTAssertEqual(
            try NestedKeyPath.parse("a[b][][3]").steps.map(\.kind),
            [.key("a"), .key("b"), .append, .index(3)])
        XCTAssertTrue(try NestedKeyPath.parse("[]").startsWithArray)
        XCTAssertEqual(try NestedKeyPath.parse(#"a\[b\]"#).steps.map(\.kind), [.key("a[b]")])
        XCTAssertThrowsError(try NestedKeyPath.parse("a[b")) { error in
            XCTAssertEqual((error as? ItemError)?.pointer, "  a[b\n   ^")
        }
    }

    func testParameterTreeBuildsInTypedOrder() throws {
        var builder = ParameterTreeBuilder()
        try builder.add(.string("José"), rawKey: "name")
        try builder.add(.number("41"), rawKey: "age")
        try builder.add(.string("a"), rawKey: "tags[]")
        try builder.add(.string("b"), rawKey: "tags[]")
        try builder.add(.string("Oslo"), rawKey: "address[city]")
        XCTAssertEqual(
            builder.tree,
            .object([
                JSONMember(key: "name", value: .string("José")),
                JSONMember(key: "age", value: .number("41")),
                JSONMember(key: "tags", value: .array([.string("a"), .string("b")])),
                JSONMember(key: "address", value: .object([JSONMember(key: "city", value: .string("Oslo"))])),
            ]))
    }

    func testRepeatedKeyCollectsAndIndexesPad() throws {
        var builder = ParameterTreeBuilder()
        try builder.add(.string("1"), rawKey: "a")
        try builder.add(.string("2"), rawKey: "a")
        XCTAssertEqual(builder.tree, .object([JSONMember(key: "a", value: .array([.string("1"), .string("2")]))]))
        var array = ParameterTreeBuilder()
        try array.add(.string("x"), rawKey: "[2]")
        XCTAssertEqual(array.tree, .array([.null, .null, .string("x")]))
    }

    func testTypeClashPointsAtTheKey() throws {
        var builder = ParameterTreeBuilder()
        try builder.add(.string("1"), rawKey: "a")
        XCTAssertThrowsError(try builder.add(.string("2"), rawKey: "a[b]")) { error in
            guard let error = error as? ItemError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.description, #"cannot use key "b" on "a", which is a string (expected an object)"#)
            XCTAssertEqual(error.pointer, "  a[b]\n   ^^^")
        }
    }
}
