import AFKit
import XCTest

/// Spec §1 vectors (AFQueryStringFromParameters / AFPercentEscapedStringFromString), byte-exact.
final class QueryStringSerializerTests: XCTestCase {
    private let environment = ["LANG": "en_US.UTF-8"]

    private func contentType(_ request: PreparedRequest) -> String? {
        request.headers.first { $0.name == "Content-Type" }?.value
    }

    func testQ1FormBodyWithOneParameter() throws {
        let spec = RequestSpec(
            method: "POST", url: "http://example.com", parameters: object(["key": str("value")]), encoding: .form)
        let request = try RequestSerializer.prepare(spec, environment: environment)
        XCTAssertEqual(request.bodyBytes, bytes("key=value"))
        XCTAssertEqual(contentType(request), "application/x-www-form-urlencoded")
        XCTAssertEqual(request.url, "http://example.com")
    }

    func testQ2FormPostWithoutParametersSendsEmptyBodyWithContentType() throws {
        let spec = RequestSpec(method: "POST", url: "http://example.com", encoding: .form)
        let request = try RequestSerializer.prepare(spec, environment: environment)
        XCTAssertEqual(request.bodyBytes, [])
        XCTAssertEqual(request.body?.length, 0)
        XCTAssertEqual(contentType(request), "application/x-www-form-urlencoded")
    }

    func testQ3GetPutsParametersInURL() throws {
        let spec = RequestSpec(method: "GET", url: "http://example.com", parameters: object(["key": str("value")]))
        let request = try RequestSerializer.prepare(spec, environment: environment)
        XCTAssertEqual(request.url, "http://example.com?key=value")
        XCTAssertNil(request.body)
        XCTAssertNil(contentType(request))
    }

    func testQ4GetWithEmptyParametersLeavesURLUnchanged() throws {
        let spec = RequestSpec(method: "GET", url: "http://example.com", parameters: object([:]))
        let request = try RequestSerializer.prepare(spec, environment: environment)
        XCTAssertEqual(request.url, "http://example.com")
    }

    func testQ5ReservedCharactersInValue() {
        let query = QueryStringSerializer.queryString(from: object(["key": str(" :#[]@!$&'()*+,;=/?")]))
        XCTAssertEqual(query, "key=%20%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D/?")
    }

    func testQ6PercentSequencesAreEscapedAgain() {
        let query = QueryStringSerializer.queryString(
            from: object(["key": str("%20%21%22%23%24%25%26%27%28%29%2A%2B%2C%2F")]))
        XCTAssertEqual(query, "key=%2520%2521%2522%2523%2524%2525%2526%2527%2528%2529%252A%252B%252C%252F")
    }

    func testQ9TwoKeysJoinedByAmpersand() {
        let query = QueryStringSerializer.queryString(from: object(["key": str("value"), "key1": str("value&")]))
        XCTAssertEqual(query, "key=value&key1=value%26")
    }

    func testQ10PercentEscapeOfDelimiters() {
        XCTAssertEqual(
            QueryStringSerializer.percentEscape(":#[]@!$&'()*+,;=?/"),
            "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D?/")
    }

    func testQ11EmojiAreEscapedAsUTF8() {
        let value = "!👴🏿👷🏻👮🏽👴🏿👷🏻👮🏽👴🏿👷🏻👮🏽👴🏿👷🏻👮🏽👴🏿👷🏻👮🏽"
        let expected =
            "test=%21"
            + "%F0%9F%91%B4%F0%9F%8F%BF%F0%9F%91%B7%F0%9F%8F%BB%F0%9F%91%AE%F0%9F%8F%BD"
            + "%F0%9F%91%B4%F0%9F%8F%BF%F0%9F%91%B7%F0%9F%8F%BB%F0%9F%91%AE%F0%9F%8F%BD"
            + "%F0%9F%91%B4%F0%9F%8F%BF%F0%9F%91%B7%F0%9F%8F%BB%F0%9F%91%AE%F0%9F%8F%BD"
            + "%F0%9F%91%B4%F0%9F%8F%BF%F0%9F%91%B7%F0%9F%8F%BB%F0%9F%91%AE%F0%9F%8F%BD"
            + "%F0%9F%91%B4%F0%9F%8F%BF%F0%9F%91%B7%F0%9F%8F%BB%F0%9F%91%AE%F0%9F%8F%BD"
        XCTAssertEqual(QueryStringSerializer.queryString(from: object(["test": str(value)])), expected)
    }

    func testQ12NestedObjectWithArray() {
        let parameters = object(["key1": str("value1"), "key2": object(["key": .array([num("1"), str("value")])])])
        XCTAssertEqual(
            QueryStringSerializer.queryString(from: parameters),
            "key1=value1&key2%5Bkey%5D%5B%5D=1&key2%5Bkey%5D%5B%5D=value")
    }

    func testQ13NonASCIIValue() {
        XCTAssertEqual(QueryStringSerializer.queryString(from: object(["key1": str("ä")])), "key1=%C3%A4")
    }

    func testQ14SortingNullAndNesting() {
        let parameters = object([
            "a": object(["b": object(["c": str("d")])]), "arr": .array([str("x"), str("y")]), "n": .null,
            "B": str("up"), "1": str("one"), "key": str("k"), "key1": str("k1"),
        ])
        XCTAssertEqual(
            QueryStringSerializer.queryString(from: parameters),
            "1=one&B=up&a%5Bb%5D%5Bc%5D=d&arr%5B%5D=x&arr%5B%5D=y&key=k&key1=k1&n")
    }

    func testQ15ArrayOfObjects() {
        let parameters = object(["a": .array([object(["b": num("1"), "c": num("2")]), object(["b": num("3")])])])
        XCTAssertEqual(
            QueryStringSerializer.queryString(from: parameters), "a%5B%5D%5Bb%5D=1&a%5B%5D%5Bc%5D=2&a%5B%5D%5Bb%5D=3")
    }

    func testQ16CommonValues() {
        let parameters = object([
            "q": str("hello world"), "email": str("a+b@example.com"), "path": str("/x/y?z=1"), "tilde": str("~-._"),
        ])
        XCTAssertEqual(
            QueryStringSerializer.queryString(from: parameters),
            "email=a%2Bb%40example.com&path=/x/y?z%3D1&q=hello%20world&tilde=~-._")
    }

    func testQ20ExistingQueryJoinsWithAmpersand() throws {
        let spec = RequestSpec(method: "GET", url: "http://x/p?a=1", parameters: object(["b": num("2")]))
        XCTAssertEqual(try RequestSerializer.prepare(spec, environment: environment).url, "http://x/p?a=1&b=2")
    }

    func testPairsKeepNullAsFieldOnly() {
        XCTAssertEqual(
            QueryStringSerializer.pairs(from: object(["a": .null, "b": str("")])),
            [QueryPair(field: "a", value: nil), QueryPair(field: "b", value: "")])
    }

    func testBooleansAreOneAndZeroAndEmptyContainersVanish() {
        let parameters = object([
            "t": .bool(true), "f": .bool(false), "e": object([:]), "ea": .array([]), "n": num("-1.5e3"),
        ])
        XCTAssertEqual(QueryStringSerializer.queryString(from: parameters), "f=0&n=-1.5e3&t=1")
    }

    func testTopLevelArrayUsesEmptyBrackets() {
        let parameters = JSONValue.array([num("1"), object(["b": num("2")])])
        XCTAssertEqual(QueryStringSerializer.queryString(from: parameters), "%5B%5D=1&%5B%5D%5Bb%5D=2")
    }

    func testKeysSortByUTF16CodeUnitNotScalar() {
        // U+FF5E is one code unit 0xFF5E; U+1F600 starts with the surrogate 0xD83D, so it sorts first.
        let parameters = object(["\u{FF5E}": num("1"), "\u{1F600}": num("2")])
        XCTAssertEqual(QueryStringSerializer.queryString(from: parameters), "%F0%9F%98%80=2&%EF%BD%9E=1")
    }

    func testEscapedQueryItem() {
        XCTAssertEqual(
            QueryStringSerializer.queryString(from: [QueryItem(name: "a b", value: "c&d=é")]), "a%20b=c%26d%3D%C3%A9")
        XCTAssertEqual(
            QueryStringSerializer.queryString(from: [
                QueryItem(name: "x", value: ""), QueryItem(name: "y[]", value: "1"),
            ]),
            "x=&y%5B%5D=1")
    }

    func testAppendQueryGoesBeforeFragment() {
        XCTAssertEqual(QueryStringSerializer.appendQuery("a=1", to: "http://x/p#frag"), "http://x/p?a=1#frag")
        XCTAssertEqual(QueryStringSerializer.appendQuery("a=1", to: "http://x/p?b=2#f?g"), "http://x/p?b=2&a=1#f?g")
        XCTAssertEqual(QueryStringSerializer.appendQuery("a=1", to: "http://x/p"), "http://x/p?a=1")
        XCTAssertEqual(QueryStringSerializer.appendQuery("a=1", to: "http://x/p?"), "http://x/p?a=1")
        XCTAssertEqual(QueryStringSerializer.appendQuery("a=1", to: "http://x/p?b&#f"), "http://x/p?b&a=1#f")
        XCTAssertEqual(QueryStringSerializer.appendQuery("a=1", to: "#f"), "?a=1#f")
        XCTAssertEqual(QueryStringSerializer.appendQuery("a=1", to: "http://x/p#f#g?"), "http://x/p?a=1#f#g?")
        XCTAssertEqual(QueryStringSerializer.appendQuery("a=1", to: "http://x/é?b#f"), "http://x/é?b&a=1#f")
        XCTAssertEqual(QueryStringSerializer.appendQuery("", to: "http://x/p"), "http://x/p")
    }

    func testAppendQueryEdgeCases() {
        XCTAssertEqual(QueryStringSerializer.appendQuery("", to: "http://x/p#f"), "http://x/p#f")
        XCTAssertEqual(QueryStringSerializer.appendQuery("a=1", to: "http://x/?"), "http://x/?a=1")
        XCTAssertEqual(QueryStringSerializer.appendQuery("a=1", to: "http://x/?b=2&"), "http://x/?b=2&a=1")
    }
}
