import XCTest

@testable import AFCurl

/// `SpinWait`: a wait polls without sleeping first while spins catch activity, and backs off
/// after misses.
final class SpinWaitTests: XCTestCase {
    /// Which of `count` waits spin, as a string of S (spins) and "." (sleeps at once), each spin
    /// caught or missed as `caught` says.
    private func pattern(_ count: Int, _ wait: inout SpinWait, caught: Bool) -> String {
        var marks = ""
        for _ in 0..<count {
            guard wait.spins() else {
                marks += "."
                continue
            }
            marks += "S"
            if caught { wait.caught() } else { wait.missed() }
        }
        return marks
    }

    func testEveryWaitSpinsWhileSpinsCatch() {
        var wait = SpinWait()
        XCTAssertEqual(pattern(5, &wait, caught: true), "SSSSS")
    }

    func testMissesInARowMakeTheNextWaitsSleepAtOnceDoublingUpTo64() {
        var wait = SpinWait()
        let misses = pattern(1 + 2 + 4 + 8 + 16 + 32 + 64 + 64 + 7 + 7, &wait, caught: false)
        let expected = [1, 2, 4, 8, 16, 32, 64, 64].map { "S" + String(repeating: ".", count: $0) }.joined() + "S"
        XCTAssertEqual(String(misses.prefix(expected.count)), expected)
        XCTAssertLessThanOrEqual(SpinWait.longestBackoff, 64)
    }

    func testACatchEndsTheBackoff() {
        var wait = SpinWait()
        XCTAssertEqual(pattern(4, &wait, caught: false), "S.S.")  // 1 skipped, then 2 to skip
        XCTAssertEqual(pattern(2, &wait, caught: false), ".S")  // the 2nd skip, then a miss: 4 to skip
        XCTAssertEqual(pattern(4, &wait, caught: true), "....")
        XCTAssertEqual(pattern(3, &wait, caught: true), "SSS")
        XCTAssertEqual(pattern(2, &wait, caught: false), "S.")  // back to 1 after the catch
    }

    func testASpinEndsAsSoonAsSomethingIsReadyOrWhenItsLimitPasses() {
        var wait = SpinWait()
        var polls = 0
        XCTAssertTrue(
            wait.spin {
                polls += 1
                return polls == 3
            })
        XCTAssertEqual(polls, 3)

        let began = TransferContext.now()
        XCTAssertFalse(wait.spin { false })
        XCTAssertGreaterThanOrEqual(TransferContext.now() - began, SpinWait.limit)
        XCTAssertFalse(wait.spins(), "the miss makes the next wait sleep at once")
    }
}
