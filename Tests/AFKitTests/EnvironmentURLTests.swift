import AFKit
import XCTest

/// The environment stage's URL join: one `/`, no double encoding, `..`, queries, absolute URLs.
final class EnvironmentURLTests: XCTestCase {
    private func join(_ input: String, _ base: String?) throws -> String {
        try EnvironmentURL.join(input, base: base).url
    }

    func testJoinsWithExactlyOneSlash() throws {
        XCTAssertEqual(try join("/users", "http://h:8080/api/"), "http://h:8080/api/users")
        XCTAssertEqual(try join("users", "http://h:8080/api/"), "http://h:8080/api/users")
        XCTAssertEqual(try join("users", "http://h:8080/api"), "http://h:8080/api/users")
        XCTAssertEqual(try join("//users", "http://h/api//"), "http://h/api/users")
        XCTAssertEqual(try join("/users/", "http://h/api"), "http://h/api/users/")
        XCTAssertEqual(try join("users", "http://h"), "http://h/users")
        XCTAssertEqual(try join("users", "http://h/"), "http://h/users")
    }

    func testEmptyPathKeepsTheBase() throws {
        XCTAssertEqual(try join("", "http://h/api/"), "http://h/api/")
        XCTAssertEqual(try join("/", "http://h/api/"), "http://h/api/")
        XCTAssertEqual(try join("?page=2", "http://h/api/"), "http://h/api/?page=2")
    }

    func testAlreadyEncodedPathsAreNotEncodedAgain() throws {
        XCTAssertEqual(try join("/a%20b/c%2Fd", "http://h/api/"), "http://h/api/a%20b/c%2Fd")
        XCTAssertEqual(try join("/a b/ü", "http://h/api/"), "http://h/api/a%20b/%C3%BC")
        XCTAssertEqual(try join("/x?q=a%26b&r=c d", "http://h/"), "http://h/x?q=a%26b&r=c%20d")
    }

    func testDotSegmentsAreRemovedAsLibcurlWould() throws {
        XCTAssertEqual(try join("/a/../b", "http://h/api/"), "http://h/api/b")
        XCTAssertEqual(try join("../b", "http://h/api/v1/"), "http://h/api/b")
        XCTAssertEqual(try join("./b/./c", "http://h/api/"), "http://h/api/b/c")
    }

    func testQueriesOfBaseAndURLAreBothKept() throws {
        XCTAssertEqual(try join("/users?page=2", "http://h/api/?key=k"), "http://h/api/users?key=k&page=2")
        XCTAssertEqual(try join("/users", "http://h/api/?key=k"), "http://h/api/users?key=k")
        XCTAssertEqual(try join("/users#top", "http://h/api/"), "http://h/api/users#top")
    }

    func testAbsoluteURLIgnoresTheBase() throws {
        XCTAssertEqual(try join("https://other.example/x", "http://h/api/"), "https://other.example/x")
        XCTAssertEqual(try join(":9000/x", "http://h/api/"), "http://localhost:9000/x")
        XCTAssertTrue(EnvironmentURL.isAbsolute("HTTP://x"))
        XCTAssertFalse(EnvironmentURL.isAbsolute("users:list"))
        XCTAssertFalse(EnvironmentURL.isAbsolute("/x://y"))
        XCTAssertEqual(try join("users:list", "http://h/api/"), "http://h/api/users:list")
    }

    func testWithoutBaseTheURLIsUsedAlone() throws {
        XCTAssertEqual(try join("example.com/x", nil), "http://example.com/x")
    }

    func testAPIPathIsThePathAsTyped() throws {
        XCTAssertEqual(try EnvironmentURL.join("/api/card/list?x=1", base: "http://h/api/").apiPath, "api/card/list")
        XCTAssertEqual(try EnvironmentURL.join("http://h/a/b", base: "http://h/api/").apiPath, "a/b")
    }

    func testBaseShorthandsAndBadBases() throws {
        XCTAssertEqual(try join("/x", ":8080/api"), "http://localhost:8080/api/x")
        XCTAssertThrowsError(try join("/x", "ftp://h/"))
        XCTAssertThrowsError(try join("/x", "http:///nohost"))
    }
}
