import AFKit
import XCTest

/// SHA-256 against the FIPS 180-2 test vectors (appendix B), written out here, and incremental
/// hashing split at every awkward boundary.
final class DownloadSHA256Tests: XCTestCase {
    private func hex(_ text: String) -> String {
        SHA256.hex(SHA256.hash(Array(text.utf8)))
    }

    func testEmptyMessage() {
        XCTAssertEqual(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testOneBlockMessageABC() {
        XCTAssertEqual(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testTwoBlockMessage448Bits() {
        XCTAssertEqual(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testMessage896Bits() {
        XCTAssertEqual(
            hex(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                    + "mnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    func testOneMillionA() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        XCTAssertEqual(hasher.byteCount, 1_000_000)
        XCTAssertEqual(
            SHA256.hex(hasher.finalize()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testIncrementalUpdatesMatchOneShot() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let expected = SHA256.hash(message)
        for split in [1, 3, 55, 56, 63, 64, 65, 127, 128, 500] {
            var hasher = SHA256()
            var index = 0
            while index < message.count {
                let end = min(index + split, message.count)
                hasher.update(Array(message[index..<end]))
                index = end
            }
            XCTAssertEqual(hasher.finalize(), expected, "split \(split)")
        }
    }

    func testPaddingBoundaries() {
        // Lengths around 55/56/64 bytes exercise the one- and two-block padding cases; the
        // expected digests are sha256sum's.
        XCTAssertEqual(
            hex(String(repeating: "a", count: 55)),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        XCTAssertEqual(
            hex(String(repeating: "a", count: 56)),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        XCTAssertEqual(
            hex(String(repeating: "a", count: 64)),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    func testHexRoundTripAndRejects() {
        let digest = SHA256.hash(Array("abc".utf8))
        XCTAssertEqual(SHA256.parseHex(SHA256.hex(digest)), digest)
        XCTAssertEqual(
            SHA256.parseHex("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"), digest)
        XCTAssertNil(SHA256.parseHex("abc"))
        XCTAssertNil(SHA256.parseHex(String(repeating: "g", count: 64)))
        XCTAssertNil(SHA256.parseHex(String(repeating: "0", count: 65)))
    }
}
