import XCTest

@testable import AFCLI

/// The progress display: a bar line fitted into the terminal's width, and percent lines that
/// never go back.
final class ProgressMeterTests: XCTestCase {
    private let line = ProgressLine(
        label: "big.iso", fraction: 0.37, size: "12.3 MiB", rate: "1.2 MiB/s", time: "ETA 0:12")

    func testAWideTerminalGetsTheWholeLine() {
        XCTAssertEqual(
            line.full, "big.iso   37%  [#######             ]  12.3 MiB  1.2 MiB/s  ETA 0:12")
        XCTAssertEqual(line.fitted(to: 79), line.full)
    }

    func testNarrowTerminalsDropPartsInOrder() {
        // The bar narrows first, then the time and the rate go, then the bar, label and size.
        XCTAssertEqual(line.fitted(to: 60), "big.iso   37%  [####        ]  12.3 MiB  1.2 MiB/s  ETA 0:12")
        XCTAssertEqual(line.fitted(to: 50), "big.iso   37%  [###       ]  12.3 MiB  1.2 MiB/s")
        XCTAssertEqual(line.fitted(to: 39), "big.iso   37%  [###       ]  12.3 MiB")
        XCTAssertEqual(line.fitted(to: 32), "big.iso   37%  [#    ]  12.3 MiB")
        XCTAssertEqual(line.fitted(to: 31), "big.iso   37%  12.3 MiB")
        XCTAssertEqual(line.fitted(to: 25), "big.iso   37%  12.3 MiB")
        XCTAssertEqual(line.fitted(to: 15), " 37%  12.3 MiB")
        XCTAssertEqual(line.fitted(to: 8), " 37%")
        XCTAssertEqual(line.fitted(to: 2), " 3")
        for width in 1...100 {
            XCTAssertLessThanOrEqual(ProgressLine.cells(line.fitted(to: width)), width, "width \(width)")
        }
    }

    func testWithoutATotalTheByteCountStays() {
        let unknown = ProgressLine(label: "f", fraction: nil, size: "5.0 MiB", rate: "1.0 MiB/s", time: "0:05")
        XCTAssertEqual(unknown.fitted(to: 12), "f  5.0 MiB")
        XCTAssertEqual(unknown.fitted(to: 8), "5.0 MiB")
    }

    func testWideCharactersTakeTwoCells() {
        XCTAssertEqual(ProgressLine.cells("玩具车.zip"), 10)
        let wide = ProgressLine(label: "玩具车玩具车.zip", fraction: 0.5, size: "1 B", rate: "0 B/s", time: nil)
        XCTAssertLessThanOrEqual(ProgressLine.cells(wide.fitted(to: 30)), 30)
    }

    func testTheMeterDrawsWithinTheTerminal() {
        var drawn: [String] = []
        var now = 0.0
        let meter = ProgressMeter(
            mode: .bar, label: "a-rather-long-file-name.tar.gz", total: 1000, clock: { now },
            output: { drawn.append($0) }, columns: { 40 })
        for done in stride(from: 0, through: 1000, by: 100) {
            now += 1
            meter.update(done: Int64(done))
        }
        meter.finish()
        XCTAssertFalse(drawn.isEmpty)
        for text in drawn {
            for piece in text.split(whereSeparator: { $0 == "\r" || $0 == "\n" }) {
                XCTAssertLessThan(ProgressLine.cells(String(piece)), 40, "\(piece)")
            }
        }
    }

    func testPercentLinesNeverGoBack() {
        var lines: [String] = []
        let first = ProgressMeter(
            mode: .percent, label: "", total: 100, clock: { 0 }, output: { lines.append($0) })
        first.update(done: 10)
        first.update(done: 40)
        first.fail()
        // The body is sent again (a redirect, a retry): nothing until it passes 40%.
        let second = ProgressMeter(
            mode: .percent, label: "", total: 100, clock: { 0 }, output: { lines.append($0) },
            percentPrinted: first.lastPercent)
        second.update(done: 0)
        second.update(done: 30)
        second.update(done: 50)
        second.finish()
        XCTAssertEqual(lines, ["10%\n", "40%\n", "50%\n", "100%\n"])
    }
}
