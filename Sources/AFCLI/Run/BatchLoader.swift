import AFKit
import Glibc

/// Reads the requests of a batch: a `.http` file (JetBrains/VS Code REST Client format) or, for
/// `-`, afcli command lines from standard input.
enum BatchLoader {
    /// The entries of `source`, in the order written, and where the exchanges later entries take
    /// values from are kept; throws a `LocatedError` naming file (or `stdin`) and line for a
    /// malformed entry. `standardInput` is the descriptor `-` reads. Command lines are built in
    /// the config environment of `settings` (a `.http` file has its own environments).
    static func load(
        source: String, settings: ResolvedSettings, environment: [String: String],
        standardInput: Int32 = STDIN_FILENO
    ) throws -> (entries: [PlanEntry], archive: ExchangeArchive) {
        if source == "-" {
            return try CommandLineBatch.load(descriptor: standardInput, settings: settings, environment: environment)
        }
        return try HTTPFileBatch.load(path: source, settings: settings, environment: environment)
    }
}
