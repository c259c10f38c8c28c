import AFKit
import Glibc

/// What a run's one cookie engine starts from and is written back to: the cookies of
/// `--session` (or `--session-read-only`) and of `--cookie-jar`.
///
/// In HTTPie a session belongs to one host: its headers and credentials are sent to that host.
/// A run may send to many hosts, so in a run a session is its cookie store only, and what cannot
/// be honoured that way is refused before anything is sent: a session file that stores headers,
/// credentials or cookies bound to no domain (all three belong to the host the session was used
/// with). A session NAME is looked up, as HTTPie does, under the host of the run's first request
/// (`CONFIG/sessions/HOST_PORT/NAME.json`).
struct RunCookieStore {
    /// The session whose cookies seed the engine; nil without `--session`.
    private var session: Session?
    /// Whether the session is written back at the end (not with `--session-read-only`).
    private let writesSession: Bool
    /// Whether the session file is the user's alone (an unchanged private file is not rewritten).
    private let sessionIsPrivate: Bool
    /// The cookie file read at the start and written at the end of the run.
    private let cookieJar: String?
    /// What the engine is seeded with: the jar, then the session's cookies.
    let seed: CookieSettings

    /// Reads the session and checks the jar; a file that cannot be used stops the run before
    /// anything is sent.
    /// `firstURL` (the run's first request's) chooses the file of a session NAME.
    init(options: Settings, environment: [String: String], firstURL: @autoclosure () -> String) throws {
        if let jar = options.session.cookieJar { try SessionStore.checkCookieJar(jar) }
        cookieJar = options.session.cookieJar
        writesSession = !options.session.readOnly
        var lines: [String] = []
        if let value = options.session.name {
            let option = options.session.readOnly ? "--session-read-only" : "--session"
            let expanded = UserDirectories.expandingTilde(value, environment)
            let path = try SessionStore.path(
                for: expanded, url: expanded.contains("/") ? "" : firstURL(),
                configDirectory: ConfigLoader.directory(environment))
            let loaded = try SessionStore.loadForUpdate(path)
            if let stored = RunCookieStore.hostBound(loaded.file) {
                throw UsageError.invalidValue(
                    option: option, value: value,
                    reason: "stores \(stored), which belong to the host the session was made for, and a run may "
                        + "send to many hosts: a run uses a session's cookies only")
            }
            var session = Session(path: path, file: loaded.file)
            lines = session.cookiesForRun()
            self.session = session
            sessionIsPrivate = loaded.isPrivate
        } else {
            sessionIsPrivate = false
        }
        seed = CookieSettings(file: cookieJar, lines: lines)
    }

    /// What of `file` a run cannot send without knowing its host, as a noun phrase; nil for none.
    private static func hostBound(_ file: SessionFile) -> String? {
        if !file.headers.isEmpty { return "headers" }
        if file.auth != nil { return "credentials" }
        if file.cookies.contains(where: { $0.domain.isEmpty }) { return "cookies bound to no domain" }
        return nil
    }

    /// Writes the engine's cookies (`lines`, Netscape) back to the session and the jar at the end
    /// of the run; `changed` tells whether they differ from what the jar held.
    mutating func save(lines: [String], changed: Bool) throws {
        if var session, writesSession {
            session.update(cookieLines: lines, now: Int64(time(nil)))
            if session.isModified || !sessionIsPrivate { try SessionStore.save(session.file, to: session.path) }
        }
        if let cookieJar { try RequestStores.saveCookieJar(cookieJar, lines: lines, changed: changed) }
    }
}
