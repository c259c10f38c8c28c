import Glibc
import XCTest

@testable import AFKit

/// `--max-depth`: every reader of a response body (the JSON, XML and property-list formatters,
/// `--sorted`, `--jsonpath`, `??` assertions, references, events) reads a body nested exactly as
/// deep as its limit and stops at one level more, saying so in the same words; and at the hard
/// maximum each runs on a stack that holds it (`DeepStack`), whatever the caller's: here a thread
/// of 512 KiB, which a tenth of the levels would overflow were they on it.
final class MaximumDepthTests: XCTestCase {
    private let hardest = FormattingLimits.hardMaximumDepth
    /// Limits to try: below the default, above it (on `DeepStack`'s thread) and the hard maximum.
    private var limits: [Int] { [3, 700, hardest] }

    private func arrays(_ levels: Int) -> [UInt8] {
        Array(repeating: UInt8(ascii: "["), count: levels) + Array(repeating: UInt8(ascii: "]"), count: levels)
    }

    private func objects(_ levels: Int) -> [UInt8] {
        Array((String(repeating: #"{"a":"#, count: levels) + "1" + String(repeating: "}", count: levels)).utf8)
    }

    private func elements(_ levels: Int) -> [UInt8] {
        Array((String(repeating: "<a>", count: levels) + String(repeating: "</a>", count: levels)).utf8)
    }

    private func chain(_ levels: Int) -> [UInt8] { BinaryPropertyListChain.bytes(levels) }

    private func message(_ limit: Int) -> String {
        "nested deeper than the limit (\(limit) levels; --max-depth raises it)"
    }

    /// Runs `body` on a thread with a 512 KiB stack and waits for it.
    private func onASmallStack(_ body: @escaping () throws -> Void) throws {
        var failure: (any Error)?
        let thread = try XCTUnwrap(
            JoinableThread.start(stackSize: 512 * 1024) {
                do { try body() } catch { failure = error }
            })
        pthread_join(thread, nil)
        if let failure { throw failure }
    }

    private func format(_ input: [UInt8], with formatter: BodyFormatter, sink: CollectingSink) throws -> [String] {
        try input.withUnsafeBytes { try formatter.consume($0) }
        try formatter.finish()
        return formatter.warnings
    }

    func testTheMessageNamesTheLimitAndTheOption() {
        XCTAssertEqual(
            FormattingLimits.tooDeep(512), "nested deeper than the limit (512 levels; --max-depth raises it)")
    }

    func testTheParserReadsToItsLimit() throws {
        for limit in [1, 3, 700] {
            XCTAssertNoThrow(try JSONParser.parse(bytes: arrays(limit), maximumDepth: limit))
            XCTAssertThrowsError(try JSONParser.parse(bytes: arrays(limit + 1), maximumDepth: limit)) { error in
                XCTAssertEqual((error as? JSONParseError)?.depthLimit, limit)
                XCTAssertEqual((error as? JSONParseError)?.offset, limit)
            }
            XCTAssertNoThrow(try JSONParser.value(at: [], inBytes: arrays(limit), maximumDepth: limit))
            XCTAssertThrowsError(try JSONParser.value(at: [.index(0)], inBytes: arrays(limit + 1), maximumDepth: limit))
            {
                XCTAssertEqual(($0 as? JSONParseError)?.depthLimit, limit)
            }
        }
    }

    func testTheJSONFormatterAndSorterFormatToTheLimit() throws {
        try onASmallStack { [self] in
            for limit in limits {
                for sorts in [false, true] {
                    var options = JSONFormatOptions(layout: .compact, sortsKeys: sorts)
                    options.maximumDepth = limit
                    let sink = CollectingSink()
                    XCTAssertEqual(
                        try format(objects(limit), with: JSONStreamFormatter(options: options, sink: sink), sink: sink),
                        [], "\(limit) \(sorts)")
                    XCTAssertEqual(sink.bytes, objects(limit))
                    let deeper = CollectingSink()
                    let warnings = try format(
                        objects(limit + 1), with: JSONStreamFormatter(options: options, sink: deeper), sink: deeper)
                    XCTAssertEqual(warnings.count, 1)
                    XCTAssertTrue(warnings.first?.hasPrefix("JSON at byte ") == true, "\(warnings)")
                    XCTAssertTrue(warnings.first?.contains(": \(message(limit)); the rest") == true, "\(warnings)")
                    XCTAssertEqual(deeper.bytes, objects(limit + 1))
                }
            }
        }
    }

    func testTheXMLFormatterFormatsToTheLimit() throws {
        try onASmallStack { [self] in
            for limit in limits {
                let options = XMLFormatOptions(preservesLayout: true, maximumDepth: limit)
                let sink = CollectingSink()
                XCTAssertEqual(
                    try format(elements(limit), with: XMLStreamFormatter(options: options, sink: sink), sink: sink), [])
                let deeper = CollectingSink()
                XCTAssertEqual(
                    try format(
                        elements(limit + 1), with: XMLStreamFormatter(options: options, sink: deeper), sink: deeper),
                    ["XML \(message(limit)); the rest is shown as received"])
            }
        }
    }

    func testPropertyListsAreDecodedAndShownToTheLimit() throws {
        try onASmallStack { [self] in
            for limit in limits {
                // The decoder recurses a level at a time, and so does releasing what it made.
                func decode(_ bytes: [UInt8]) throws {
                    try DeepStack.run(levels: limit) { () throws -> Void in
                        _ = try BinaryPropertyListDecoder.decode(bytes, maximumDepth: limit)
                    }
                }
                XCTAssertNoThrow(try decode(chain(limit)))
                XCTAssertThrowsError(try decode(chain(limit + 1))) { XCTAssertEqual("\($0)", message(limit)) }
                for display in PropertyListDisplay.allCases {
                    var json = JSONFormatOptions()
                    json.maximumDepth = limit
                    let xml = XMLFormatOptions(maximumDepth: limit)
                    let sink = CollectingSink()
                    let formatter = PropertyListFormatter(display: display, xml: xml, json: json, sink: sink)
                    XCTAssertEqual(try format(chain(limit), with: formatter, sink: sink), [], "\(limit) \(display)")
                    let deeper = CollectingSink()
                    let refused = PropertyListFormatter(display: display, xml: xml, json: json, sink: deeper)
                    XCTAssertEqual(
                        try format(chain(limit + 1), with: refused, sink: deeper),
                        ["cannot read the property list (\(message(limit))); the body is shown as received"])
                    XCTAssertEqual(deeper.bytes, chain(limit + 1))
                }
            }
        }
    }

    func testJSONPathReadsToTheLimitForEveryQuery() throws {
        try onASmallStack { [self] in
            for limit in limits {
                // Queries that descend, copy, hold or filter, with little to print (a match
                // holding the levels below it would print them once per level).
                for query in ["$..a", "$[0]", "$[-1]", "$[?@.x]", "$..[?@ == 1]"] {
                    let parsed = try JSONPathQuery(parsing: query)
                    let streamLimits = JSONPathStreamLimits(maximumDepth: limit)
                    XCTAssertNoThrow(
                        try JSONPathStreamFilter.run(parsed, on: arrays(limit), limits: streamLimits), query)
                    XCTAssertThrowsError(
                        try JSONPathStreamFilter.run(parsed, on: arrays(limit + 1), limits: streamLimits)
                    ) {
                        let description = ($0 as? JSONPathBodyError)?.description ?? "\($0)"
                        XCTAssertTrue(description.hasPrefix("the body is \(message(limit)) at offset "), description)
                    }
                }
            }
        }
    }

    func testAssertionsReadTheBodyToTheLimit() throws {
        try onASmallStack { [self] in
            let assertions = try ["jsonpath $[0] exists", "jsonpath $..[?length(@) == 0] exists"].map {
                try ResponseAssertion.parse($0, line: 1)
            }
            for limit in limits {
                func check(_ body: [UInt8]) -> [AssertionResult] {
                    ResponseCheck.check(
                        assertions,
                        against: CheckedResponse(
                            statusCode: 200, head: nil, body: body, bodyTruncated: false, metrics: nil,
                            maximumDepth: limit))
                }
                XCTAssertEqual(check(arrays(limit)).map(\.passed), [limit > 1, true], "\(limit)")
                XCTAssertEqual(
                    check(arrays(limit + 1)).map(\.problem),
                    [String](repeating: "the body is \(message(limit))", count: 2))
            }
        }
    }

    func testReferencesReadTheBodyToTheLimit() throws {
        try onASmallStack { [self] in
            for limit in limits {
                let archive = ExchangeArchive(maximumDepth: limit)
                func value(_ text: String) throws -> String {
                    try archive.value(of: XCTUnwrap(RequestReference(parsing: text)))
                }
                for (name, body) in [("fits", arrays(limit)), ("deeper", arrays(limit + 1))] {
                    archive.keep(
                        ExchangeArchive.Record(
                            requestHeaders: [], requestBody: nil,
                            responseHead: ResponseHead(
                                statusCode: 200, reasonPhrase: "OK", httpVersion: "HTTP/1.1", headers: []),
                            responseBody: body, responseTruncated: false),
                        as: name)
                }
                XCTAssertFalse(try value("fits.response.body.$[0]").isEmpty)
                XCTAssertEqual(try value("fits.response.body.$..[?length(@) == 0]"), "[]")
                for query in ["$[0]", "$..[?length(@) == 0]"] {
                    XCTAssertThrowsError(try value("deeper.response.body.\(query)")) {
                        XCTAssertEqual(
                            "\($0)", "{{deeper.response.body.\(query)}}: deeper's response body is \(message(limit))")
                    }
                }
            }
        }
    }

    func testEventDataIsQueriedToTheLimit() throws {
        try onASmallStack { [self] in
            for limit in limits {
                func selected(_ data: [UInt8]) throws -> [UInt8] {
                    let sink = CollectingSink()
                    let formatter = EventStreamFormatter(
                        style: .jsonPath(try JSONPathQuery(parsing: "$..[?length(@) == 0]"), .none),
                        escapesControls: false, sink: sink,
                        maximumDepth: limit)
                    _ = try format(Array("data: ".utf8) + data + Array("\n\n".utf8), with: formatter, sink: sink)
                    return sink.bytes
                }
                XCTAssertEqual(try selected(arrays(limit)), Array("[]\n".utf8))
                XCTAssertEqual(try selected(arrays(limit + 1)), [])
            }
        }
    }
}
