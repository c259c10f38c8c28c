import Glibc
import XCTest

@testable import AFKit

/// What a `.http` file may read: paths under the file root once `..` and links are resolved,
/// environment variables by name or pattern.
final class HTTPFileAccessTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = try XCTUnwrap(HTTPFileAccess.realPath(NSTemporaryDirectory())) + "/afcli-access-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        XCTAssertEqual(mkdir(directory, 0o700), 0)
        XCTAssertEqual(mkdir(directory + "/root", 0o700), 0)
        XCTAssertEqual(mkdir(directory + "/root/inner", 0o700), 0)
        XCTAssertEqual(symlink(directory + "/outside", directory + "/root/out-link"), 0)
        XCTAssertEqual(symlink(directory + "/root/inner", directory + "/root/in-link"), 0)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testPathsAreResolvedBeforeTheyAreCompared() throws {
        let access = try HTTPFileAccess(root: directory + "/root/inner/..", rootOrigin: "test", allowedNames: [])
        XCTAssertEqual(access.root, directory + "/root")
        let root = directory + "/root"
        XCTAssertEqual(try access.checked(root + "/in-link/missing.txt", marker: "<", written: "x", line: 3), root + "/inner/missing.txt")
        XCTAssertEqual(try access.checked(root + "/a/b/../c", marker: "<", written: "x", line: 3), root + "/a/c")
        for outside in [root + "/../outside", root + "/out-link", root + "/inner/../../x", "/etc/passwd", root + "x/y"] {
            XCTAssertThrowsError(try access.checked(outside, marker: "<", written: "W", line: 3), outside) { error in
                let reason = (error as? HTTPFileError)?.reason ?? ""
                XCTAssertTrue(reason.hasPrefix("< W "), reason)
                XCTAssertEqual((error as? HTTPFileError)?.line, 3)
            }
        }
        XCTAssertThrowsError(try access.checked(root + "/out-link", marker: "<", written: "W", line: 3)) { error in
            XCTAssertTrue(((error as? HTTPFileError)?.reason ?? "").hasPrefix("< W leads to \(directory)/outside, outside"))
        }
        XCTAssertTrue(HTTPFileAccess.isUnder("/etc", "/"))
        XCTAssertFalse(HTTPFileAccess.isUnder("/rootx", "/root"))
        XCTAssertThrowsError(try HTTPFileAccess(root: directory + "/none", rootOrigin: "test", allowedNames: []))
    }

    func testEnvironmentVariablesAreAllowedByNameOrPattern() throws {
        let access = try HTTPFileAccess(root: "/", rootOrigin: "test", allowedNames: ["HOME", "API_*", "V?"])
        XCTAssertEqual(["HOME", "API_KEY", "API_", "V1"].map(access.allowsVariable), [true, true, true, true])
        XCTAssertEqual(["home", "XAPI_KEY", "V12", "PATH"].map(access.allowsVariable), [false, false, false, false])
        XCTAssertTrue(HTTPFileAccess.isValidPattern("GITHUB_*"))
        XCTAssertFalse(HTTPFileAccess.isValidPattern("A=B"))
        XCTAssertFalse(HTTPFileAccess.isValidPattern(""))
    }
}
