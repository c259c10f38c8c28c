import AFKit

/// Reads the requests of a batch: a `.http` file (JetBrains/VS Code REST Client format) or, for
/// `-`, afcli command lines from standard input.
enum BatchLoader {
    /// The entries of `source`, in the order written; throws a `UsageError` naming file and line
    /// for a malformed entry.
    static func load(source: String, options: OptionValues, environment: [String: String]) throws -> [BatchEntry] {
        // The .http and command-line readers plug in here.
        []
    }
}
