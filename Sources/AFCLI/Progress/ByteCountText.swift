/// Human-readable sizes, rates and durations for progress displays, without Foundation's
/// formatters (which would pull ICU into every run).
///
/// Sizes use binary units as curl and wget do (`1.5 MiB`), with one decimal from KiB up.
package enum ByteCountText {
    /// The binary unit names, from bytes up.
    private static let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]

    /// A byte count such as `512 B`, `37.2 MiB` or `1.0 GiB`.
    package static func size(_ bytes: Int64) -> String {
        scaled(Double(max(bytes, 0)))
    }

    /// A rate such as `12.3 MiB/s`.
    package static func rate(_ bytesPerSecond: Double) -> String {
        guard bytesPerSecond.isFinite, bytesPerSecond > 0 else { return "0 B/s" }
        return scaled(bytesPerSecond) + "/s"
    }

    /// A duration as `m:ss`, or `h:mm:ss` from an hour up; `--:--` when it is not finite.
    package static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 360_000 else { return "--:--" }
        let whole = Int(seconds.rounded())
        let hours = whole / 3600
        let minutes = (whole % 3600) / 60
        let secs = whole % 60
        let paddedSeconds = secs < 10 ? "0\(secs)" : "\(secs)"
        if hours > 0 {
            let paddedMinutes = minutes < 10 ? "0\(minutes)" : "\(minutes)"
            return "\(hours):\(paddedMinutes):\(paddedSeconds)"
        }
        return "\(minutes):\(paddedSeconds)"
    }

    /// `value` in the largest unit that keeps it under 1024, with one decimal above bytes.
    private static func scaled(_ value: Double) -> String {
        var scaled = value
        var unit = 0
        // Rounding to one decimal can reach 1024.0, which reads better as the next unit.
        while scaled >= 1023.95, unit < units.count - 1 {
            scaled /= 1024
            unit += 1
        }
        if unit == 0 { return "\(Int(scaled)) B" }
        let tenths = Int((scaled * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
