import Foundation
import XCTest

@testable import AFKit

/// Where sessions live and how they are written: layout, modes, atomic replace, no links.
final class SessionStoreTests: TemporaryDirectoryTestCase {
    func testNamesResolveToHTTPieLayout() throws {
        XCTAssertEqual(
            try SessionStore.path(for: "dev", url: "http://localhost:8080/x", configDirectory: "/c"),
            "/c/sessions/localhost_8080/dev.json")
        XCTAssertEqual(
            try SessionStore.path(for: "a.b-c_d", url: "https://Example.com/", configDirectory: "/c"),
            "/c/sessions/example.com/a.b-c_d.json")
        XCTAssertEqual(
            try SessionStore.path(for: "s", url: "http://[::1]:81/", configDirectory: "/c"),
            "/c/sessions/[__1]_81/s.json")
        XCTAssertEqual(try SessionStore.path(for: "./x.json", url: "http://h/", configDirectory: "/c"), "./x.json")
        XCTAssertEqual(
            try SessionStore.path(
                for: "s", url: "http://127.0.0.1:81/", hostHeader: "Api.Example:8443", configDirectory: "/c"),
            "/c/sessions/api.example_8443/s.json")
        XCTAssertThrowsError(try SessionStore.path(for: "s", url: "http://h/", hostHeader: "..", configDirectory: "/c"))
        XCTAssertThrowsError(try SessionStore.path(for: "bad name", url: "http://h/", configDirectory: "/c"))
        XCTAssertThrowsError(try SessionStore.path(for: "", url: "http://h/", configDirectory: "/c"))
    }

    func testSaveCreatesPrivateFileInPrivateDirectories() throws {
        let path = directory.path + "/cfg/sessions/h_1/dev.json"
        let session = SessionFile(headers: [HTTPField(name: "X", value: "1")])
        try SessionStore.save(session, to: path)
        XCTAssertEqual(try mode(path), 0o600)
        XCTAssertEqual(try mode(directory.path + "/cfg/sessions/h_1"), 0o700)
        XCTAssertEqual(try mode(directory.path + "/cfg"), 0o700)
        XCTAssertEqual(try SessionStore.load(path), session)
        // Nothing but the session is left in its directory (no temporary file).
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path + "/cfg/sessions/h_1"), ["dev.json"])
    }

    func testSaveReplacesAWorldReadableFileAndALinkWithoutFollowingIt() throws {
        let path = try makeFile("s.json", Array("{}".utf8))
        chmod(path, 0o644)
        try SessionStore.save(SessionFile(), to: path)
        XCTAssertEqual(try mode(path), 0o600)

        let victim = try makeFile("victim", Array("keep".utf8))
        let link = directory.path + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        try SessionStore.save(SessionFile(), to: link)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep")
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType, .typeRegular)
    }

    func testLoadRefusesALinkAndReadsAMissingFileAsEmpty() throws {
        XCTAssertEqual(try SessionStore.load(directory.path + "/none.json"), SessionFile())
        let target = try makeFile("t.json", Array("{}".utf8))
        let link = directory.path + "/l.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        XCTAssertThrowsError(try SessionStore.load(link)) { error in
            guard case .unreadable? = error as? SessionError else { return XCTFail("\(error)") }
        }
    }

    func testLoadReportsMalformedFileWithItsPath() throws {
        let path = try makeFile("bad.json", Array("{\n\n   x".utf8))
        XCTAssertThrowsError(try SessionStore.load(path)) { error in
            guard case .malformed(let where_, let line, let column, _)? = error as? SessionError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual([where_, "\(line)", "\(column)"], [path, "3", "4"])
        }
    }

    func testNetrcWarningOnlyForReadablePasswords() throws {
        let path = try makeFile("netrc", Array("machine h login u password p\n".utf8))
        chmod(path, 0o600)
        XCTAssertNil(NetrcPermissions.warning(forFileAt: path))
        chmod(path, 0o644)
        XCTAssertEqual(
            NetrcPermissions.warning(forFileAt: path),
            "\(path) holds passwords and can be read by others (mode 644); run: chmod 600 \(path)")
        let noPassword = try makeFile("netrc2", Array("machine h login u\n".utf8))
        chmod(noPassword, 0o644)
        XCTAssertNil(NetrcPermissions.warning(forFileAt: noPassword))
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
}
