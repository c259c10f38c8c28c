/// The dates of `{{$datetime}}`, `{{$localDatetime}}` and `{{$timestamp}}`, as the VS Code REST
/// Client writes them: RFC 1123, ISO 8601, or a Day.js format (`YYYY-MM-DD`), after an offset
/// (`1 d`, `-3 h`).
///
/// The arithmetic is done here on proleptic Gregorian dates (Howard Hinnant's algorithms), never
/// through Foundation's ICU-backed formatters, which afcli keeps off its start-up path. Times are
/// milliseconds since the epoch; a local time is the UTC time shifted by the zone's offset.
package enum HTTPFileDateFormat {
    /// The earliest and latest instants accepted: years 1 to 9999, as Day.js formats them.
    static let range: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// A date and time of day, with the weekday (0 for Sunday).
    struct Civil: Equatable {
        var year: Int64
        var month: Int64
        var day: Int64
        var hour: Int64
        var minute: Int64
        var second: Int64
        var millisecond: Int64
        var weekday: Int64
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// The civil date and time `milliseconds` after the epoch (UTC), by Howard Hinnant's civil_from_days.
    static func civil(_ milliseconds: Int64) -> Civil {
        let (days, rest) = floorDivide(milliseconds, 86_400_000)
        // civil_from_days, for days since 1970-01-01.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return Civil(
            year: year, month: month, day: day, hour: rest / 3_600_000, minute: rest / 60_000 % 60,
            second: rest / 1000 % 60, millisecond: rest % 1000, weekday: floorDivide(days + 4, 7).remainder)
    }

    /// Milliseconds since the epoch of a civil date and time (the weekday is not read).
    static func milliseconds(_ civil: Civil) -> Int64 {
        let year = civil.month <= 2 ? civil.year - 1 : civil.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (civil.month + (civil.month > 2 ? -3 : 9)) + 2) / 5 + civil.day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400_000 + civil.hour * 3_600_000 + civil.minute * 60_000 + civil.second * 1000
            + civil.millisecond
    }

    /// `milliseconds` moved by `amount` of `unit` (REST Client's `y`, `Q`, `M`, `w`, `d`, `h`, `m`,
    /// `s`, `ms`); nil for another unit or a result outside years 1 to 9999. Months and years keep
    /// the day of the month, or the month's last day when it has fewer (Jan 31 + 1 M = Feb 28).
    static func adding(_ amount: Int64, _ unit: String, to milliseconds: Int64) -> Int64? {
        let months: Int64
        switch unit {
        case "y": months = 12
        case "Q": months = 3
        case "M": months = 1
        default:
            let scale: Int64
            switch unit {
            case "w": scale = 604_800_000
            case "d": scale = 86_400_000
            case "h": scale = 3_600_000
            case "m": scale = 60_000
            case "s": scale = 1000
            case "ms": scale = 1
            default: return nil
            }
            let (delta, overflow) = amount.multipliedReportingOverflow(by: scale)
            guard !overflow, case (let result, false) = milliseconds.addingReportingOverflow(delta),
                range.contains(result)
            else { return nil }
            return result
        }
        // Within range, a date is at most 120,000 months from any other: a larger amount is out of it.
        guard abs(amount) <= 1_000_000 else { return nil }
        var date = civil(milliseconds)
        let index = date.year * 12 + (date.month - 1) + amount * months
        date.year = floorDivide(index, 12).quotient
        date.month = floorDivide(index, 12).remainder + 1
        guard (1...9999).contains(date.year) else { return nil }
        date.day = min(date.day, daysIn(month: date.month, year: date.year))
        return Self.milliseconds(date)
    }

    /// `Sun, 30 Jun 2024 04:09:33 GMT`, as JavaScript's `toUTCString` writes it.
    static func rfc1123(_ milliseconds: Int64) -> String {
        format("ddd, DD MMM YYYY HH:mm:ss [GMT]", milliseconds: milliseconds, offsetSeconds: 0)
    }

    /// `2024-06-30T04:09:33.000Z`, as JavaScript's `toISOString` writes it.
    static func iso8601(_ milliseconds: Int64) -> String {
        format("YYYY-MM-DD[T]HH:mm:ss.SSS[Z]", milliseconds: milliseconds, offsetSeconds: 0)
    }

    /// The instant `utcMilliseconds` in a zone `offsetSeconds` east of UTC, written with Day.js's
    /// format tokens: `YY` `YYYY`, `M` `MM` `MMM` `MMMM`, `D` `DD`, `d` `dd` `ddd` `dddd`, `H` `HH`,
    /// `h` `hh`, `m` `mm`, `s` `ss`, `SSS`, `A` `a`, `Z` (`+05:30`) `ZZ` (`+0530`); `[text]` is
    /// literal, and so is every other character. Names are English, as Day.js's default locale.
    package static func format(_ pattern: String, milliseconds utcMilliseconds: Int64, offsetSeconds: Int) -> String {
        let date = civil(utcMilliseconds + Int64(offsetSeconds) * 1000)
        let characters = Array(pattern)
        var output = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "[", let close = characters[(index + 1)...].firstIndex(of: "]"), close > index + 1 {
                output += String(characters[(index + 1)..<close])
                index = close + 1
                continue
            }
            if character == "S" {
                if index + 3 <= characters.count, characters[index..<(index + 3)].allSatisfy({ $0 == "S" }) {
                    output += pad(date.millisecond, 3)
                    index += 3
                } else {
                    output.append(character)
                    index += 1
                }
                continue
            }
            let longest: Int
            switch character {
            case "Y", "M", "d": longest = 4
            case "D", "H", "h", "m", "s", "Z": longest = 2
            case "A", "a": longest = 1
            default:
                output.append(character)
                index += 1
                continue
            }
            var count = 1
            while count < longest, index + count < characters.count, characters[index + count] == character {
                count += 1
            }
            output += token(character, count: count, date: date, offsetSeconds: offsetSeconds)
            index += count
        }
        return output
    }

    /// The text of one token, `count` repeats of `letter`.
    private static func token(_ letter: Character, count: Int, date: Civil, offsetSeconds: Int) -> String {
        switch (letter, count) {
        case ("Y", 2): return pad(date.year % 100, 2)
        case ("Y", 4): return pad(date.year, 4)
        case ("M", 1): return String(date.month)
        case ("M", 2): return pad(date.month, 2)
        case ("M", 3): return String(monthNames[Int(date.month - 1)].prefix(3))
        case ("M", 4): return monthNames[Int(date.month - 1)]
        case ("D", 1): return String(date.day)
        case ("D", 2): return pad(date.day, 2)
        case ("d", 1): return String(date.weekday)
        case ("d", 2): return String(dayNames[Int(date.weekday)].prefix(2))
        case ("d", 3): return String(dayNames[Int(date.weekday)].prefix(3))
        case ("d", 4): return dayNames[Int(date.weekday)]
        case ("H", 1): return String(date.hour)
        case ("H", 2): return pad(date.hour, 2)
        case ("h", _):
            let hour = date.hour % 12 == 0 ? 12 : date.hour % 12
            return count == 1 ? String(hour) : pad(hour, 2)
        case ("m", 1): return String(date.minute)
        case ("m", 2): return pad(date.minute, 2)
        case ("s", 1): return String(date.second)
        case ("s", 2): return pad(date.second, 2)
        case ("A", _): return date.hour < 12 ? "AM" : "PM"
        case ("a", _): return date.hour < 12 ? "am" : "pm"
        case ("Z", _):
            let sign = offsetSeconds < 0 ? "-" : "+"
            let minutes = Int64(abs(offsetSeconds) / 60)
            return sign + pad(minutes / 60, 2) + (count == 1 ? ":" : "") + pad(minutes % 60, 2)
        default:
            // `Y` and `YYY` are no Day.js token: kept as written.
            return String(repeating: letter, count: count)
        }
    }

    /// `value` in decimal with leading zeros to `width` digits.
    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The number of days in `month` (1-12) of `year`.
    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Division rounding toward negative infinity, and its non-negative remainder.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value / divisor - (value % divisor < 0 ? 1 : 0)
        return (quotient, value - quotient * divisor)
    }
}
