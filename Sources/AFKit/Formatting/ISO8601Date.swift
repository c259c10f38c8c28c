/// ISO 8601 dates in UTC (`2026-11-27T00:41:00Z`), made without Foundation: property lists'
/// dates (seconds since 2001-01-01) and the dates of run reports (seconds since 1970).
package enum ISO8601Date {
    /// `YYYY-MM-DDTHH:MM:SSZ` for a number of seconds since 2001-01-01 (fractions dropped).
    package static func text(referenceSeconds: Double) -> String {
        guard referenceSeconds.isFinite, abs(referenceSeconds) < 1e14 else { return "0001-01-01T00:00:00Z" }
        return text(unixSeconds: referenceSeconds + 978_307_200)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, or with `milliseconds` `YYYY-MM-DDTHH:MM:SS.mmmZ` (HAR's
    /// `startedDateTime`), for a number of seconds since 1970.
    package static func text(unixSeconds: Double, milliseconds: Bool = false) -> String {
        guard unixSeconds.isFinite, abs(unixSeconds) < 1e14 else { return "0001-01-01T00:00:00Z" }
        let date = HTTPFileDateFormat.civil(Int64((unixSeconds * 1000).rounded(.down)))
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(date.year)
        let millis = date.millisecond
        let fraction = milliseconds ? "." + (millis < 100 ? "0" : "") + two(millis) : ""
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + two(date.month) + "-"
            + two(date.day) + "T" + two(date.hour) + ":" + two(date.minute) + ":" + two(date.second) + fraction + "Z"
    }
}
