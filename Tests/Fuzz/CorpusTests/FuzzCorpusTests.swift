import AFFuzzHarnesses
import Foundation
import XCTest

/// Replays the committed seed corpus (Tests/Fuzz/corpus/<harness>/) through every harness, so the
/// harnesses keep working between `make fuzz` runs and every seed stays a regression input.
final class FuzzCorpusTests: XCTestCase {
    private static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("corpus")

    func testEveryHarnessHasSeeds() throws {
        for harness in FuzzHarness.allCases {
            let seeds = try seeds(for: harness)
            XCTAssertGreaterThanOrEqual(seeds.count, 3, "Tests/Fuzz/corpus/\(harness.rawValue) needs seeds")
        }
    }

    func testEverySeedRunsThroughItsHarness() throws {
        for harness in FuzzHarness.allCases {
            for seed in try seeds(for: harness) {
                harness.run(try Array(Data(contentsOf: seed)))
            }
        }
    }

    func testHarnessesAcceptEmptyAndOddInputs() {
        let inputs: [[UInt8]] = [[], [0], [0xFF, 0xFE, 0x00, 0x80], Array(repeating: 0x5B, count: 300)]
        for harness in FuzzHarness.allCases {
            for input in inputs { harness.run(input) }
        }
    }

    private func seeds(for harness: FuzzHarness) throws -> [URL] {
        let directory = Self.corpus.appendingPathComponent(harness.rawValue)
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.path < $1.path }
    }
}
