/// The limits that keep a small hostile body from making a formatter run for minutes or fill
/// memory; past each one the formatter shows the rest as received, with one warning.
///
/// Documented in the README ("Formatting limits") and the man page.
package enum FormattingLimits {
    /// The deepest nesting read in a response body by default (`--max-depth` changes it), the
    /// one limit of the JSON, XML and property-list formatters, `--jsonpath`, `??` assertions and
    /// references: past it the indentation alone would grow the output by kilobytes per input
    /// byte. libxml2's tree parser stops at 256 (its push parser has no limit for SAX callers),
    /// jq 1.6 at 256 and 1.7 at 10,000; 512 leaves room for real documents.
    package static let maximumDepth = 512

    /// The most `--max-depth` may ask for (jq 1.7's limit). Past 512 levels the readers that
    /// recurse once per level (the JSON parser and the values it builds, the key sorter, the
    /// JSONPath evaluator, the property-list decoder and writers) run on `DeepStack`'s thread,
    /// whose stack is sized for the limit; `MaximumDepthTests` and the black-box tests read a
    /// body this deep on each path, in the debug build, whose frames are the largest.
    package static let hardMaximumDepth = 10_000

    /// What a body nested past `limit` levels is, for every message about it (`the body is …`,
    /// a formatter's warning): the same words wherever the limit is met.
    package static func tooDeep(_ limit: Int) -> String {
        "nested deeper than the limit (\(limit) levels; --max-depth raises it)"
    }

    /// The largest object `--sorted` holds to sort (each object of a top-level array separately);
    /// a larger one, and everything after it, is shown unsorted.
    package static let sortedObjectBytes = 8 * 1024 * 1024

    /// The most data one server-sent event keeps (its `data:` lines joined): past it the rest of
    /// the event's data is dropped, so an endless line or event keeps memory flat. A terminal
    /// shows the event formatted from this copy.
    package static let eventBytes = 8 * 1024 * 1024

    /// How far a binary property list may expand when decoded: objects shared by reference are
    /// decoded once per reference, so a list whose objects share their children (object i is
    /// [i+1, i+1]) doubles with every level. Without shared containers every decoded object
    /// stands for at least one byte of the list; so at most 4 objects per byte (plus 4096), and at
    /// most 32 MiB, or 8 times the list's size if larger, of string and data bytes.
    package static func propertyListBudget(forBodyOf count: Int) -> PropertyListBudget {
        let (objects, overflow) = count.multipliedReportingOverflow(by: 4)
        let (bytes, bytesOverflow) = count.multipliedReportingOverflow(by: 8)
        return PropertyListBudget(
            objects: overflow ? .max : objects + 4096, bytes: bytesOverflow ? .max : max(32 * 1024 * 1024, bytes))
    }
}

/// What decoding a property list may produce (`FormattingLimits.propertyListBudget`).
package struct PropertyListBudget: Sendable {
    /// Decoded objects, each reference counting once.
    package var objects: Int
    /// Bytes of decoded strings and data.
    package var bytes: Int

    package init(objects: Int, bytes: Int) {
        self.objects = objects
        self.bytes = bytes
    }
}
