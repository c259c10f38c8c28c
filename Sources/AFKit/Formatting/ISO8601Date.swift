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
        let whole = unixSeconds.rounded(.down)
        let seconds = Int64(whole)
        let millis = min(999, Int64(((unixSeconds - whole) * 1000).rounded(.down)))
        var days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        // Howard Hinnant's civil_from_days.
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(year)
        let fraction = milliseconds ? "." + (millis < 100 ? "0" : "") + two(millis) : ""
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + two(month) + "-" + two(day)
            + "T" + two(secondOfDay / 3600) + ":" + two(secondOfDay / 60 % 60) + ":" + two(secondOfDay % 60) + fraction
            + "Z"
    }
}
