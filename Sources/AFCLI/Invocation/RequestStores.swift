import AFKit
import Glibc

/// What a request keeps beyond itself: the session (`--session`), the cookie jar
/// (`--cookie-jar`) and the netrc file libcurl may take credentials from.
///
/// Nothing here runs without its option: with no `--session` no config directory is looked at,
/// and with no session or jar libcurl's cookie engine stays off.
struct RequestStores {
    /// The session in use, merged into the request.
    private var session: Session?
    /// Whether the session is written back after the exchange.
    private let writesSession: Bool
    /// Whether the session file is the user's alone (0600 or stricter): an unchanged private
    /// session is not rewritten; any other one is, which makes it private.
    private var sessionIsPrivate = false
    /// The cookie file read before and written after the exchange.
    private let cookieJar: String?
    /// The cookies the engine starts with (the session's, as Netscape lines).
    private let cookieLines: [String]
    /// The netrc file for requests without credentials; nil with `--ignore-netrc`.
    let netrcFile: String?
    /// What `--curl` redacts: the session file's headers, cookies and the credentials it supplied.
    private(set) var curlSecrets = CurlSecrets()
    /// The `-A oauth2` tokens the session keeps, written back with it; nil without both.
    private(set) var oauth2Tokens: OAuth2SessionTokens?

    /// Loads the session (merging it into `spec`) and works out the netrc file; a session file
    /// that cannot be read or parsed throws before anything is sent.
    init(options: Settings, environment: [String: String], spec: inout RequestSpec) throws {
        if let jar = options.session.cookieJar { try SessionStore.checkCookieJar(jar) }
        if let value = options.session.name {
            let path = try SessionStore.path(
                for: UserDirectories.expandingTilde(value, environment), url: spec.url,
                hostHeader: spec.headers.last { $0.name.lowercased() == "host" }?.value,
                configDirectory: ConfigLoader.directory(environment))
            let loaded = try SessionStore.loadForUpdate(path)
            sessionIsPrivate = loaded.isPrivate
            var session = Session(path: path, file: loaded.file)
            let typedCredentials = spec.credentials
            cookieLines = session.apply(to: &spec, storesAuth: options.session.storesAuth)
            curlSecrets = .session(loaded.file, usedCredentials: typedCredentials == nil ? spec.credentials : nil)
            if options.request.authType == .oauth2 {
                oauth2Tokens = OAuth2SessionTokens(session.otherMember(OAuth2SessionTokens.member))
            }
            self.session = session
        } else if options.session.cookieJar != nil {
            cookieLines = Session.takeCookieItems(from: &spec)
        } else {
            cookieLines = []
        }
        writesSession = !options.session.readOnly
        cookieJar = options.session.cookieJar
        netrcFile = RequestStores.netrcFile(options: options, environment: environment)
    }

    /// The netrc file libcurl may take credentials from (`$NETRC`, else `~/.netrc`), nil with
    /// `--ignore-netrc`; warns when the file holds passwords that others can read.
    static func netrcFile(options: Settings, environment: [String: String]) -> String? {
        let file: String?
        if options.session.ignoreNetrc {
            file = nil
        } else if let named = environment["NETRC"], !named.isEmpty {
            file = named
        } else {
            file = UserDirectories.home(environment).map { FileIO.join($0, ".netrc") }
        }
        // A netrc that is not there is not handed to libcurl, which would only try to open it.
        guard let file else { return nil }
        let found = NetrcPermissions.inspect(file)
        if let warning = found.warning { ErrorReporter.warn(warning) }
        return found.exists ? file : nil
    }

    /// Sets the cookie engine on the transfer settings, when a session or a jar gives one.
    func configureCookies(_ client: inout TransferSettings) {
        if session != nil || cookieJar != nil {
            client.cookies = CookieSettings(file: cookieJar, lines: cookieLines)
        }
    }

    /// Writes the engine's cookies back to the session and the jar after the exchange.
    mutating func save(_ result: HTTPClientResult) throws {
        if var session, writesSession {
            if let oauth2Tokens { session.setOtherMember(OAuth2SessionTokens.member, oauth2Tokens.json) }
            session.update(cookieLines: result.cookieLines, now: Int64(time(nil)))
            if session.isModified || !sessionIsPrivate { try SessionStore.save(session.file, to: session.path) }
        }
        if let cookieJar {
            try RequestStores.saveCookieJar(cookieJar, lines: result.cookieLines, changed: result.cookiesChanged)
        }
    }

    /// Writes `lines` to the Netscape cookie file `path` (0600, replaced atomically) when they
    /// `changed` from what it held, or when others may read it.
    static func saveCookieJar(_ path: String, lines: [String], changed: Bool) throws {
        guard changed || !isPrivateFile(path) else { return }
        let text =
            "# Netscape HTTP Cookie File\n# https://curl.se/docs/http-cookies.html\n"
            + lines.map { $0 + "\n" }.joined()
        try SessionStore.write(Array(text.utf8), to: path)
    }

    /// Whether `path` is a regular file without group or other permission bits.
    static func isPrivateFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o077 == 0
    }

}
