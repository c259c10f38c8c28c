import XCTest

@testable import AFCLI

final class ForeignSpellingsTests: XCTestCase {
    func testEveryForeignSpellingIsOneAfcliDoesNotTake() {
        for spelling in ForeignSpellings.advice.keys {
            if spelling.hasPrefix("--") {
                XCTAssertNil(OptionTable.byLong[String(spelling.dropFirst(2))], spelling)
            } else {
                XCTAssertEqual(spelling.count, 2, spelling)
                XCTAssertNil(OptionTable.byShort[spelling.last!], spelling)
            }
        }
    }

    func testAnotherToolsSpellingGetsItsAdviceInsteadOfAGuess() {
        XCTAssertThrowsError(try ArgumentParser.parse(["--unsorted", "example.org"])) { error in
            XCTAssertEqual(error as? UsageError, .unknownOption("--unsorted", suggestion: "--no-sorted"))
        }
        XCTAssertThrowsError(try ArgumentParser.parse(["-vL", "example.org"])) { error in
            XCTAssertEqual(error as? UsageError, .unknownOption("-L", suggestion: "--follow"))
        }
        XCTAssertThrowsError(try ArgumentParser.parse(["--download", "example.org"])) { error in
            XCTAssertEqual(
                (error as? UsageError)?.description, "unknown option --download (did you mean afcli download URL?)")
        }
        XCTAssertThrowsError(try ArgumentParser.parse(["--folow", "example.org"])) { error in
            XCTAssertEqual(error as? UsageError, .unknownOption("--folow", suggestion: "--follow"))
        }
    }

    func testCurlsSilentFlagGetsANoteWhereItReachesStyle() {
        XCTAssertThrowsError(try ArgumentParser.parse(["-sSL", "example.org"])) { error in
            XCTAssertEqual(
                (error as? UsageError)?.description,
                "-s: \"SL\" is not one of auto, mono, monokai, solarized (-s is --style; curl's silent -s is -q here)")
        }
    }
}
