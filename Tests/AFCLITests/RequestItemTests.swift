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

    func testRepeatedKeyLastWinsInJSONAndRepeatsInAForm() throws {
        var builder = ParameterTreeBuilder()
        try builder.add(.string("1"), rawKey: "a")
        try builder.add(.string("x"), rawKey: "b")
        try builder.add(.string("2"), rawKey: "a")
        let tree = try XCTUnwrap(builder.tree)
        XCTAssertEqual(
            try ParameterBodyEncoder.encode(tree, as: .json)?.bytes, Array(#"{"a":"2","b":"x"}"#.utf8))
        XCTAssertEqual(try ParameterBodyEncoder.encode(tree, as: .form)?.bytes, Array("a=1&a=2&b=x".utf8))
        let plist = try XCTUnwrap(ParameterBodyEncoder.encode(tree, as: .plist)?.bytes)
        let text = String(decoding: plist, as: UTF8.self)
        XCTAssertTrue(text.contains("<key>a</key>\n\t<string>2</string>"), text)
        XCTAssertFalse(text.contains("<string>1</string>"), text)
        // A nested key goes into the key's last value.
        var nested = ParameterTreeBuilder()
        try nested.add(.string("1"), rawKey: "o[k]")
        try nested.add(.string("2"), rawKey: "o[k]")
        try nested.add(.string("3"), rawKey: "o[j]")
        let nestedTree = try XCTUnwrap(nested.tree)
        XCTAssertEqual(
            try ParameterBodyEncoder.encode(nestedTree, as: .json)?.bytes, Array(#"{"o":{"k":"2","j":"3"}}"#.utf8))
        XCTAssertEqual(
            try ParameterBodyEncoder.encode(nestedTree, as: .form)?.bytes,
            Array("o%5Bj%5D=3&o%5Bk%5D=1&o%5Bk%5D=2".utf8))
    }

    func testIndexesPadWithNullsUpToTheCap() throws {
        var array = ParameterTreeBuilder()
        try array.add(.string("x"), rawKey: "[2]")
        XCTAssertEqual(array.tree, .array([.null, .null, .string("x")]))
        var largest = ParameterTreeBuilder()
        try largest.add(.string("x"), rawKey: "a[\(NestedKeyPath.maximumArrayIndex)]")
        guard case .object(let members)? = largest.tree, case .array(let elements) = members[0].value else {
            return XCTFail("\(String(describing: largest.tree))")
        }
        XCTAssertEqual(elements.count, NestedKeyPath.maximumArrayIndex + 1)
        for key in ["a[10001]", "a[99999999]", "a[99999999999999999999999999]", "[30000000]"] {
            var builder = ParameterTreeBuilder()
            XCTAssertThrowsError(try builder.add(.string("x"), rawKey: key), key) { error in
                guard let error = error as? ItemError else { return XCTFail("\(error)") }
                XCTAssertTrue(error.description.contains("is larger than 10000"), error.description)
                XCTAssertNotNil(error.pointer)
            }
            XCTAssertNil(builder.tree)
        }
        // Leading zeros do not hide a small index.
        XCTAssertEqual(try NestedKeyPath.parse("a[0000000000000000003]").steps.map(\.kind), [.key("a"), .index(3)])
    }

    func testNestingIsCappedAtTheJSONDepth() throws {
        let deepest = "a" + String(repeating: "[]", count: NestedKeyPath.maximumDepth - 1)
        XCTAssertEqual(try NestedKeyPath.parse(deepest).steps.count, NestedKeyPath.maximumDepth)
        // 40,000 levels overflowed the stack while the tree was built.
        for key in [deepest + "[]", "a" + String(repeating: "[b]", count: 40_000)] {
            var builder = ParameterTreeBuilder()
            XCTAssertThrowsError(try builder.add(.string("1"), rawKey: key)) { error in
                guard let error = error as? ItemError else { return XCTFail("\(error)") }
                XCTAssertTrue(error.description.hasSuffix(": nesting deeper than 512 levels"), error.description)
            }
        }
    }

    func testManyItemsBuildInLinearTime() throws {
        // Each item used to copy and scan its containers: 20,000 of these took about 20 s.
        var builder = ParameterTreeBuilder()
        let start = ContinuousClock.now
        for index in 0..<20_000 {
            try builder.add(.string("1"), rawKey: "a[k\(index)][x]")
            try builder.add(.string("2"), rawKey: "l[]")
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10))
        guard case .object(let members)? = builder.tree, case .object(let keys) = members[0].value,
            case .array(let list) = members[1].value
        else { return XCTFail("unexpected tree") }
        XCTAssertEqual(keys.count, 20_000)
        XCTAssertEqual(
            keys[19_999], JSONMember(key: "k19999", value: .object([JSONMember(key: "x", value: .string("1"))])))
        XCTAssertEqual(list.count, 20_000)
    }

    func testFileOptionsParseInLinearTime() throws {
        // Each option used to rescan and copy the rest of the item: these took 90 s.
        let start = ContinuousClock.now
        var resolver = ItemResolver()
        try resolver.add("f@/etc/hostname" + String(repeating: ";type=a/b", count: 14_000) + ";filename=n;type=c/d")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10))
        XCTAssertEqual(
            resolver.files, [FileItem(field: "f", path: "/etc/hostname", contentType: "c/d", filename: "n")])
    }

    func testFileOptionsAfterSemicolonsOfThePath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("afcli-items-\(getpid())")
        let path = directory.appendingPathComponent("dïr;x;typo=1;b.txt").path
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        var resolver = ItemResolver()
        try resolver.add("f@\(path);type=x/y;filename=n é")
        XCTAssertEqual(resolver.files, [FileItem(field: "f", path: path, contentType: "x/y", filename: "n é")])
    }

    func testRawJSONValueCanBeExtendedByNestedKeys() throws {
        var builder = ParameterTreeBuilder()
        try builder.add(.object([JSONMember(key: "k", value: .array([.number("1")]))]), rawKey: "o")
        try builder.add(.string("x"), rawKey: "o[k][]")
        try builder.add(.string("y"), rawKey: "o[j]")
        XCTAssertEqual(
            try ParameterBodyEncoder.encode(builder.tree, as: .json)?.bytes, Array(#"{"o":{"k":[1,"x"],"j":"y"}}"#.utf8)
        )
        XCTAssertThrowsError(try builder.add(.string("z"), rawKey: "o[k][q]")) { error in
            XCTAssertEqual(
                (error as? ItemError)?.description,
                #"cannot use key "q" on "o[k]", which is an array (expected an object)"#)
        }
        XCTAssertNil(builder.tree)
    }

    func testRandomItemsNeverCrash() throws {
        // Random argument vectors found the empty-name crash within 500 tries; these run 20,000
        // items drawn from the characters the grammar cares about, from a fixed seed.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
        let alphabet = Array("ab[]\\=:@;09 x")
        var builder = ParameterTreeBuilder()
        var accepted = 0
        for round in 0..<20_000 {
            let length = Int(next() % 14)
            let text = String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
            guard let item = RequestItem.parse(text), item.kind == .dataString || item.kind == .dataJSON else {
                continue
            }
            let value: JSONValue = item.kind == .dataJSON ? .number("1") : .string(item.value)
            do {
                try builder.add(value, rawKey: item.rawKey)
                accepted += 1
            } catch {
                XCTAssertFalse(error.description.isEmpty)
            }
            if round % 50 == 0, let tree = builder.tree {
                for encoding in [BodyEncoding.json, .form, .plist] {
                    _ = try? ParameterBodyEncoder.encode(tree, as: encoding)
                }
                builder = ParameterTreeBuilder()
            }
        }
        XCTAssertGreaterThan(accepted, 1000)
    }

    func testEmptyFieldNameIsTheEmptyKey() throws {
        for text in ["=value", ":=1", "=@/etc/hostname", ":=@x.json"] {
            XCTAssertEqual(try parse(text).key, "", text)
        }
        var builder = ParameterTreeBuilder()
        try builder.add(.string("value"), rawKey: "")
        try builder.add(.number("1"), rawKey: "b")
        XCTAssertEqual(
            builder.tree,
            .object([JSONMember(key: "", value: .string("value")), JSONMember(key: "b", value: .number("1"))]))
        XCTAssertEqual(try ParameterBodyEncoder.encode(builder.tree, as: .form)?.bytes, Array("=value&b=1".utf8))
        var clash = ParameterTreeBuilder()
        try clash.add(.string("v"), rawKey: "")
        XCTAssertThrowsError(try clash.add(.string("w"), rawKey: "[0]")) { error in
            XCTAssertNotNil((error as? ItemError)?.pointer)
        }
    }

    func testBackslashStaysBeforeOrdinaryCharactersInAKey() throws {
        let item = try parse(#"a\b=c"#)
        var builder = ParameterTreeBuilder()
        try builder.add(.string("c"), rawKey: item.rawKey)
        XCTAssertEqual(builder.tree, .object([JSONMember(key: #"a\b"#, value: .string("c"))]))
        XCTAssertEqual(try NestedKeyPath.parse(#"a\[b\][x\y]"#).steps.map(\.kind), [.key("a[b]"), .key(#"x\y"#)])
        XCTAssertEqual(try NestedKeyPath.parse(#"a\\b"#).steps.map(\.kind), [.key(#"a\b"#)])
        XCTAssertEqual(try NestedKeyPath.parse(#"C:\dir\n"#).steps.map(\.kind), [.key(#"C:\dir\n"#)])
    }

    func testKeyStartingWithABracketNeedsAnIndex() throws {
        for key in ["[b]", "[b][0]", "[x1]"] {
            XCTAssertThrowsError(try NestedKeyPath.parse(key), key) { error in
                guard let error = error as? ItemError else { return XCTFail("\(error)") }
                XCTAssertTrue(error.description.contains("expected a number or ']'"), error.description)
                XCTAssertEqual(error.pointer, "  \(key)\n   ^")
            }
        }
        XCTAssertEqual(try NestedKeyPath.parse("[0][b]").steps.map(\.kind), [.index(0), .key("b")])
        XCTAssertEqual(try NestedKeyPath.parse("[][b]").steps.map(\.kind), [.append, .key("b")])
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

    func testASCIIArgumentsParseAsCharactersDo() {
        // The byte path for ASCII arguments against the Character path, on every argument of up to
        // five characters drawn from what the grammar cares about (plus `\r\n`, one Character).
        let alphabet: [String] = ["a", "\\", "=", ":", "@", ";", "\r", "\n", "["]
        var level = [""]
        var all: [String] = []
        for _ in 0..<5 {
            level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
            all += level
        }
        XCTAssertGreaterThan(all.count, 60_000)
        for text in all {
            XCTAssertEqual(RequestItem.parse(text), RequestItem.parseCharacters(text), text.debugDescription)
        }
    }
}
