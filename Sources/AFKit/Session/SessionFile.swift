/// One HTTPie-compatible session: headers, auth and cookies that outlive a single request.
///
/// The layout is HTTPie 3.2's (`__meta__`, `auth` {type, raw_auth}, `cookies` as a list of
/// {name, value, domain, path, expires, secure}, `headers` as a list of {name, value}); the
/// older layout HTTPie wrote before 3.1 (cookies and headers as objects, auth as
/// {type, username, password}) is read too and written back in the 3.2 layout.
package struct SessionFile: Equatable, Sendable {
    /// Stored request headers, in order; never `Content-*`, `If-*` or `Cookie`.
    package var headers: [HTTPField]
    /// Stored credentials; nil when none.
    package var auth: SessionAuth?
    /// Stored cookies, each bound to a domain (an empty domain is bound to the request's host
    /// when the session is used).
    package var cookies: [SessionCookie]
    /// Top-level members afcli does not know, kept as read.
    package var otherMembers: [JSONMember]

    package init(
        headers: [HTTPField] = [], auth: SessionAuth? = nil, cookies: [SessionCookie] = [],
        otherMembers: [JSONMember] = []
    ) {
        self.headers = headers
        self.auth = auth
        self.cookies = cookies
        self.otherMembers = otherMembers
    }

    /// The `__meta__` afcli writes: HTTPie 3.2's, whose `httpie` version tells HTTPie (and xh)
    /// that cookies and headers are in the 3.2 layout, so neither warns about an outdated file.
    static let meta: JSONValue = .object([
        JSONMember(key: "about", value: .string("HTTPie session file")),
        JSONMember(key: "help", value: .string("https://httpie.io/docs#sessions")),
        JSONMember(key: "httpie", value: .string("3.2.4")),
    ])
}

/// Credentials kept in a session: HTTPie's auth type and its `raw_auth` (`user:password`, or
/// the token for bearer).
package struct SessionAuth: Equatable, Sendable {
    /// `basic`, `digest` or `bearer`.
    package var type: String
    /// What `-a` was given.
    package var rawAuth: String

    package init(type: String, rawAuth: String) {
        self.type = type
        self.rawAuth = rawAuth
    }
}

/// A cookie as HTTPie stores it; exactly these six keys, since HTTPie rejects others.
package struct SessionCookie: Equatable, Sendable {
    package var name: String
    package var value: String
    /// `host` for a host-only cookie, `.example.com` for a domain cookie, "" for a cookie not yet
    /// bound (HTTPie's typed cookies and pre-3.1 files).
    package var domain: String
    package var path: String
    /// Seconds since the epoch; nil for a cookie that ends with the browser session (kept here).
    package var expires: Int64?
    package var secure: Bool

    package init(
        name: String, value: String, domain: String = "", path: String = "/", expires: Int64? = nil,
        secure: Bool = false
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.expires = expires
        self.secure = secure
    }
}

/// Why a session could not be used; lower-case descriptions.
package enum SessionError: ClassifiedError, Equatable, CustomStringConvertible {
    /// The file is not JSON: where and why.
    case malformed(path: String, line: Int, column: Int, reason: String)
    /// The file is JSON but not a session (wrong types, unknown auth type…).
    case invalid(path: String, reason: String)
    /// The file could not be read (errno), or is not a regular file of the user's own.
    case unreadable(path: String, reason: String)
    /// The session (or a directory for it) could not be written.
    case cannotWrite(path: String, reason: String)
    /// A session name with characters other than letters, digits, `_`, `.` and `-`, or `.` or `..`.
    case invalidName(String)
    /// A cookie jar that is not the user's own regular file (a symbolic link, a directory or
    /// device, another user's file): refused as a session file would be.
    case unusableCookieJar(path: String, problem: UnsafeFileProblem)
    /// A session name, but no config directory to find it in (no HOME, no password entry).
    case noConfigDirectory(String)

    /// A session that cannot be read stops the request before it is sent (bad input); one that
    /// cannot be written back fails after the exchange.
    package var failureClass: FailureClass {
        switch self {
        case .cannotWrite: return .failure
        case .malformed, .invalid, .unreadable, .invalidName, .unusableCookieJar, .noConfigDirectory: return .badInput
        }
    }

    package var description: String {
        switch self {
        case .malformed(let path, let line, let column, let reason):
            return "\(path):\(line):\(column): session file is not valid JSON: \(reason)"
        case .invalid(let path, let reason):
            return "\(path): not a session file: \(reason)"
        case .unreadable(let path, let reason):
            return "cannot read session \(path): \(reason)"
        case .cannotWrite(let path, let reason):
            return "cannot write session \(path): \(reason)"
        case .invalidName(let name) where name == "." || name == "..":
            return "invalid session name \"\(name)\": it would name a hidden file; use a name with a letter or digit"
        case .unusableCookieJar(let path, let problem):
            return "cannot use cookie jar \(path): \(problem), and a cookie jar, like a session, must be "
                + "your own regular file"
        case .noConfigDirectory(let name):
            return "no config directory for session \"\(name)\": HOME is unset and the password database has no "
                + "home directory for this user; set AFCLI_CONFIG_DIR or give the session as a path"
        case .invalidName(let name):
            return "invalid session name \"\(name)\": use letters, digits, '_', '.' and '-', or a path with a '/'"
        }
    }
}
