/// Why a request could not be turned into bytes for the wire.
///
/// One error type for URL handling, body encoding and body sources; every description is lower
/// case so the CLI can prefix it with `afcli: error: `.
package enum SerializationError: ClassifiedError, Equatable, CustomStringConvertible {
    /// The URL cannot be sent: wrong scheme, empty host, bad port or an unusable character.
    case invalidURL(String, reason: String)
    /// A header item cannot be sent as written (bad name, line break in the value).
    case invalidHeader(name: String, reason: String)
    /// A typed `Host`, `Content-Length` or `Transfer-Encoding` that disagrees with the request
    /// afcli sends (see `RequestFraming`).
    case framingHeader(name: String, reason: String)
    /// A number literal in the parameters is not RFC 8259 JSON (AF refuses invalid JSON up front).
    case invalidJSONNumber(String)
    /// Property lists have no null; `keyPath` names where the null sits (`a.b[0]`).
    case propertyListNull(keyPath: String)
    /// Data fields that belong in the body were given together with a raw body.
    case conflictingBody
    /// A multipart boundary RFC 2046 does not allow (`--boundary`).
    case invalidBoundary(String, reason: String)
    /// A multipart field name (`field` nil) or the file name of `field`'s part cannot be written
    /// between quotes in a part header.
    case invalidPartName(String, field: String?, reason: String)
    /// A part's `Content-Type` is empty or holds control characters.
    case invalidPartContentType(String, field: String)
    /// File items were given with a body encoding that cannot carry files (`--json`, `--plist`).
    case filesNeedMultipart(encoding: String)
    /// File items were given with a method that sends no multipart body (GET, HEAD).
    case filesNeedBodyMethod(method: String)
    /// More than one file item reads standard input, which can be read only once.
    case standardInputUsedTwice
    /// A file or stream could not be opened or read; `reason` is the system's, lower case; the path
    /// `-` stands for standard input.
    case unreadable(path: String, reason: String)
    /// A streamed file ended before, or grew beyond, the length announced in `Content-Length`.
    case fileChangedSize(path: String)
    /// A streamed body cannot be replayed (standard input already consumed).
    case notRewindable(path: String)

    /// A request that cannot be serialized is bad input, found before anything is sent (a body
    /// source failing while it is sent arrives wrapped in a `CurlError`, which says otherwise).
    package var failureClass: FailureClass { .badInput }

    package var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            return "invalid URL \(quoted(url)): \(reason)"
        case .invalidHeader(let name, let reason):
            return "invalid header \(quoted(name)): \(reason)"
        case .framingHeader(let name, let reason):
            return "cannot send the header \(quoted(name)) as typed: \(reason)"
        case .invalidJSONNumber(let literal):
            return "parameters are not valid JSON: \(quoted(literal)) is not a number"
        case .propertyListNull(let keyPath):
            if keyPath.isEmpty { return "property lists cannot hold null (at the top level)" }
            return "property lists cannot hold null (at \(quoted(keyPath)))"
        case .conflictingBody:
            return "a raw body cannot be combined with data fields"
        case .invalidBoundary(let boundary, let reason):
            return "invalid multipart boundary \(quoted(boundary)): \(reason)"
        case .invalidPartName(let name, nil, let reason):
            return "invalid multipart field name \(quoted(name)): \(reason)"
        case .invalidPartName(let name, let field?, let reason):
            return "invalid file name \(quoted(name)) for the field \(quoted(field)): \(reason) "
                + "(;filename= sets another)"
        case .invalidPartContentType(let type, let field):
            return "invalid content type \(quoted(type)) for the field \(quoted(field))"
        case .filesNeedMultipart(let encoding):
            return "file items need a multipart body, not \(encoding): use --form or --multipart"
        case .filesNeedBodyMethod(let method):
            return "file uploads need a method with a body, not \(method)"
        case .standardInputUsedTwice:
            return "only one file item can read standard input (NAME@-)"
        case .unreadable(let path, let reason):
            return "cannot read \(displayName(path)): \(reason)"
        case .fileChangedSize(let path):
            return "\(quoted(path)) changed size while it was being sent"
        case .notRewindable(let path):
            return "cannot send \(displayName(path)) again: it was already consumed"
        }
    }
}

/// Names a body source in a message: `-` is standard input, anything else a quoted path.
private func displayName(_ path: String) -> String {
    path == "-" ? "standard input" : quoted(path)
}

/// Wraps text in double quotes for an error message, escaping quotes and control characters.
private func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}
