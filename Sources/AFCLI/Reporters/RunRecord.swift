import AFKit
import Glibc

/// What a report of a run (`--report`) keeps of one request: its NDJSON record, where it was
/// written, and what a JUnit or HAR report shows besides (the request's and response's heads,
/// the curl command that sends it). Made once a request ended; no body is kept.
struct RunRecord {
    var line: RunLine
    /// Where the request was written (`api.http:12`, `stdin:3`).
    var origin: String
    /// The request's header fields as sent on its first hop; empty when it was never built.
    var requestHeaders: [HTTPField] = []
    /// The request body's size when known.
    var requestBodySize: Int64?
    /// The final response's head; nil when none arrived.
    var responseHead: ResponseHead?
    /// The curl command line that sends the request, its credentials hidden by `redaction`,
    /// made when a report asks for it.
    var curlCommand: () -> String? = { nil }
    /// What the report hides of the request's and the response's heads.
    var redaction = HeaderRedaction()

    /// Whether the request failed because its transfer or preparation did (an error), rather than
    /// because its response was judged a failure (a failed assertion or status: a failure).
    var isError: Bool {
        guard !line.succeeded else { return false }
        return line.statusCode == nil
    }
}

/// The counts of a run, for the reports' summaries.
struct RunSummary {
    var passed: Int
    var failed: Int
    /// Requests that never started (a keeper failed, the run was interrupted).
    var notRun: Int
    /// Seconds the run took.
    var seconds: Double
    /// When it started, in seconds since 1970.
    var startDate: Double

    var total: Int { passed + failed + notRun }
}

/// A report of a run written to a file (`--report FORMAT=FILE`): told each request as it ends,
/// then the summary.
protocol RunReportWriter: AnyObject {
    func add(_ record: RunRecord) throws
    func finish(_ summary: RunSummary) throws
}

/// A report that cannot be written (its file cannot be created, a write failed).
struct RunReportError: ClassifiedError, CustomStringConvertible {
    var path: String
    var reason: String
    var beforeSending: Bool

    var description: String { "--report \(path): \(reason)" }
    var failureClass: FailureClass { beforeSending ? .badInput : .failure }
}

/// Text escaped for XML 1.0 character data and attribute values: markup characters as
/// entities, and the control characters XML cannot carry as U+FFFD.
func xmlEscaped(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        case "'": escaped += "&apos;"
        case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
        default:
            if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                escaped += "\u{FFFD}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
    }
    return escaped
}

/// Seconds as a decimal with millisecond precision (`0.013`), as JUnit's `time` attributes read.
func decimalSeconds(_ seconds: Double) -> String {
    let milliseconds = Int64((max(0, seconds) * 1000).rounded())
    let fraction = String(milliseconds % 1000)
    return String(milliseconds / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
