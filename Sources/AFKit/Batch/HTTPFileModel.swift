/// A `.http` file (JetBrains HTTP Client, VS Code REST Client) as written: its variables, its
/// requests with `{{variables}}` still in place, and what afcli skipped.
package struct HTTPFile: Equatable, Sendable {
    /// `@name = value` lines, in file order; a later line of one name wins.
    package var variables: [HTTPFileVariable] = []
    /// The requests, in file order.
    package var requests: [HTTPFileRequest] = []
    /// What was skipped (response handlers, unknown directives), with its line.
    package var warnings: [HTTPFileWarning] = []

    package init(variables: [HTTPFileVariable] = [], requests: [HTTPFileRequest] = [], warnings: [HTTPFileWarning] = [])
    {
        self.variables = variables
        self.requests = requests
        self.warnings = warnings
    }
}

/// A name and its value as written on one line of a `.http` file: an `@name = value` file
/// variable, or a `Name: value` header.
package struct HTTPFileField: Equatable, Sendable {
    package var name: String
    package var value: String
    package var line: Int

    package init(name: String, value: String, line: Int) {
        self.name = name
        self.value = value
        self.line = line
    }
}

/// One `@name = value` file variable.
package typealias HTTPFileVariable = HTTPFileField

/// One header line of a request.
package typealias HTTPFileHeader = HTTPFileField

/// One request of a `.http` file, unresolved: text may hold `{{variables}}`.
package struct HTTPFileRequest: Equatable, Sendable {
    /// `# @name NAME`, else the text after `###`; nil for neither.
    package var name: String?
    /// The request line's number, from 1.
    package var line: Int
    /// The method in upper case; `GET` when the line is a URL alone.
    package var method: String
    /// The URL with its continuation lines joined.
    package var url: String
    /// The headers in file order.
    package var headers: [HTTPFileHeader] = []
    /// The body's parts in order (text lines and `< ./file` lines); empty for no body.
    package var body: [HTTPFileBodyPart] = []
    /// `# @no-redirect`: do not follow redirects even with `--follow`.
    package var noRedirect = false
    /// `# @no-cookie-jar`: the request neither sends the run's cookies nor stores those its
    /// responses set.
    package var noCookieJar = false
    /// `# @timeout N`: the idle timeout in seconds.
    package var timeout: Double?
    /// `# @connection-timeout N`: the connection timeout in seconds.
    package var connectionTimeout: Double?
    /// `# @first`: a keeper, completed before any other request starts.
    package var isFirst = false
    /// `# @retry N`: how many times the request is sent again while its assertions fail (for
    /// polling an asynchronous job); nil for the run's `--retry`.
    package var retries: Int?
    /// `# @prompt NAME [DESCRIPTION]` (REST Client): variables asked of the user before the run,
    /// the description as the field's value.
    package var prompts: [HTTPFileField] = []
    /// The values given for `prompts` (typed, or `--variable`), by name: they hold for this
    /// request alone, over every other variable of the name.
    package var promptValues: [String: String] = [:]
    /// The `?? …` lines: what its response must satisfy.
    package var assertions: [ResponseAssertion] = []
    /// Why the request cannot be sent as written (a `?? js` line needs JavaScript): it fails
    /// when its turn comes, and the other requests still run.
    package var refusal: HTTPFileError?

    package init(name: String? = nil, line: Int, method: String, url: String) {
        self.name = name
        self.line = line
        self.method = method
        self.url = url
    }
}

/// A piece of a request body: text lines as written, or a file named by `< PATH`.
package enum HTTPFileBodyPart: Equatable, Sendable {
    /// Consecutive body lines joined with LF, starting at `line`.
    case text(String, line: Int)
    /// `< PATH`: the file's bytes, streamed; the path is relative to the `.http` file.
    case file(String, line: Int)
    /// `<@ PATH` or `<@ENCODING PATH`: the file's text, read whole when the request is built, with
    /// its `{{variables}}` substituted.
    case substitutedFile(String, encoding: HTTPFileTextEncoding, line: Int)
}

/// The encodings `<@ENCODING PATH` names, as Node.js (REST Client, httpyac) names them.
package enum HTTPFileTextEncoding: Equatable, Sendable {
    case utf8
    /// ISO 8859-1: each byte is the code point of the same number (Node's `latin1`, `binary`).
    case latin1
    /// Each byte with its high bit cleared (Node's `ascii` decoding).
    case ascii
    /// UTF-16, little end first (Node's `utf16le`, `ucs2`).
    case utf16LittleEndian

    /// The encoding Node.js calls `name` (any case), nil for one afcli does not read.
    package init?(name: String) {
        switch name.lowercased() {
        case "utf8": self = .utf8
        case "latin1", "binary": self = .latin1
        case "ascii": self = .ascii
        case "utf16le", "ucs2": self = .utf16LittleEndian
        default: return nil
        }
    }

    /// `bytes` decoded to text; invalid sequences become U+FFFD, as Node.js decodes them.
    package func decode(_ bytes: [UInt8]) -> String {
        switch self {
        case .utf8:
            // A byte order mark is not part of the text (Node strips it when it reads UTF-8 text).
            return String(decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...], as: UTF8.self)
        case .latin1:
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case .ascii:
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0 & 0x7F) }))
        case .utf16LittleEndian:
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = 0
            while index + 1 < bytes.count {
                units.append(UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
    }
}

/// Something in the file afcli does not run, reported and skipped.
package struct HTTPFileWarning: Equatable, Sendable, CustomStringConvertible {
    package var line: Int
    package var message: String

    package init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    package var description: String { message }
}

/// A mistake in a `.http` file, environment file or variable, at a line (0 when the mistake is
/// not at one line of the `.http` file); `reason` is lower case.
package struct HTTPFileError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    package var line: Int
    package var reason: String
    /// Whether reading stopped for Ctrl-C rather than for a mistake.
    package var isInterrupt = false

    package init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// Reading stopped at `line` for Ctrl-C.
    package static func interrupted(line: Int) -> HTTPFileError {
        var error = HTTPFileError(line: line, reason: "interrupted")
        error.isInterrupt = true
        return error
    }

    /// A mistake in the file is bad input; Ctrl-C while reading it is an interrupt.
    package var failureClass: FailureClass { isInterrupt ? .interrupted : .badInput }

    package var description: String { reason }
}
