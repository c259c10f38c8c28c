import AFCurl

/// HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms a
/// recipient must accept, as seconds since the Unix epoch.
///
/// The grammar is taken exactly: fixed widths, single spaces, the comma, two-digit day and hour
/// (asctime's day may be a space and one digit), a four-digit year except in RFC 850's form, and
/// GMT. Anything else is no date: an `Expires` that is not one means already expired (RFC 9111
/// §5.3), so a lenient reading would keep a response that should not be reused. Only the case
/// of names is forgiven (`THU`, `AUG`, `gmt`), which changes no meaning.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The date in `text`, or nil when it is not an HTTP-date.
    package static func parse(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count <= 40 else { return nil }
        // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
        if bytes.count == 29 {
            guard word(bytes, 0..<3, in: days) != nil, bytes[3] == 0x2C, bytes[4] == 0x20, bytes[7] == 0x20,
                bytes[11] == 0x20, bytes[16] == 0x20, bytes[25] == 0x20, isGMT(bytes, at: 26),
                let day = number(bytes, 5..<7), let month = word(bytes, 8..<11, in: months),
                let year = number(bytes, 12..<16)
            else { return nil }
            return epoch(year: year, month: month, day: day, time: bytes, at: 17)
        }
        // asctime: "Sun Nov  6 08:49:37 1994".
        if bytes.count == 24 {
            guard word(bytes, 0..<3, in: days) != nil, bytes[3] == 0x20, bytes[7] == 0x20, bytes[10] == 0x20,
                bytes[19] == 0x20, let month = word(bytes, 4..<7, in: months),
                let day = bytes[8] == 0x20 ? number(bytes, 9..<10) : number(bytes, 8..<10),
                let year = number(bytes, 20..<24)
            else { return nil }
            return epoch(year: year, month: month, day: day, time: bytes, at: 11)
        }
        // RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT": a long day name, then 24 fixed bytes.
        guard let comma = bytes.firstIndex(of: 0x2C), word(bytes, 0..<comma, in: longDays) != nil,
            bytes.count == comma + 24
        else { return nil }
        let rest = comma + 1
        guard bytes[rest] == 0x20, bytes[rest + 3] == 0x2D, bytes[rest + 7] == 0x2D, bytes[rest + 10] == 0x20,
            bytes[rest + 19] == 0x20, isGMT(bytes, at: rest + 20), let day = number(bytes, rest + 1..<rest + 3),
            let month = word(bytes, rest + 4..<rest + 7, in: months), let shortYear = number(bytes, rest + 8..<rest + 10)
        else { return nil }
        // A two-digit year is read in the century that keeps it within 50 years from 2000.
        let year = shortYear + (shortYear < 70 ? 2000 : 1900)
        return epoch(year: year, month: month, day: day, time: bytes, at: rest + 11)
    }

    /// The index in `names` of the letters at `range`, in any case; nil when none matches.
    private static func word(_ bytes: [UInt8], _ range: Range<Int>, in names: [String]) -> Int? {
        let lower = bytes[range].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        return names.firstIndex { Array($0.utf8) == lower }
    }

    /// Whether `GMT` (any case) is at `offset`.
    private static func isGMT(_ bytes: [UInt8], at offset: Int) -> Bool {
        word(bytes, offset..<offset + 3, in: ["gmt"]) != nil
    }

    /// The decimal number the digits at `range` spell; nil when one of them is not a digit.
    private static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var value = 0
        for byte in bytes[range] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// Seconds since the epoch for a date and the `HH:MM:SS` at `offset`; nil when a part is out
    /// of range.
    private static func epoch(year: Int, month: Int, day: Int, time bytes: [UInt8], at offset: Int) -> Double? {
        guard bytes[offset + 2] == 0x3A, bytes[offset + 5] == 0x3A, let hour = number(bytes, offset..<offset + 2),
            let minute = number(bytes, offset + 3..<offset + 5), let second = number(bytes, offset + 6..<offset + 8),
            (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
