import AFKit

/// A `.http` file's `# @prompt NAME [DESCRIPTION]` variables (REST Client), answered when the
/// file is read, before anything is sent: by `--variable NAME=VALUE` when given, else asked on
/// the terminal (with echo off for a name that looks secret), else, with no terminal to ask on,
/// an error naming every variable left without a value. A name several requests prompt for is
/// asked once; each answer holds for the requests that prompt for it alone.
enum HTTPFilePrompts {
    /// Name parts that make a prompt secret: REST Client hides `password`, `passwd` and `pass`;
    /// tokens, keys, secrets and one-time codes are as secret.
    static let secretWords = ["pass", "pwd", "secret", "token", "key", "otp", "credential"]

    /// Whether what is typed for `name` is hidden.
    static func isSecret(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return secretWords.contains { lowered.contains($0) }
    }

    /// Sets `promptValues` of each request of `requests` that prompts. `ask` is the terminal
    /// (nil: none to ask on), replaced in tests.
    static func answer(
        _ requests: inout [HTTPFileRequest], given: [String: String], path: String,
        ask: (String, Bool) throws -> String? = { try TerminalPrompt.ask($0, secret: $1) }
    ) throws {
        var asked: [HTTPFileField] = []
        for request in requests {
            for prompt in request.prompts where given[prompt.name] == nil && !asked.contains(where: { $0.name == prompt.name }) {
                asked.append(prompt)
            }
        }
        var values = given
        for prompt in asked {
            // The description is the file's text: shown with its control characters escaped.
            let text = "afcli: \(prompt.name)" + (prompt.value.isEmpty ? "" : " (\(prompt.value))").escapingControlsOnOneLine + ": "
            guard let value = try ask(text, isSecret(prompt.name)) else {
                let names = asked.map(\.name).joined(separator: ", ")
                throw LocatedError(
                    origin: "\(path):\(asked[0].line)",
                    underlying: HTTPFileError(
                        line: asked[0].line,
                        reason: "# @prompt \(names): no terminal to ask on; give "
                            + (asked.count == 1 ? "it" : "each") + " with --variable NAME=VALUE"))
            }
            values[prompt.name] = value
        }
        for index in requests.indices where !requests[index].prompts.isEmpty {
            for prompt in requests[index].prompts { requests[index].promptValues[prompt.name] = values[prompt.name] }
        }
    }
}
