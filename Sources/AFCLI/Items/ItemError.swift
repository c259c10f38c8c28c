import AFKit

/// Why a request item was refused; every case is a usage error (exit 2, nothing sent).
package enum ItemError: ClassifiedError, Equatable, Sendable {
    /// An argument after the URL with no separator.
    case noSeparator(argument: String)
    /// A nested key that does not parse (`a[b`).
    case keySyntax(key: String, column: Int, reason: String)
    /// A nested key that treats a value as the wrong kind of container (`a=1 a[b]=2`).
    case typeClash(key: String, columns: Range<Int>, reason: String)
    /// A `:=` value that is not JSON; `column` is where the JSON parser stopped, within the item.
    case invalidJSON(item: String, column: Int, reason: String)
    /// A header name that is not an HTTP token, or a value with CR/LF.
    case invalidHeader(item: String, reason: String)
    /// `Name;value`: only `Name;` is an empty header.
    case emptyHeaderWithValue(item: String)
    /// A file named by `@`, `=@`, `:=@`, `==@` or `:@` that cannot be read.
    case unreadableFile(item: String, path: String, reason: String)
    /// A file read by `=@`, `==@` or `:@` (or `:=@`) whose bytes are not UTF-8 text.
    case notText(item: String, path: String)
    /// SIGINT or SIGTERM arrived while an item's file was read (exit 130, not a usage error).
    case interrupted
    /// A `;type=` or `;filename=` that is not acceptable.
    case invalidFileOption(item: String, reason: String)
    /// A body given by more than one source at once.
    case conflictingBodies(String)
    /// `@-` or `field@-` with `--ignore-stdin`, which promises standard input stays unread.
    case ignoredStandardInput(item: String)

    /// Bad input, except Ctrl-C while a file was read.
    package var failureClass: FailureClass {
        switch self {
        case .interrupted: return .interrupted
        case .noSeparator, .keySyntax, .typeClash, .invalidJSON, .invalidHeader, .emptyHeaderWithValue,
            .unreadableFile, .notText, .invalidFileOption, .conflictingBodies, .ignoredStandardInput:
            return .badInput
        }
    }

    /// One lower-case line naming what is wrong.
    package var description: String {
        switch self {
        case .noSeparator(let argument):
            return
                "\"\(argument)\" is not a request item (expected NAME:VALUE, NAME==VALUE, NAME=VALUE, NAME:=JSON or NAME@FILE)"
        case .keySyntax(let key, _, let reason):
            return "invalid nested key \"\(key)\": \(reason)"
        case .typeClash(_, _, let reason):
            return reason
        case .invalidJSON(let item, _, let reason):
            return "invalid JSON in \"\(item)\": \(reason)"
        case .invalidHeader(let item, let reason):
            return "invalid header \"\(item)\": \(reason)"
        case .emptyHeaderWithValue(let item):
            return "invalid header \"\(item)\": use \"Name;\" for an empty header or \"Name:value\" to set one"
        case .unreadableFile(let item, let path, let reason):
            return "cannot read \"\(path)\" for \"\(item)\": \(reason)"
        case .notText(let item, let path):
            return "\"\(path)\" is not a UTF-8 text file (in \"\(item)\"); send bytes with NAME@FILE or @FILE"
        case .interrupted:
            return "interrupted"
        case .invalidFileOption(let item, let reason):
            return "invalid file item \"\(item)\": \(reason)"
        case .conflictingBodies(let what):
            return what
        case .ignoredStandardInput(let item):
            return "\"\(item)\" reads standard input, which --ignore-stdin leaves unread"
        }
    }

    /// Lines that show where in the argument the problem is (the text and a caret line), or nil.
    package var pointer: String? {
        switch self {
        case .keySyntax(let key, let column, _):
            return "  \(key)\n  " + String(repeating: " ", count: column) + "^"
        case .typeClash(let key, let columns, _):
            return "  \(key)\n  " + String(repeating: " ", count: columns.lowerBound)
                + String(repeating: "^", count: max(columns.count, 1))
        case .invalidJSON(let item, let column, _):
            return "  \(item)\n  " + String(repeating: " ", count: column) + "^"
        default:
            return nil
        }
    }
}
