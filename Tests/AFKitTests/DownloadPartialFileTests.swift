import Foundation
import XCTest

@testable import AFKit

/// The partial file and its state on a real file system: the state never claims more than is on
/// disk, the lock keeps a second writer out, and the finished file never clobbers one that
/// appeared meanwhile. The tests that write run twice: around the page cache (O_DIRECT, where the
/// file system allows it) and through it.
final class DownloadPartialFileTests: TemporaryDirectoryTestCase {
    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func contents(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(name)).map { [UInt8]($0) }
    }

    private func append(_ partial: PartialFile, _ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try partial.append($0) }
    }

    func testStateNeverClaimsMoreThanTheFileHolds() throws {
        for directIO in [true, false] {
            let name = "a\(directIO).part"
            let partial = try PartialFile(path: path(name), state: DownloadState(url: "http://h/a"), directIO: directIO)
            try partial.start(at: 0, state: DownloadState(url: "http://h/a", total: 10))
            XCTAssertEqual(DownloadStateFile.read(path(name + ".state"))?.bytes, 0)
            try append(partial, Array("hello".utf8))
            // Buffered, not yet checkpointed: the state still says 0.
            XCTAssertEqual(DownloadStateFile.read(path(name + ".state"))?.bytes, 0)
            try partial.checkpointNow()
            let state = DownloadStateFile.read(path(name + ".state"))
            XCTAssertEqual(state?.bytes, 5)
            XCTAssertEqual(state?.total, 10)
            // Written directly, the file is preallocated to the announced total meanwhile.
            XCTAssertEqual(contents(name)?.prefix(5), Array("hello".utf8)[...])
            try append(partial, Array("wor".utf8))
            partial.suspend()
            XCTAssertEqual(DownloadStateFile.read(path(name + ".state"))?.bytes, 8)
            XCTAssertEqual(contents(name), Array("hellowor".utf8))
        }
    }

    func testTheWorkerCheckpointsWhatReachedTheFile() throws {
        for directIO in [true, false] {
            let name = "w\(directIO).part"
            let partial = try PartialFile(path: path(name), state: DownloadState(url: "u"), directIO: directIO)
            try partial.start(at: 0, state: DownloadState(url: "u", total: 40_001))
            // Through the page cache, chunks this big go straight to the file. Around it, a buffer
            // that is not full is written once it is older than DirectWriter.maximumAge, when the
            // next chunk comes. Either way the worker vouches for the bytes within its interval.
            try append(partial, [UInt8](repeating: 7, count: 20_000))
            if partial.writesDirectly {
                usleep(UInt32(DirectWriter.maximumAge * 1_000_000) + 50_000)
            }
            // (Through the page cache this byte stays in the WriteBuffer.)
            try append(partial, [9])
            let reached: Int64 = partial.writesDirectly ? 20_001 : 20_000
            let deadline = Date().addingTimeInterval(5)
            while DownloadStateFile.read(path(name + ".state"))?.bytes != reached && Date() < deadline {
                usleep(20_000)
            }
            XCTAssertEqual(DownloadStateFile.read(path(name + ".state"))?.bytes, reached)
            XCTAssertEqual(DownloadStateFile.read(path(name + ".state"))?.total, 40_001)
            try append(partial, [UInt8](repeating: 8, count: 20_000))
            partial.suspend()
            XCTAssertEqual(DownloadStateFile.read(path(name + ".state"))?.bytes, 40_001)
            XCTAssertEqual(contents(name)?.count, 40_001)
        }
    }

    func testStartingAtAnOffsetDropsUnvouchedBytes() throws {
        for directIO in [true, false] {
            let name = "b\(directIO).part"
            XCTAssertTrue(FileManager.default.createFile(atPath: path(name), contents: Data("0123456789".utf8)))
            let partial = try PartialFile(
                path: path(name), state: DownloadState(url: "u", bytes: 4), directIO: directIO)
            try partial.start(at: 4, state: DownloadState(url: "u", bytes: 4, total: 6))
            try append(partial, Array("ab".utf8))
            try partial.finishWriting()
            XCTAssertEqual(contents(name), Array("0123ab".utf8))
        }
    }

    func testPreallocatedSpaceIsCutBackWhenLessArrives() throws {
        let partial = try PartialFile(path: path("p.part"), state: DownloadState(url: "u"))
        try partial.start(at: 0, state: DownloadState(url: "u", total: 1 << 20))
        try append(partial, [UInt8](repeating: 1, count: 10_000))
        try partial.finishWriting()
        XCTAssertEqual(contents("p.part")?.count, 10_000)
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
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertEqual(leftovers, ["f.part.state"])
    }

    func testPrefixHashMatchesTheWholeFileDigest() throws {
        let data = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path("g.bin"), contents: Data(data)))
        XCTAssertEqual(try PartialFile.digest(ofFileAt: path("g.bin")) { false }, SHA256.hash(data))
        let partial = try PartialFile(path: path("g.bin"), state: DownloadState(url: "u"))
        let hasher = BodyDigest()
        try partial.hashPrefix(100_000, into: hasher) { false }
        data[100_000...].withUnsafeBytes { hasher.update($0) }
        XCTAssertEqual(hasher.finalizeBytes(), SHA256.hash(data))
    }

    // MARK: - Files afcli does not own

    /// The problem `PartialFile` reports for what is at `name`, nil when it opens.
    private func problem(opening name: String) -> UnsafeFileProblem? {
        do {
            _ = try PartialFile(path: path(name), state: DownloadState(url: "http://h/a"))
            return nil
        } catch {
            guard case .unsafeFile(_, let problem) = error else { return nil }
            return problem
        }
    }

    func testLinksDevicesAndOtherUsersFilesAreRefused() throws {
        let victim = try makeFile("victim", Array("precious".utf8))
        XCTAssertEqual(symlink(victim, path("link.part")), 0)
        XCTAssertEqual(problem(opening: "link.part"), .symbolicLink)
        // A dangling link is not created through either.
        XCTAssertEqual(symlink(path("nowhere"), path("dangling.part")), 0)
        XCTAssertEqual(problem(opening: "dangling.part"), .symbolicLink)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("nowhere")))
        XCTAssertEqual(mkfifo(path("fifo.part"), 0o600), 0)
        XCTAssertEqual(problem(opening: "fifo.part"), .notRegular)
        XCTAssertEqual(contents("victim"), Array("precious".utf8))
        if geteuid() == 0 {
            _ = try makeFile("foreign.part", [1, 2, 3])
            XCTAssertEqual(chown(path("foreign.part"), 65534, 65534), 0)
            XCTAssertEqual(problem(opening: "foreign.part"), .foreignOwner)
            XCTAssertEqual(
                DownloadStateFile.load(path("foreign.part")), .unusable(.unsafe(.foreignOwner)))
        }
    }

    func testStateFilesArePrivateAndReplaceLinksAtTheirNames() throws {
        let victim = try makeFile("victim", Array("precious".utf8))
        XCTAssertEqual(symlink(victim, path("s.part.state")), 0)
        XCTAssertEqual(symlink(victim, path("s.part.state.tmp")), 0)
        XCTAssertEqual(DownloadStateFile.load(path("s.part.state")), .unusable(.unsafe(.symbolicLink)))
        try DownloadStateFile.write(DownloadState(url: "http://h/s", bytes: 3), to: path("s.part.state"))
        XCTAssertEqual(contents("victim"), Array("precious".utf8))
        XCTAssertEqual(DownloadStateFile.read(path("s.part.state"))?.bytes, 3)
        var info = stat()
        XCTAssertEqual(lstat(path("s.part.state"), &info), 0)
        XCTAssertEqual(info.st_mode & 0o7777, 0o600)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
        XCTAssertTrue(try DownloadStateFile.create(DownloadState(url: "http://h/n"), at: path("n.part.state")))
        XCTAssertEqual(lstat(path("n.part.state"), &info), 0)
        XCTAssertEqual(info.st_mode & 0o7777, 0o600)
    }

    func testInstallRefusesANameThatNoLongerLeadsToTheFile() throws {
        let partial = try PartialFile(path: path("r.part"), state: DownloadState(url: "http://h/r"))
        try partial.start(at: 0, state: DownloadState(url: "http://h/r"))
        try append(partial, Array("data".utf8))
        try partial.finishWriting()
        // Swapped for a link meanwhile: the link is not renamed into place.
        let victim = try makeFile("victim", Array("precious".utf8))
        XCTAssertEqual(unlink(path("r.part")), 0)
        XCTAssertEqual(symlink(victim, path("r.part")), 0)
        XCTAssertThrowsError(try partial.install(as: path("r"), replacing: true)) { error in
            XCTAssertEqual(error as? DownloadError, .unsafeFile(path: path("r.part"), problem: .replaced))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("r")))
        partial.closeFile()
    }
}
