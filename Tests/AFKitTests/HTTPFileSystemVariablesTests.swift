import XCTest

@testable import AFKit

/// The `{{$…}}` system variables and `{{%name}}`, at a fixed instant, zone and random source;
/// every expected value is written out here (the dates as JavaScript and Day.js print them).
final class HTTPFileSystemVariablesTests: XCTestCase {
    /// 2024-06-30T04:09:33.123Z, a Sunday; the local zone is 8 hours east of UTC.
    private let fixed = HTTPFileVariables.Sources(
        now: { 1_719_720_573 }, random: { 0x0123_4567_89AB_CDEF }, milliseconds: { 1_719_720_573_123 },
        utcOffset: { _ in 8 * 3600 })

    private func variables(
        file: [(String, String)] = [], environment: [String: String] = [:], process: [String: String] = [:],
        dotenv: [String: String]? = nil
    ) -> HTTPFileVariables {
        HTTPFileVariables(
            file: file.enumerated().map { HTTPFileVariable(name: $1.0, value: $1.1, line: $0 + 1) },
            environment: environment, sources: fixed, processEnvironment: { process[$0] },
            dotenv: HTTPFileDotenv.Loader(values: dotenv))
    }

    private func assertRefused(
        _ text: String, _ reason: String, with vars: HTTPFileVariables? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertThrowsError(try (vars ?? variables()).expand(text, line: 9), file: file, line: line) { error in
            XCTAssertEqual(error as? HTTPFileError, HTTPFileError(line: 9, reason: reason), file: file, line: line)
        }
    }

    func testDatetimeInTheFormatsRESTClientDocuments() throws {
        let vars = variables()
        let table: [(String, String)] = [
            ("{{$datetime rfc1123}}", "Sun, 30 Jun 2024 04:09:33 GMT"),
            ("{{$datetime iso8601}}", "2024-06-30T04:09:33.123Z"),
            ("{{$datetime iso8601 1 d}}", "2024-07-01T04:09:33.123Z"),
            ("{{$datetime iso8601 -90 m}}", "2024-06-30T02:39:33.123Z"),
            ("{{$datetime iso8601 1 Q}}", "2024-09-30T04:09:33.123Z"),
            ("{{$datetime iso8601 -2 w}}", "2024-06-16T04:09:33.123Z"),
            ("{{$datetime iso8601 877 ms}}", "2024-06-30T04:09:34.000Z"),
            ("{{$datetime 'YYYY-MM-DD'}}", "2024-06-30"),
            ("{{ $datetime \"DD-MM-YYYY\" 1 y }}", "30-06-2025"),
            ("{{$datetime '[it''s] YYYY'}}", "it''s 2024"),
            ("{{$localDatetime iso8601}}", "2024-06-30T12:09:33+08:00"),
            ("{{$localDatetime rfc1123}}", "Sun, 30 Jun 2024 12:09:33 +0800"),
            ("{{$localDatetime 'YYYY-MM-DD HH:mm' -13 h}}", "2024-06-29 23:09"),
            ("{{$timestamp}}", "1719720573"),
            ("{{$timestamp -1 m}}", "1719720513"),
            ("{{$timestamp 2 d}}", "1719893373"),
            ("{{$isoTimestamp}}", "2024-06-30T04:09:33Z"),
        ]
        for (text, expected) in table {
            XCTAssertEqual(try vars.expand(text, line: 1), expected, text)
        }
    }

    func testLocalDatesMoveOnTheLocalCalendar() throws {
        // 2024-01-30T20:00Z is Jan 31 04:00 eight hours east: a month later is the local Feb 29,
        // where moving the UTC date would give Mar 1.
        let vars = HTTPFileVariables(
            file: [], environment: [:],
            sources: HTTPFileVariables.Sources(
                now: { 1_706_644_800 }, random: { 0 }, milliseconds: { 1_706_644_800_000 },
                utcOffset: { _ in 8 * 3600 }))
        XCTAssertEqual(try vars.expand("{{$localDatetime iso8601 1 M}}", line: 1), "2024-02-29T04:00:00+08:00")
        XCTAssertEqual(try vars.expand("{{$localDatetime iso8601 -1 d}}", line: 1), "2024-01-30T04:00:00+08:00")
        XCTAssertEqual(try vars.expand("{{$localDatetime iso8601 5 h}}", line: 1), "2024-01-31T09:00:00+08:00")
        XCTAssertEqual(try vars.expand("{{$datetime iso8601 1 M}}", line: 1), "2024-02-29T20:00:00.000Z")
    }

    func testEveryDayJSToken() {
        let pattern = "YY YYYY M MM MMM MMMM D DD d dd ddd dddd H HH h hh m mm s ss SSS A a Z ZZ [YYYY] Y YYY S"
        XCTAssertEqual(
            HTTPFileDateFormat.format(pattern, milliseconds: 1_719_720_573_123, offsetSeconds: 0),
            "24 2024 6 06 Jun June 30 30 0 Su Sun Sunday 4 04 4 04 9 09 33 33 123 AM am +00:00 +0000 YYYY Y YYY S")
        // 16:05 in a zone 5.5 hours west: 10:35 on the same day, PM, a negative offset.
        XCTAssertEqual(
            HTTPFileDateFormat.format("h:mm A a Z ZZ", milliseconds: 1_719_763_500_000, offsetSeconds: -19_800),
            "10:35 AM am -05:30 -0530")
        XCTAssertEqual(
            HTTPFileDateFormat.format("hh A", milliseconds: 1_719_763_500_000, offsetSeconds: 0), "04 PM")
        // The millisecond before the epoch, a Wednesday.
        XCTAssertEqual(HTTPFileDateFormat.iso8601(-1), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(HTTPFileDateFormat.format("dddd", milliseconds: -1, offsetSeconds: 0), "Wednesday")
    }

    func testMonthsAndYearsKeepTheDayOrTheMonthsLastDay() {
        // 2024-01-31 + 1 month is 2024-02-29; 2024-02-29 - 1 year is 2023-02-28.
        XCTAssertEqual(HTTPFileDateFormat.adding(1, "M", to: 1_706_659_200_000), 1_709_164_800_000)
        XCTAssertEqual(HTTPFileDateFormat.adding(-1, "y", to: 1_709_164_800_000), 1_677_542_400_000)
        XCTAssertNil(HTTPFileDateFormat.adding(8000, "y", to: 1_709_164_800_000))
        XCTAssertNil(HTTPFileDateFormat.adding(.max, "d", to: 0))
        XCTAssertNil(HTTPFileDateFormat.adding(1, "x", to: 0))
    }

    func testDatetimeMistakesAreRefusedByName() {
        assertRefused(
            "{{$datetime}}",
            "{{$datetime}}: $datetime needs a format: rfc1123, iso8601 or a quoted format such as 'YYYY-MM-DD'")
        assertRefused(
            "{{$datetime iso8601 1 x}}", "{{$datetime iso8601 1 x}}: x is not a unit (y, Q, M, w, d, h, m, s, ms)")
        assertRefused(
            "{{$timestamp 1.5 d}}",
            "{{$timestamp 1.5 d}}: an offset is a whole number and a unit (y, Q, M, w, d, h, m, s, ms), such as -3 h")
        assertRefused(
            "{{$datetime iso8601 9000 y}}", "{{$datetime iso8601 9000 y}}: the date is outside years 1 to 9999")
        assertRefused("{{$datetime 'YYYY}}", "{{$datetime 'YYYY}}: the format is not closed with '")
    }

    func testRandomValuesAsJetBrainsNamesThem() throws {
        let vars = variables()
        let table: [(String, String)] = [
            ("{{$random.integer(5, 7)}}", "6"),
            ("{{$random.integer}}", "895"),
            ("{{$random.integer 10 20}}", "15"),
            ("{{$random.float(1, 2)}}", "1.0044444444444443"),
            ("{{$random.float}}", "4.444444444444362"),
            ("{{$random.alphabetic(3)}}", "ZZZ"),
            ("{{$random.alphanumeric(4)}}", "gggg"),
            ("{{$random.hexadecimal( 2 )}}", "ff"),
            ("{{$random.alphabetic(0)}}", ""),
            ("{{$random.email}}", "pppppppppp@example.com"),
            ("{{$random.uuid}}", "efcdab89-6745-4301-afcd-ab8967452301"),
        ]
        for (text, expected) in table {
            XCTAssertEqual(try vars.expand(text, line: 1), expected, text)
        }
        assertRefused(
            "{{$random.alphabetic(-1)}}",
            "{{$random.alphabetic(-1)}}: $random.alphabetic takes a length from 0 to 1048576, $random.alphabetic(N)")
        assertRefused(
            "{{$random.float(2, 1)}}", "{{$random.float(2, 1)}}: FROM 2 is not less than TO 1")
        assertRefused(
            "{{$random.float(1, nan)}}",
            "{{$random.float(1, nan)}}: $random.float takes no arguments or two numbers, FROM, TO")
        assertRefused("{{$random.email(3)}}", "{{$random.email(3)}}: unexpected arguments")
    }

    func testProcessEnvironmentAndDotenv() throws {
        let vars = variables(
            environment: ["keyName": "SECRET"], process: ["USER": "ann", "SECRET": "s3"],
            dotenv: ["TOKEN": "t0", "SECRET": "from-dotenv"])
        XCTAssertEqual(try vars.expand("{{$processEnv USER}}/{{$processEnv %keyName}}", line: 1), "ann/s3")
        XCTAssertEqual(try vars.expand("{{$dotenv TOKEN}}/{{$dotenv %keyName}}", line: 1), "t0/from-dotenv")
        // `%NAME` with no such environment variable looks the name itself up, as REST Client does.
        XCTAssertEqual(try vars.expand("{{$processEnv %USER}}", line: 1), "ann")
        assertRefused(
            "{{$processEnv NOPE}}", "{{$processEnv NOPE}}: the environment variable NOPE is not set", with: vars)
        assertRefused("{{$dotenv NOPE}}", "{{$dotenv NOPE}}: NOPE is not in the .env file", with: vars)
        assertRefused("{{$dotenv A}}", "{{$dotenv A}}: there is no .env file beside the .http file")
        assertRefused("{{$processEnv}}", "{{$processEnv}}: $processEnv takes one name, [%]NAME")
    }

    func testTheDotenvFileIsReadOnceAndOnlyWhenAsked() throws {
        var reads = 0
        let loader = HTTPFileDotenv.Loader {
            reads += 1
            return .success(Array("A=1\n".utf8))
        }
        let vars = HTTPFileVariables(file: [], environment: [:], sources: fixed, dotenv: loader)
        XCTAssertEqual(try vars.expand("{{$uuid}}", line: 1).count, 36)
        XCTAssertEqual(reads, 0)
        XCTAssertEqual(try vars.expand("{{$dotenv A}}{{$dotenv A}}", line: 1), "11")
        XCTAssertEqual(reads, 1)
        let failing = HTTPFileVariables(
            file: [], environment: [:], sources: fixed,
            dotenv: HTTPFileDotenv.Loader { .failure(HTTPFileError(line: 0, reason: "cannot read ./.env: denied")) }
        )
        assertRefused("{{$dotenv A}}", "{{$dotenv A}}: cannot read ./.env: denied", with: failing)
    }

    func testPercentEncodedVariables() throws {
        let vars = variables(
            file: [("name", "Strunk & White"), ("nested", "{{name}}/é"), ("safe", "a-_.!~*'()z")],
            environment: ["env": "x y"])
        XCTAssertEqual(try vars.expand("{{%name}}", line: 1), "Strunk%20%26%20White")
        XCTAssertEqual(try vars.expand("{{ %nested }}", line: 1), "Strunk%20%26%20White%2F%C3%A9")
        XCTAssertEqual(try vars.expand("{{%safe}}|{{%env}}", line: 1), "a-_.!~*'()z|x%20y")
        assertRefused("{{%missing}}", "variable {{missing}} is not defined")
        assertRefused(
            "{{%login.response.body.$.id}}",
            "variable {{login.response.body.$.id}} is not defined (a value from another request's response is given only in afcli run)"
        )
    }

    func testDotenvFilesAsTheDotenvPackageReadsThem() {
        let text = """
            # a comment
            PLAIN=value
            SPACED = padded value   # comment
            export EXPORTED=yes
            COLON: also
            SINGLE='it # is'
            DOUBLE="line\\none"
            MULTI="first
            second"
            BACK=`b`
            EMPTY=
            not a line
            PLAIN=later\r
            """
        XCTAssertEqual(
            HTTPFileDotenv.parse(Array(text.utf8)),
            [
                "PLAIN": "later", "SPACED": "padded value", "EXPORTED": "yes", "COLON": "also", "SINGLE": "it # is",
                "DOUBLE": "line\none", "MULTI": "first\nsecond", "BACK": "b", "EMPTY": "",
            ])
    }
}
