import AFKit
import XCTest

/// `TextMemo`: values by the text they came from, the first few compared before the dictionary.
final class TextMemoTests: XCTestCase {
    func testRemembersUpToItsLimitAndForgetsAll() {
        var memo = TextMemo<Int>(limit: 12)
        for number in 0..<20 { memo.remember(number, for: "text \(number)") }
        // The first few are compared one by one, the rest looked up; past the limit, nothing.
        XCTAssertEqual((0..<20).map { memo.value(for: "text \($0)") }, (0..<20).map { $0 < 12 ? $0 : nil })
        XCTAssertNil(memo.value(for: "text"))
        memo.removeAll()
        XCTAssertNil(memo.value(for: "text 0"))
        memo.remember(7, for: "text 0")
        XCTAssertEqual(memo.value(for: "text 0"), 7)
    }

    func testAnOptionalValueTellsNoneFromNotRemembered() {
        var memo = TextMemo<String?>(limit: 4)
        memo.remember(nil, for: "no reference")
        XCTAssertEqual(memo.value(for: "no reference"), .some(nil))
        XCTAssertEqual(memo.value(for: "never seen"), nil)
    }
}
