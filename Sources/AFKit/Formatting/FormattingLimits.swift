/// The limits that keep a small hostile body from making a formatter run for minutes or fill
/// memory; past each one the formatter shows the rest as received, with one warning.
///
/// Documented in the README ("Formatting limits") and the man page.
package enum FormattingLimits {
    /// The deepest nesting formatted in JSON, XML and property lists: past it the indentation
    /// alone would grow the output by kilobytes per input byte. libxml2 stops at 256 and jq 1.6
    /// stopped at 256 (1.7 at 10,000); 512 leaves room for real documents.
    package static let maximumDepth = 512

    /// The largest object `--sorted` holds to sort (each object of a top-level array separately);
    /// a larger one, and everything after it, is shown unsorted.
    package static let sortedObjectBytes = 8 * 1024 * 1024

    /// How far a binary property list may expand when decoded (objects shared by reference are
    /// decoded once per reference): 8 times its own size or 32 MiB, whichever is larger.
    package static func propertyListBudget(forBodyOf count: Int) -> Int {
        max(32 * 1024 * 1024, count.multipliedReportingOverflow(by: 8).overflow ? .max : count * 8)
    }
}
