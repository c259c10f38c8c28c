import AFKit
import XCTest

/// XPath 1.0 values through libxml2: node string values, computed results, errors and limits.
final class XPathQueryTests: XCTestCase {
    private let slideshow = Array(
        """
        <?xml version="1.0"?>
        <slideshow title="Sample Slide Show" date="2026">
          <slide type="all"><title>Wake up to WonderWidgets!</title></slide>
          <slide type="all"><title>Overview</title><item>Why <em>WonderWidgets</em> are great</item><item/></slide>
        </slideshow>
        """.utf8)

    private func values(_ expression: String) throws -> [String] {
        try XPathQuery.evaluate(document: slideshow, expression: expression)
    }

    func testNodeSetsGiveEachNodesStringValue() throws {
        XCTAssertEqual(try values("/slideshow/@title"), ["Sample Slide Show"])
        XCTAssertEqual(try values("//slide/title"), ["Wake up to WonderWidgets!", "Overview"])
        XCTAssertEqual(try values("//item"), ["Why WonderWidgets are great", ""])
        XCTAssertEqual(try values("//slide[2]/title/text()"), ["Overview"])
        XCTAssertEqual(try values("//missing"), [])
    }

    func testComputedResultsAreOneString() throws {
        XCTAssertEqual(try values("count(//slide)"), ["2"])
        XCTAssertEqual(try values("count(//slide) > 1"), ["true"])
        XCTAssertEqual(try values("string(//slide[1]/@type)"), ["all"])
        XCTAssertEqual(try values("number('x')"), ["NaN"])
        XCTAssertEqual(try values("/slideshow/@date * 2"), ["4052"])
    }

    func testErrorsSayWhatIsWrong() {
        XCTAssertThrowsError(try values("//slide[")) {
            XCTAssertTrue(($0 as? XPathError)?.description.hasPrefix("not an XPath 1.0 expression") == true, "\($0)")
        }
        XCTAssertThrowsError(try XPathQuery.evaluate(document: Array("<a><b></a>".utf8), expression: "/a")) {
            XCTAssertTrue(($0 as? XPathError)?.description.hasPrefix("the document is not well-formed XML") == true, "\($0)")
        }
        XCTAssertThrowsError(try values("unknown-function(1)"))
    }

    func testLimits() throws {
        var limits = XPathLimits()
        limits.maximumResults = 1
        XCTAssertThrowsError(try XPathQuery.evaluate(document: slideshow, expression: "//slide", limits: limits)) {
            XCTAssertEqual(($0 as? XPathError)?.description, "the expression selects more than 1 nodes")
        }
        limits = XPathLimits()
        limits.maximumDocumentBytes = 10
        XCTAssertThrowsError(try XPathQuery.evaluate(document: slideshow, expression: "/", limits: limits))
        // A quadratic expression over a large document stops at the operation limit.
        let many = Array(("<r>" + String(repeating: "<a><b/></a>", count: 3000) + "</r>").utf8)
        limits = XPathLimits()
        limits.maximumOperations = 100_000
        XCTAssertThrowsError(try XPathQuery.evaluate(document: many, expression: "count(//a[count(//b) > 0])", limits: limits))
        XCTAssertEqual(try XPathQuery.evaluate(document: many, expression: "count(//a)", limits: limits), ["3000"])
        // Entities are not expanded past libxml2's amplification limits, and nothing is fetched.
        let external = Array(#"<!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]><r>&e;</r>"#.utf8)
        XCTAssertEqual(try XPathQuery.evaluate(document: external, expression: "string(/r)"), [""])
    }
}
