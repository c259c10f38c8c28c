import AFCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How fast a request body may go out (`--throttle`).
package enum UploadThrottle: Equatable, Sendable {
    /// AF's `throttleBandwidthWithPacketSize:delay:`: each read gives at most `size` bytes and is
    /// followed by a pause of `delay` seconds.
    case packets(size: Int, delay: Double)
    /// At most `bytesPerSecond` on average, paced against the clock.
    case rate(bytesPerSecond: Int)

    /// AF's suggested values for 3G (`kAFUploadStream3GSuggestedPacketSize` and
    /// `kAFUploadStream3GSuggestedDelay`): 16384-byte packets 0.2 s apart, about 80 KiB/s.
    package static let threeG = UploadThrottle.packets(size: 16_384, delay: 0.2)

    /// Parses `3g` (AF's preset) or a rate in bytes per second with an optional `k` (×1024) or
    /// `m` (×1024²) suffix, as curl's `--limit-rate` reads it; nil for anything else.
    package init?(parsing text: String) {
        let lower = text.lowercased()
        if lower == "3g" {
            self = .threeG
            return
        }
        var digits = Substring(lower)
        var multiplier = 1
        if digits.hasSuffix("k") {
            multiplier = 1024
            digits = digits.dropLast()
        } else if digits.hasSuffix("m") {
            multiplier = 1024 * 1024
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(digits),
            number > 0
        else { return nil }
        let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        self = .rate(bytesPerSecond: product)
    }
}

/// Paces any body source: AF's packet-and-delay throttling, or a steady rate.
///
/// The pause happens inside libcurl's read callback, as AF's `AFMultipartBodyStream` sleeps inside
/// `read:maxLength:`; it never exceeds one packet's delay (or a tenth of a second at a rate), so
/// interruptions and timeouts are still noticed promptly between reads.
package final class ThrottledBodySource: BodySource {
    /// The paced source.
    package let base: BodySource
    /// How it is paced.
    package let throttle: UploadThrottle
    /// When the first byte was delivered (rate pacing), in monotonic seconds.
    private var start: Double?
    /// Bytes delivered since the start or the last rewind.
    private var delivered: UInt64 = 0

    /// Wraps `base`, paced by `throttle`.
    package init(_ base: BodySource, throttle: UploadThrottle) {
        self.base = base
        self.throttle = throttle
    }

    package var length: UInt64? { base.length }

    /// Reads at most one packet (or a tenth of a second's worth at a rate) and waits as long as
    /// the pacing asks before handing it over.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch throttle {
        case .packets(let size, let delay):
            let count = try base.read(into: Self.prefix(buffer, max(size, 1)))
            if count > 0 { Self.sleep(delay) }
            return count
        case .rate(let bytesPerSecond):
            let now = Self.monotonicSeconds()
            let started = start ?? now
            start = started
            let count = try base.read(into: Self.prefix(buffer, max(bytesPerSecond / 10, 1)))
            delivered += UInt64(count)
            // The moment these bytes are due at the given rate; wait for it if it is still ahead.
            let due = started + Double(delivered) / Double(bytesPerSecond)
            let wait = due - Self.monotonicSeconds()
            if count > 0, wait > 0 { Self.sleep(wait) }
            return count
        }
    }

    /// Rewinds the paced source and starts pacing afresh.
    package func rewind() throws {
        try base.rewind()
        start = nil
        delivered = 0
    }

    /// The first `count` bytes of `buffer` (all of it when shorter).
    private static func prefix(_ buffer: UnsafeMutableRawBufferPointer, _ count: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(count, buffer.count)])
    }

    /// Seconds since an arbitrary point, from the monotonic clock.
    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }

    /// Sleeps `seconds`; a signal cuts the sleep short, so Ctrl-C is seen at the next check.
    static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1_000_000_000))
        _ = nanosleep(&request, nil)
    }
}
