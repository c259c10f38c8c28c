import AFKit
import Foundation
import XCTest

/// The partial file and its state on a real file system: the state never claims more than is on
/// disk, the lock keeps a second writer out, and the finished file never clobbers one that
/// appeared meanwhile.
final class DownloadPartialFileTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "afcli-partial-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func path(_ name: String) -> String { directory + "/" + name }

    private func contents(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(name)).map { [UInt8]($0) }
    }

    private func append(_ partial: PartialFile, _ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try partial.append($0) }
    }

    func testStateNeverClaimsMoreThanTheFileHolds() throws {
        let partial = try PartialFile(path: path("a.part"), state: DownloadState(url: "http://h/a"))
        try partial.start(at: 0, state: DownloadState(url: "http://h/a", total: 10))
        XCTAssertEqual(DownloadStateFile.read(path("a.part.state"))?.bytes, 0)
        try append(partial, Array("hello".utf8))
        // Buffered, not yet checkpointed: the state still says 0.
        XCTAssertEqual(DownloadStateFile.read(path("a.part.state"))?.bytes, 0)
        try partial.checkpointNow()
        let state = DownloadStateFile.read(path("a.part.state"))
        XCTAssertEqual(state?.bytes, 5)
        XCTAssertEqual(state?.total, 10)
        XCTAssertEqual(contents("a.part"), Array("hello".utf8))
        try append(partial, Array("wor".utf8))
        partial.suspend()
        XCTAssertEqual(DownloadStateFile.read(path("a.part.state"))?.bytes, 8)
        XCTAssertEqual(contents("a.part"), Array("hellowor".utf8))
    }

    func testTheWorkerCheckpointsWhatReachedTheFile() throws {
        let partial = try PartialFile(path: path("w.part"), state: DownloadState(url: "u"))
        try partial.start(at: 0, state: DownloadState(url: "u", total: 40_000))
        // Chunks this big go straight to the file; the worker vouches for them within its interval.
        try append(partial, [UInt8](repeating: 7, count: 20_000))
        let deadline = Date().addingTimeInterval(5)
        while DownloadStateFile.read(path("w.part.state"))?.bytes != 20_000 && Date() < deadline {
            usleep(20_000)
        }
        XCTAssertEqual(DownloadStateFile.read(path("w.part.state"))?.bytes, 20_000)
        XCTAssertEqual(DownloadStateFile.read(path("w.part.state"))?.total, 40_000)
        try append(partial, [UInt8](repeating: 8, count: 20_000))
        partial.suspend()
        XCTAssertEqual(DownloadStateFile.read(path("w.part.state"))?.bytes, 40_000)
    }

    func testStartingAtAnOffsetDropsUnvouchedBytes() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: path("b.part"), contents: Data("0123456789".utf8)))
        let partial = try PartialFile(path: path("b.part"), state: DownloadState(url: "u", bytes: 4))
        try partial.start(at: 4, state: DownloadState(url: "u", bytes: 4, total: 6))
        try append(partial, Array("ab".utf8))
        try partial.finishWriting()
        XCTAssertEqual(contents("b.part"), Array("0123ab".utf8))
    }

    func testASecondWriterIsRefused() throws {
        let first = try PartialFile(path: path("c.part"), state: DownloadState(url: "u"))
        XCTAssertThrowsError(try PartialFile(path: path("c.part"), state: DownloadState(url: "u"))) { error in
            XCTAssertEqual(error as? DownloadError, .busy(path: self.path("c.part")))
        }
        first.closeFile()
        XCTAssertNoThrow(try PartialFile(path: path("c.part"), state: DownloadState(url: "u")))
    }

    func testInstallNeverClobbersAFileThatAppeared() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: path("d.bin"), contents: Data("theirs".utf8)))
        let partial = try PartialFile(path: path("d.bin.part"), state: DownloadState(url: "u"))
        try partial.start(at: 0, state: DownloadState(url: "u"))
        try append(partial, Array("ours".utf8))
        try partial.finishWriting()
        let installed = try partial.install(as: path("d.bin"), replacing: false)
        XCTAssertEqual(installed, path("d-1.bin"))
        XCTAssertEqual(contents("d.bin"), Array("theirs".utf8))
        XCTAssertEqual(contents("d-1.bin"), Array("ours".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("d.bin.part")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("d.bin.part.state")))
    }

    func testInstallReplacingRenamesOverTheTarget() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: path("e.bin"), contents: Data("old".utf8)))
        let partial = try PartialFile(path: path("e.bin.part"), state: DownloadState(url: "u"))
        try partial.start(at: 0, state: DownloadState(url: "u"))
        try append(partial, Array("new".utf8))
        try partial.finishWriting()
        XCTAssertEqual(try partial.install(as: path("e.bin"), replacing: true), path("e.bin"))
        XCTAssertEqual(contents("e.bin"), Array("new".utf8))
    }

    func testStateCreationClaimsANameOnce() throws {
        XCTAssertTrue(try DownloadStateFile.create(DownloadState(url: "one"), at: path("f.part.state")))
        XCTAssertFalse(try DownloadStateFile.create(DownloadState(url: "two"), at: path("f.part.state")))
        XCTAssertEqual(DownloadStateFile.read(path("f.part.state"))?.url, "one")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
        XCTAssertEqual(leftovers, ["f.part.state"])
    }

    func testPrefixHashMatchesTheWholeFileDigest() throws {
        let data = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path("g.bin"), contents: Data(data)))
        XCTAssertEqual(try PartialFile.digest(ofFileAt: path("g.bin")) { false }, SHA256.hash(data))
        let partial = try PartialFile(path: path("g.bin"), state: DownloadState(url: "u"))
        var hasher = SHA256()
        try partial.hashPrefix(100_000, into: &hasher) { false }
        hasher.update(Array(data[100_000...]))
        XCTAssertEqual(hasher.finalize(), SHA256.hash(data))
    }
}
