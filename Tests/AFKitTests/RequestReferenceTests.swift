import XCTest

@testable import AFKit

/// REST Client's request variables: which texts are references to another request, and the
/// values an archived exchange gives them.
final class RequestReferenceTests: XCTestCase {
    func testReadsTheNameSidePartAndPath() throws {
        let token = try XCTUnwrap(RequestReference(parsing: "login.response.body.$.token"))
        XCTAssertEqual(token.name, "login")
        XCTAssertEqual(token.side, .response)
        XCTAssertEqual(token.part, .jsonPath("$.token"))
        XCTAssertEqual(RequestReference(parsing: "feed.response.body.//item[1]/title")?.part, .xPath("//item[1]/title"))
        XCTAssertEqual(RequestReference(parsing: "login.response.headers.Location")?.part, .header("Location"))
        XCTAssertEqual(RequestReference(parsing: "login.request.body.$.user")?.side, .request)
        XCTAssertEqual(RequestReference(parsing: "login.response.body.*")?.part, .wholeBody)
        XCTAssertEqual(RequestReference(parsing: "a.b.response.body.$.x")?.name, "a.b")
        XCTAssertNil(RequestReference(parsing: "token"))
        XCTAssertNil(RequestReference(parsing: "login.response.body."))
        XCTAssertNil(RequestReference(parsing: ".response.body.$"))
        XCTAssertNil(RequestReference(parsing: "login.response.body.token"))
    }

    private func archive() -> ExchangeArchive {
        let archive = ExchangeArchive()
        archive.keep(
            ExchangeArchive.Record(
                requestHeaders: [("Content-Type", "application/json")], requestBody: Array(#"{"user":"ann"}"#.utf8),
                responseHead: ResponseHead(
                    statusCode: 200, reasonPhrase: "OK", httpVersion: "HTTP/1.1",
                    headers: [("Location", "/next"), ("Content-Type", "application/json")]),
                responseBody: Array(#"{"token":"t-1","id":7,"roles":["a"]}"#.utf8), responseTruncated: false),
            as: "login")
        return archive
    }

    private func value(_ text: String, _ archive: ExchangeArchive) throws -> String {
        try archive.value(of: XCTUnwrap(RequestReference(parsing: text)))
    }

    func testValuesOfAKeptExchange() throws {
        let kept = archive()
        XCTAssertEqual(try value("login.response.body.$.token", kept), "t-1")
        XCTAssertEqual(try value("login.response.body.$.id", kept), "7")
        XCTAssertEqual(try value("login.response.body.$.roles", kept), #"["a"]"#)
        XCTAssertEqual(try value("login.response.headers.location", kept), "/next")
        XCTAssertEqual(try value("login.request.body.$.user", kept), "ann")
        XCTAssertEqual(try value("login.request.headers.Content-Type", kept), "application/json")
        XCTAssertEqual(try value("login.response.body.*", kept), #"{"token":"t-1","id":7,"roles":["a"]}"#)
    }

    func testWhatCannotBeGivenNamesTheRequestAndThePath() {
        let kept = archive()
        func reason(_ text: String) -> String? {
            do {
                _ = try value(text, kept)
                return nil
            } catch {
                return (error as? RequestReferenceError)?.reason
            }
        }
        XCTAssertEqual(
            reason("other.response.body.$.x"),
            "{{other.response.body.$.x}}: request other has no response to take it from (its transfer failed "
                + "before a response came, or it did not run)")
        XCTAssertEqual(
            reason("login.response.body.$.missing"),
            "{{login.response.body.$.missing}}: $.missing selects nothing in login's response body")
        XCTAssertEqual(
            reason("login.response.headers.X-None"), "{{login.response.headers.X-None}}: login's response has no X-None header")
        XCTAssertEqual(
            reason("login.response.body.$["),
            "{{login.response.body.$[}}: $[ is not a JSONPath query: expected a selector at character 3")
    }

    /// A response that failed is kept like any other: a value it lacks is told with its status,
    /// which likely says why.
    func testAFailedResponseGivesValuesAndItsStatusExplainsWhatItLacks() throws {
        let archive = ExchangeArchive()
        archive.keep(
            ExchangeArchive.Record(
                requestHeaders: [], requestBody: nil,
                responseHead: ResponseHead(
                    statusCode: 500, reasonPhrase: "Internal Server Error", httpVersion: "HTTP/1.1", headers: []),
                responseBody: Array(#"{"retry":"later"}"#.utf8), responseTruncated: false),
            as: "job")
        XCTAssertEqual(try value("job.response.body.$.retry", archive), "later")
        XCTAssertThrowsError(try value("job.response.body.$.token", archive)) { error in
            XCTAssertEqual(
                (error as? RequestReferenceError)?.reason,
                "{{job.response.body.$.token}}: $.token selects nothing in job's response body (job's response was HTTP 500)")
        }
    }

    func testAValueGivenAgainComesFromTheRecordKeptLast() throws {
        let kept = archive()
        XCTAssertEqual(try value("login.response.body.$.token", kept), "t-1")
        XCTAssertEqual(try value("login.response.body.$.token", kept), "t-1")
        // A later request of the same name replaces the record, and the values it gives.
        kept.keep(
            ExchangeArchive.Record(
                requestHeaders: [], requestBody: nil,
                responseHead: ResponseHead(statusCode: 200, reasonPhrase: "OK", httpVersion: "HTTP/1.1", headers: []),
                responseBody: Array(#"{"token":"t-2"}"#.utf8), responseTruncated: false),
            as: "login")
        XCTAssertEqual(try value("login.response.body.$.token", kept), "t-2")
        XCTAssertThrowsError(try value("login.response.body.$.id", kept))
    }

    private func keepPage(_ body: String, in archive: ExchangeArchive) {
        archive.keep(
            ExchangeArchive.Record(
                requestHeaders: [], requestBody: nil,
                responseHead: ResponseHead(statusCode: 200, reasonPhrase: "OK", httpVersion: "HTTP/1.1", headers: []),
                responseBody: Array(body.utf8), responseTruncated: false),
            as: "page")
    }

    func testSingularAndOtherQueriesAndABodyThatIsNotJSON() throws {
        let kept = archive()
        // One value at most is found by a scan; other queries by the evaluator: the same values.
        XCTAssertEqual(try value("login.response.body.$.roles[-1]", kept), "a")
        XCTAssertEqual(try value("login.response.body.$..id", kept), "7")
        XCTAssertEqual(try value("login.response.body.$['token','id']", kept), "t-1")
        keepPage("<html>not JSON</html>", in: kept)
        for text in ["page.response.body.$.x", "page.response.body.$..x"] {
            XCTAssertThrowsError(try value(text, kept)) { error in
                XCTAssertEqual(
                    (error as? RequestReferenceError)?.reason, "{{\(text)}}: page's response body is not JSON")
            }
        }
        // Text that is JSON but not an object: the scan reads it as the parser does.
        keepPage(#" "just text" "#, in: kept)
        XCTAssertEqual(try value("page.response.body.$", kept), "just text")
        XCTAssertThrowsError(try value("page.response.body.$.x", kept))
    }

    func testAValueGivenIsKnownByItsTextUntilARecordIsKept() throws {
        let kept = archive()
        XCTAssertNil(kept.knownValue("login.response.body.$.token"))
        XCTAssertEqual(try value("login.response.body.$.token", kept), "t-1")
        XCTAssertEqual(kept.knownValue("login.response.body.$.token"), "t-1")
        XCTAssertNil(kept.knownValue("login.response.body.$.id"))
        // Any record kept may replace the one a value came from: every value is asked again.
        keepPage("{}", in: kept)
        XCTAssertNil(kept.knownValue("login.response.body.$.token"))
        XCTAssertEqual(try value("login.response.body.$.token", kept), "t-1")
    }
}
