import AFKit
import Glibc
import XCTest

/// The home directory and the XDG base directories: HOME, else the password database; never a
/// relative path; a relative `XDG_*_HOME` ignored.
final class UserDirectoriesTests: XCTestCase {
    /// The effective user's home as the password database records it.
    private func accountHome() throws -> String {
        String(cString: try XCTUnwrap(getpwuid(geteuid())?.pointee.pw_dir))
    }

    func testHomeIsHOMEElseThePasswordDatabase() throws {
        XCTAssertEqual(UserDirectories.home(["HOME": "/h/"]), "/h")
        let account = try accountHome()
        for home in [nil, "", ".", "relative/dir"] {
            XCTAssertEqual(UserDirectories.home(home.map { ["HOME": $0] } ?? [:]), account, "\(home ?? "unset")")
        }
    }

    func testEachBaseDirectory() throws {
        let environment = ["HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s/", "XDG_CACHE_HOME": "/k"]
        XCTAssertEqual(UserDirectories.afcliDirectory(.config, environment), "/c/afcli")
        XCTAssertEqual(UserDirectories.afcliDirectory(.state, environment), "/s/afcli")
        XCTAssertEqual(UserDirectories.afcliDirectory(.cache, environment), "/k/afcli")
        // Relative XDG variables are ignored, as the XDG Base Directory specification says.
        let relative = ["HOME": "/h", "XDG_CONFIG_HOME": "c", "XDG_STATE_HOME": "./s", "XDG_CACHE_HOME": "k"]
        XCTAssertEqual(UserDirectories.afcliDirectory(.config, relative), "/h/.config/afcli")
        XCTAssertEqual(UserDirectories.afcliDirectory(.state, relative), "/h/.local/state/afcli")
        XCTAssertEqual(UserDirectories.afcliDirectory(.cache, relative), "/h/.cache/afcli")
        XCTAssertEqual(CacheDirectory.path(environment: ["XDG_CACHE_HOME": "k"]), try accountHome() + "/.cache/afcli")
    }

    func testTildeExpansion() throws {
        XCTAssertEqual(UserDirectories.expandingTilde("~/s.json", ["HOME": "/h"]), "/h/s.json")
        XCTAssertEqual(UserDirectories.expandingTilde("~", ["HOME": "/h"]), "/h")
        XCTAssertEqual(UserDirectories.expandingTilde("~x/s.json", ["HOME": "/h"]), "~x/s.json")
        XCTAssertEqual(UserDirectories.expandingTilde("~/s.json", [:]), try accountHome() + "/s.json")
    }
}
