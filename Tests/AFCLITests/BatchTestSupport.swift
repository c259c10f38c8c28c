import AFKit
import Foundation
import XCTest

@testable import AFCLI

/// A test case with a temporary directory, and helpers to look at the requests a batch builds.
class BatchTestCase: XCTestCase {
    /// The test's directory.
    var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("afcli-batch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(atPath: directory)
    }

    /// Writes `contents` to `name` in the test directory and returns its path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        let path = directory + "/" + name
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The environment the requests are built with: a fixed language, no netrc.
    let environment = ["LANG": "C", "HOME": "/nonexistent"]

    /// The bytes a body source delivers, read to its end.
    func drain(_ body: BodySource?) throws -> String? {
        guard let body else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try body.read(into: $0) }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The headers of a prepared request as `Name: value` lines, without the defaults every
    /// request carries (User-Agent, Accept-Encoding, Accept-Language).
    func headerLines(_ prepared: PreparedRequest) -> [String] {
        let defaults: Set<String> = ["user-agent", "accept-encoding", "accept-language"]
        return prepared.headers.filter { !defaults.contains($0.name.lowercased()) }.map { "\($0.name): \($0.value)" }
    }

    /// The message `body` throws, as `ErrorReporter` would print it (without the prefix).
    func message(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try body()
            XCTFail("no error", file: file, line: line)
            return nil
        } catch {
            return ErrorReporter.classify(error).1
        }
    }
}
