import Foundation
import XCTest

/// A test case with a fresh directory of its own for every test, removed afterwards.
class TemporaryDirectoryTestCase: XCTestCase {
    /// The test's directory.
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("afkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    /// Writes `contents` to a new file in the test directory and returns its path.
    func makeFile(_ name: String, _ contents: [UInt8]) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(contents).write(to: url)
        return url.path
    }
}
