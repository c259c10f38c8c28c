import Foundation
import Glibc
import XCTest

@testable import AFKit

/// The O_DIRECT writer on the test machine's file system (skipped where it refuses O_DIRECT):
/// every byte lands at its offset whatever the chunk sizes, a ragged head or tail, or drains in
/// the middle, and `completed` never runs ahead of the file.
final class DownloadDirectWriterTests: TemporaryDirectoryTestCase {
    /// Bytes that differ at every offset, so a misplaced block shows.
    private func pattern(_ count: Int, seed: UInt32 = 1) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// Opens `name` (creating it with `existing` bytes) and a writer continuing at its end.
    private func open(_ name: String, existing: [UInt8] = [], total: Int64?) throws -> (
        DirectWriter, Int32, String
    ) {
        let path = try makeFile(name, existing)
        let descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        guard let writer = DirectWriter(path: path, descriptor: descriptor, offset: Int64(existing.count), total: total)
        else {
            close(descriptor)
            throw XCTSkip("this file system refuses O_DIRECT")
        }
        return (writer, descriptor, path)
    }

    /// Appends `bytes` in chunks cycling through `sizes`.
    private func feed(_ writer: DirectWriter, _ bytes: [UInt8], sizes: [Int]) throws {
        var offset = 0
        var turn = 0
        while offset < bytes.count {
            let count = min(sizes[turn % sizes.count], bytes.count - offset)
            try bytes[offset..<(offset + count)].withUnsafeBytes { try writer.append($0) }
            offset += count
            turn += 1
        }
    }

    private func contents(_ path: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: path) ?? Data())
    }

    func testAWholeBodyInOddChunksLandsByteForByte() throws {
        let body = pattern(3 * DirectWriter.bufferSize + 12_345)
        let (writer, descriptor, path) = try open("whole.part", total: Int64(body.count))
        defer { close(descriptor) }
        // Preallocated to the announced length from the start.
        XCTAssertEqual(FileIO.size(of: descriptor), Int64(body.count))
        try feed(writer, body, sizes: [16_384, 1, 524_288, 70_001, 4096])
        XCTAssertEqual(writer.accepted, Int64(body.count))
        XCTAssertEqual(try writer.drain(), Int64(body.count))
        writer.stop()
        XCTAssertEqual(contents(path), body)
    }

    func testAResumeOffTheBlockGridKeepsTheHeadAndAlignsTheRest() throws {
        let head = pattern(5_000, seed: 2)
        let body = pattern(2 * DirectWriter.bufferSize + 777, seed: 3)
        let (writer, descriptor, path) = try open("head.part", existing: head, total: nil)
        defer { close(descriptor) }
        try feed(writer, body, sizes: [100_000])
        XCTAssertEqual(try writer.drain(), Int64(head.count + body.count))
        writer.stop()
        XCTAssertEqual(contents(path), head + body)
    }

    func testDrainingMidwayAndGoingOn() throws {
        let first = pattern(DirectWriter.bufferSize / 2 + 3, seed: 4)
        let second = pattern(DirectWriter.bufferSize + 9, seed: 5)
        let (writer, descriptor, path) = try open("midway.part", total: Int64(first.count + second.count))
        defer { close(descriptor) }
        try feed(writer, first, sizes: [65_536])
        // Drained, every accepted byte is in the file: what a checkpoint may claim.
        XCTAssertEqual(try writer.drain(), Int64(first.count))
        XCTAssertEqual(Array(contents(path).prefix(first.count)), first)
        try feed(writer, second, sizes: [65_536])
        XCTAssertEqual(try writer.drain(), Int64(first.count + second.count))
        writer.stop()
        XCTAssertEqual(contents(path), first + second)
    }

    func testCompletedNeverRunsAheadOfTheFile() throws {
        let body = pattern(4 * DirectWriter.bufferSize, seed: 6)
        let (writer, descriptor, path) = try open("ahead.part", total: nil)
        defer { close(descriptor) }
        try feed(writer, body, sizes: [100_003])
        let completed = Int(writer.completed)
        XCTAssertLessThanOrEqual(completed, body.count)
        XCTAssertEqual(Array(contents(path).prefix(completed)), Array(body.prefix(completed)))
        writer.stop()
    }

    func testPreallocationGrowsInStepsNotToTheClaimedLength() throws {
        // A server claiming 1 GiB that sends a few bytes: a few MiB are reserved, not 1 GiB.
        let claimed: Int64 = 1 << 30
        let (writer, descriptor, _) = try open("liar.part", total: claimed)
        defer { close(descriptor) }
        try feed(writer, Array("hello".utf8), sizes: [5])
        XCTAssertEqual(try writer.drain(), 5)
        let first = try XCTUnwrap(FileIO.allocatedBytes(of: descriptor))
        XCTAssertLessThanOrEqual(first, DirectWriter.minimumStep + Int64(2 * DirectWriter.bufferSize))
        XCTAssertLessThanOrEqual(writer.allocatedEnd, DirectWriter.minimumStep + Int64(DirectWriter.bufferSize))
        // As data arrives the reservation stays ahead of every buffer, and within a step of the data.
        let body = [UInt8](repeating: 0x5A, count: 24 * DirectWriter.bufferSize + 99)
        var offset = 0
        while offset < body.count {
            let count = min(300_007, body.count - offset)
            try body[offset..<(offset + count)].withUnsafeBytes { try writer.append($0) }
            offset += count
            XCTAssertGreaterThanOrEqual(writer.allocatedEnd, writer.accepted)
            XCTAssertLessThanOrEqual(
                writer.allocatedEnd, writer.accepted + DirectWriter.maximumStep + Int64(DirectWriter.bufferSize))
            XCTAssertLessThanOrEqual(writer.allocatedEnd, claimed)
        }
        XCTAssertEqual(try writer.drain(), Int64(5 + body.count))
        writer.stop()
        XCTAssertLessThan(try XCTUnwrap(FileIO.allocatedBytes(of: descriptor)), 64 << 20)
    }

    func testPreallocationNeverPassesTheTotal() throws {
        let body = pattern(DirectWriter.bufferSize + 10, seed: 8)
        let (writer, descriptor, path) = try open("exact.part", total: Int64(body.count))
        defer { close(descriptor) }
        XCTAssertEqual(FileIO.size(of: descriptor), Int64(body.count))
        try feed(writer, body, sizes: [65_536])
        XCTAssertEqual(try writer.drain(), Int64(body.count))
        writer.stop()
        XCTAssertEqual(contents(path), body)
    }
}
