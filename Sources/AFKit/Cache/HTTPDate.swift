import AFCurl

/// HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms a
/// recipient must accept, as seconds since the Unix epoch.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date in `text`, or nil when it is not an HTTP-date (longer than 64 bytes included).
    package static func parse(_ text: String) -> Double? {
        guard text.utf8.count <= 64 else { return nil }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map(String.init)
        // IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT" and RFC 850 "Sunday, 06-Nov-94 08:49:37 GMT"
        // both split into weekday, day, month, year, time, zone; asctime "Sun Nov  6 08:49:37 1994"
        // into weekday, month, day, time, year.
        if words.count == 6, words[5] == "GMT" {
            guard var year = Int(words[3]) else { return nil }
            if words[3].count == 2 { year += year < 70 ? 2000 : 1900 }
            return epoch(year: year, month: words[2], day: words[1], time: words[4])
        }
        if words.count == 5, let year = Int(words[4]) {
            return epoch(year: year, month: words[1], day: words[2], time: words[3])
        }
        return nil
    }

    /// Seconds since the epoch for one date's parts; nil when a part is out of range.
    private static func epoch(year: Int, month monthName: String, day dayText: String, time: String) -> Double? {
        guard let monthIndex = months.firstIndex(of: ASCIICase.lowercased(monthName)),
            let day = Int(dayText), (1...31).contains(day), (1...9999).contains(year)
        else { return nil }
        let clock = time.split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: monthIndex + 1, day: day)
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
