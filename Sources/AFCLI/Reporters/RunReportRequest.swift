/// One `--report FORMAT=FILE`: which report of a run goes where.
package struct RunReportRequest: Equatable, Sendable {
    package enum Format: String, CaseIterable, Sendable {
        case junit, tap, json, har
    }

    package var format: Format
    package var path: String

    /// Reads `junit=FILE`, `tap=FILE`, `json=FILE` or `har=FILE`.
    init(parsing text: String) throws(UsageError) {
        guard let equals = text.firstIndex(of: "="), let format = Format(rawValue: String(text[..<equals])) else {
            throw UsageError.invalidValue(
                option: "--report", value: text,
                reason: "is not FORMAT=FILE with FORMAT one of " + Format.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let path = String(text[text.index(after: equals)...])
        guard !path.isEmpty else {
            throw UsageError.invalidValue(option: "--report", value: text, reason: "names no file after =")
        }
        self.format = format
        self.path = path
    }
}
