import CAllocator
import Foundation
import Glibc
import XCTest

/// CAllocator: the process's malloc is glibc's until `afalloc_use_concurrent` switches new
/// allocations to mimalloc; a block is freed, reallocated and measured by the allocator that made
/// it, whichever thread does it. The switch is for the whole process and one-way, so every test
/// here runs with it made (as every test that spreads a `LaneEngine` does).
final class ProcessAllocatorTests: XCTestCase {
    /// Makes the switch, or skips: without libmimalloc (which `make`'s dependencies install) and
    /// under a sanitizer, whose runtime owns malloc, glibc keeps serving and there is nothing to
    /// test here.
    private func switchToMimalloc() throws {
        try XCTSkipUnless(afalloc_use_concurrent() == 1, "mimalloc not installed, or a sanitizer owns malloc")
    }

    func testTheSwitchIsMadeOnceAndKept() throws {
        try switchToMimalloc()
        XCTAssertEqual(afalloc_use_concurrent(), 1)
        XCTAssertEqual(afalloc_concurrent_active(), 1)
        let handle = try XCTUnwrap(dlopen("libmimalloc.so.2", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD))
        defer { dlclose(handle) }
        let owns = unsafeBitCast(
            try XCTUnwrap(dlsym(handle, "mi_is_in_heap_region")), to: (@convention(c) (UnsafeRawPointer?) -> Bool).self)
        let new = malloc(48)
        let old = glibcMalloc(48)
        XCTAssertTrue(owns(new), "a block made after the switch is mimalloc's")
        XCTAssertFalse(owns(old))
        free(new)
        free(old)
    }

    /// Blocks made before the switch (here: made by glibc directly, as every block of the process
    /// was before it) are measured and freed by glibc, and grown into mimalloc, their bytes kept.
    func testBlocksFromBeforeTheSwitchStayUsable() throws {
        try switchToMimalloc()
        let old = try XCTUnwrap(glibcMalloc(100))
        memset(old, 0x5A, 100)
        XCTAssertGreaterThanOrEqual(usableSize(old), 100)
        let grown = try XCTUnwrap(realloc(old, 10_000)).assumingMemoryBound(to: UInt8.self)
        XCTAssertTrue((0..<100).allSatisfy { grown[$0] == 0x5A })
        XCTAssertGreaterThanOrEqual(usableSize(grown), 10_000)
        free(grown)

        let other = try XCTUnwrap(glibcMalloc(64))
        free(other)
        let shrunk = try XCTUnwrap(glibcMalloc(64))
        XCTAssertNil(realloc(shrunk, 0), "realloc to 0 frees, as glibc's does")
    }

    func testTheMallocFamilyAfterTheSwitch() throws {
        try switchToMimalloc()
        let zeroed = try XCTUnwrap(calloc(1000, 8)).assumingMemoryBound(to: UInt64.self)
        XCTAssertTrue((0..<1000).allSatisfy { zeroed[$0] == 0 })
        free(zeroed)

        var aligned: UnsafeMutableRawPointer?
        XCTAssertEqual(posix_memalign(&aligned, 4096, 100), 0)
        XCTAssertEqual(Int(bitPattern: aligned) % 4096, 0)
        free(aligned)
        XCTAssertEqual(posix_memalign(&aligned, 3, 100), EINVAL)
        let page = try XCTUnwrap(aligned_alloc(64, 640))
        XCTAssertEqual(Int(bitPattern: page) % 64, 0)
        free(page)

        XCTAssertNil(reallocarray(nil, Int.max, 2), "count × size overflows")
        let array = try XCTUnwrap(reallocarray(nil, 10, 4))
        XCTAssertGreaterThanOrEqual(usableSize(array), 40)
        free(array)
        free(nil)

        // A block larger than most of the arena reserved for mimalloc (1 GiB) may come from outside
        // it: mimalloc is asked whether it is its own.
        let huge = try XCTUnwrap(malloc(900 << 20)).assumingMemoryBound(to: UInt8.self)
        huge[0] = 1
        huge[(900 << 20) - 1] = 2
        XCTAssertGreaterThanOrEqual(usableSize(huge), 900 << 20)
        free(huge)

        // strdup allocates inside glibc, through the process's malloc; its copy frees like any.
        let copy = try XCTUnwrap(strdup("afcli"))
        XCTAssertEqual(String(cString: copy), "afcli")
        free(copy)
    }

    /// Blocks made on one thread and freed on another, both ways, as a run's lanes do; Swift's
    /// own objects (arrays, strings) included.
    func testBlocksCrossThreads() throws {
        try switchToMimalloc()
        let count = 20_000
        final class Box: @unchecked Sendable {
            var blocks: [UnsafeMutableRawPointer?] = []
            var strings: [String] = []
        }
        let made = Box()
        made.blocks = (0..<count).map { malloc(16 + $0 % 2000) }
        made.strings = (0..<count).map { String(repeating: "x", count: 20 + $0 % 50) }
        let returned = Box()
        let done = DispatchSemaphore(value: 0)
        Thread {
            for block in made.blocks { free(block) }
            made.strings.removeAll()
            returned.blocks = (0..<count).map { malloc(8 + $0 % 300) }
            done.signal()
        }.start()
        done.wait()
        for (index, block) in returned.blocks.enumerated() {
            XCTAssertGreaterThanOrEqual(usableSize(block), 8 + index % 300)
            free(block)
        }
    }
}

/// The process's malloc_usable_size (Glibc's module map leaves malloc.h out).
private func usableSize(_ block: UnsafeMutableRawPointer?) -> Int {
    typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size") else { return -1 }
    return unsafeBitCast(symbol, to: UsableSize.self)(block)
}

/// glibc's own malloc, bypassing the process's: a block as every block was before the switch.
private func glibcMalloc(_ size: Int) -> UnsafeMutableRawPointer? {
    typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__libc_malloc") else { return nil }
    return unsafeBitCast(symbol, to: Malloc.self)(size)
}
