import Glibc
import XCTest

@testable import AFCLI

/// Write failures on standard output read like every other system error afcli reports.
final class OutputStreamTests: XCTestCase {
    func testAWriteErrorNamesTheTargetAndTheErrnoInLowerCase() {
        let error = OutputStream.WriteError(target: "standard output", code: EPIPE)
        XCTAssertEqual(error.description, "cannot write to standard output: broken pipe")
    }

    func testAFailedFlushThrowsTheWriteError() throws {
        let stream = OutputStream(descriptor: -1, target: "the pipe")
        try stream.write("x")
        XCTAssertThrowsError(try stream.flush()) { error in
            XCTAssertEqual(String(describing: error), "cannot write to the pipe: bad file descriptor")
        }
    }
}
