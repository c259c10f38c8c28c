import AFKit
import Glibc

/// Reads the requests of a batch: a `.http` file (JetBrains/VS Code REST Client format) or, for
/// `-`, afcli command lines from standard input.
enum BatchLoader {
    /// The entries of `source`, in the order written; throws a `LocatedError` naming file (or
    /// `stdin`) and line for a malformed entry. `standardInput` is the descriptor `-` reads.
    static func load(
        source: String, options: OptionValues, environment: [String: String],
        standardInput: Int32 = STDIN_FILENO
    ) throws -> [BatchEntry] {
        if source == "-" {
            return try CommandLineBatch.load(descriptor: standardInput, options: options, environment: environment)
        }
        return try HTTPFileBatch.load(path: source, options: options, environment: environment)
    }
}
