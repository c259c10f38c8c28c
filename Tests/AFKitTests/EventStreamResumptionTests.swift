import XCTest

@testable import AFKit

/// `--reconnect`'s view of an event stream: the reporter gets whole events only, however the
/// bytes are cut into chunks, so an event a drop cuts off is dropped with the connection.
final class EventStreamResumptionTests: XCTestCase {
    /// What the reporter gets of `stream` fed in chunks of `size`, and what is held at the end.
    private func delivered(_ stream: String, chunkSize size: Int) -> (passed: String, held: String) {
        let resumption = EventStreamResumption()
        var passed: [UInt8] = []
        let bytes = Array(stream.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            bytes[start..<end].withUnsafeBytes { resumption.feed($0) { passed += $0 } }
            start = end
        }
        var held: [UInt8] = []
        resumption.release { held += $0 }
        return (String(decoding: passed, as: UTF8.self), String(decoding: held, as: UTF8.self))
    }

    func testOnlyWholeEventsArePassedOnWhateverTheLineEndsAndChunks() {
        for (whole, open) in [
            ("id: 1\ndata: a\n\n: comment\n\n", "data: b"),
            ("id: 1\r\ndata: a\r\n\r\n", "data: b\r\n"),
            ("data: a\r\rdata: b\r\r", "id: 3\rdata: c\r"),
            ("data: a\n\n\n", "event: x\ndata: "),
        ] {
            for size in [1, 2, 3, 7, 1000] {
                let (passed, held) = delivered(whole + open, chunkSize: size)
                XCTAssertEqual(passed, whole, "chunks of \(size)")
                XCTAssertEqual(held, open, "chunks of \(size)")
            }
        }
    }

    func testANewConnectionDropsTheOpenEventAndKeepsTheLastEventID() {
        let resumption = EventStreamResumption()
        var passed: [UInt8] = []
        Array("id: 1\ndata: a\n\nid: 2\ndata: cut".utf8).withUnsafeBytes { resumption.feed($0) { passed += $0 } }
        XCTAssertEqual(resumption.closingBytes(), [])
        XCTAssertEqual(resumption.lastEventID, "1")
        var rest: [UInt8] = []
        resumption.release { rest += $0 }
        XCTAssertEqual(rest, [])
        XCTAssertEqual(String(decoding: passed, as: UTF8.self), "id: 1\ndata: a\n\n")
    }

    func testAnEventLongerThanTheHoldIsPassedOnAsItComesAndEndedAtADrop() {
        let resumption = EventStreamResumption()
        var passed = 0
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: EventStreamResumption.holdLimit + 1)
        (Array("data: ".utf8) + long).withUnsafeBytes { resumption.feed($0) { passed += $0.count } }
        XCTAssertEqual(passed, long.count + 6)
        XCTAssertEqual(resumption.closingBytes(), [0x0A, 0x0A])
    }

    func testOnlyAStreamWithoutFramingEndsByAClose() {
        func head(_ version: String, _ headers: [(String, String)]) -> ResponseHead {
            ResponseHead(statusCode: 200, reasonPhrase: "OK", httpVersion: version, headers: headers)
        }
        XCTAssertTrue(EventStreamResumption.endsByClose(head("HTTP/1.1", [("Content-Type", "text/event-stream")])))
        XCTAssertTrue(EventStreamResumption.endsByClose(head("HTTP/1.0", [])))
        XCTAssertFalse(EventStreamResumption.endsByClose(head("HTTP/1.1", [("Transfer-Encoding", "chunked")])))
        XCTAssertFalse(EventStreamResumption.endsByClose(head("HTTP/1.1", [("Transfer-Encoding", "gzip, Chunked")])))
        XCTAssertFalse(EventStreamResumption.endsByClose(head("HTTP/1.1", [("Content-Length", "10")])))
        XCTAssertFalse(EventStreamResumption.endsByClose(head("HTTP/2", [])))
    }
}
