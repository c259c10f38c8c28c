import XCTest

@testable import AFKit

/// `afcli run -` lines split like a shell line: quotes, backslashes, comments, no expansion.
final class CommandLineSplitterTests: XCTestCase {
    private func split(_ line: String) throws -> [String] {
        try CommandLineSplitter.split(line)
    }

    func testBlanksSeparateWords() throws {
        XCTAssertEqual(try split("get  :8080/users/1\tX-A:b"), ["get", ":8080/users/1", "X-A:b"])
        XCTAssertEqual(try split("   "), [])
        XCTAssertEqual(try split(""), [])
    }

    func testLinesWithoutQuotesSplitAsWhenTheyHaveSome() throws {
        // A line with a quote somewhere takes the quote-aware path; the same words without it
        // take the plain one: both give the same words.
        for line in ["get :8080/a?x=1 X-A:b", "\t get\t\t:8080  \t", "post :8080 name=José ✓=✓", "a", " a "] {
            XCTAssertEqual(try split(line), try split(line + " ''").dropLast(), line)
        }
        XCTAssertEqual(try split("get :8080 ✓=é"), ["get", ":8080", "✓=é"])
    }

    func testSingleQuotesKeepEverything() throws {
        XCTAssertEqual(
            try split(#"post :8080 name='Ann Lee' 'a\b' '$HOME'"#), ["post", ":8080", "name=Ann Lee", #"a\b"#, "$HOME"])
        XCTAssertEqual(try split("x '' y"), ["x", "", "y"])
    }

    func testDoubleQuotesEscapeOnlyTheirOwnCharacters() throws {
        XCTAssertEqual(try split(#"X-A:"a \"b\" c""#), [#"X-A:a "b" c"#])
        XCTAssertEqual(try split(#""a\\b" "a\nb" "\$x""#), [#"a\b"#, #"a\nb"#, "$x"])
        XCTAssertEqual(try split(#"a="""#), ["a="])
    }

    func testBackslashKeepsTheNextCharacter() throws {
        XCTAssertEqual(try split(##"name=Ann\ Lee a\'b \#c"##), ["name=Ann Lee", "a'b", "#c"])
    }

    func testCommentsStartOnlyAtAWordStart() throws {
        XCTAssertEqual(try split("# a comment"), [])
        XCTAssertEqual(try split("get :8080/x # trailing comment"), ["get", ":8080/x"])
        XCTAssertEqual(try split("get :8080/x#frag X-Tag:#1 '#q'"), ["get", ":8080/x#frag", "X-Tag:#1", "#q"])
    }

    func testNothingIsExpanded() throws {
        XCTAssertEqual(try split("get ~/x $HOME * {a,b} `id`"), ["get", "~/x", "$HOME", "*", "{a,b}", "`id`"])
    }

    func testUnfinishedQuotesAndBackslashesAreErrors() {
        XCTAssertThrowsError(try split("post :8080 name='Ann")) { error in
            XCTAssertEqual("\(error)", "the quote ' at column 17 is never closed")
        }
        XCTAssertThrowsError(try split(#"a "b"#)) { error in
            XCTAssertEqual("\(error)", #"the quote " at column 3 is never closed"#)
        }
        XCTAssertThrowsError(try split(#"get x\"#)) { error in
            XCTAssertEqual("\(error)", "a backslash at column 6 ends the line (a request is one line)")
        }
    }
}
