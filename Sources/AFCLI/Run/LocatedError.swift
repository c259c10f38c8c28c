import AFKit

/// An error in one entry of a batch, with where that entry was written (`stdin:3`,
/// `api.http:12`); reported as `afcli: error: stdin:3: …` with the underlying error's status.
struct LocatedError: ClassifiedError, CustomStringConvertible {
    /// `FILE:LINE` or `stdin:LINE`.
    var origin: String
    /// What went wrong there.
    var underlying: any Error

    var description: String { "\(origin): \(underlying)" }

    /// Where it happened changes nothing about what it is.
    var failureClass: FailureClass { .of(wrapped: underlying) }

    /// Runs `body`, giving any error it throws the origin (an error that has one keeps its own).
    @discardableResult
    static func locating<T>(_ origin: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LocatedError {
            throw error
        } catch {
            throw LocatedError(origin: origin(), underlying: error)
        }
    }
}

/// A batch that cannot be read, or a line of `afcli run -` that is not a request afcli can send
/// as part of a run.
enum BatchError: ClassifiedError, Equatable, CustomStringConvertible {
    /// The `.http` file (or an environment file beside it) cannot be read.
    case unreadableFile(path: String, reason: String)
    /// An option that belongs to the run, not to one of its requests.
    case runOption(String)
    /// A subcommand or `--help`/`--version` instead of a request.
    case notARequest(String)
    /// A body or part read from standard input, which carries the requests.
    case standardInputBody
    /// `# @name` or `# @first` with no request after it.
    case danglingDirective(String)
    /// `# @name` without a name.
    case missingName
    /// More requests than a run takes.
    case tooManyRequests(limit: Int)
    /// `afcli run -` with a terminal on standard input, or `afcli run /dev/stdin` (any source) that
    /// is a terminal, where no list of requests is waiting.
    case terminalInput(source: String)

    /// Every case stops the run as bad input.
    var failureClass: FailureClass { .badInput }

    var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .runOption(let option):
            return "\(option) applies to the whole run: give it on the afcli run command line, not on a request's line"
        case .notARequest(let word):
            return "\(word) is not a request: a line is [METHOD] URL [ITEM…] [OPTION…]"
        case .standardInputBody:
            return "standard input carries the requests, so it cannot also be a request body (@- or field@-)"
        case .danglingDirective(let directive):
            return "\(directive) is not followed by a request"
        case .missingName:
            return "# @name needs a name"
        case .tooManyRequests(let limit):
            return "more than \(limit) requests in one run"
        case .terminalInput(let source) where source == "-":
            return "afcli run - reads requests from standard input, which is a terminal: "
                + "pipe or redirect them in (afcli run - < requests.txt), or name a .http file"
        case .terminalInput(let source):
            return "afcli run \(source) reads requests from a terminal: "
                + "pipe or redirect them in (afcli run /dev/stdin < api.http), or name a .http file"
        }
    }
}
