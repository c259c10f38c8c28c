import Glibc
import XCTest

@testable import AFKit

final class JoinableThreadTests: XCTestCase {
    /// Workers must leave SIGINT and SIGTERM to the main thread, and the creator keeps its mask.
    func testWorkersBlockTheInterruptSignals() throws {
        final class Seen: @unchecked Sendable { var mask = sigset_t() }
        let seen = Seen()
        let thread = try XCTUnwrap(JoinableThread.start { pthread_sigmask(SIG_BLOCK, nil, &seen.mask) })
        pthread_join(thread, nil)
        XCTAssertEqual(sigismember(&seen.mask, SIGINT), 1)
        XCTAssertEqual(sigismember(&seen.mask, SIGTERM), 1)
        var own = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &own)
        XCTAssertEqual(sigismember(&own, SIGINT), 0)
    }
}
