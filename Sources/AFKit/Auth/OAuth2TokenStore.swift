import AFCurl
import Glibc

/// Where `-A oauth2` keeps a token between invocations: the token store, or the session
/// (`OAuth2SessionTokens`). Tokens are looked up by `OAuth2TokenStore.key`.
package protocol OAuth2TokenKeeper: AnyObject {
    /// The stored entry for `key`, if any and readable.
    func load(key: String) -> OAuth2TokenStore.Entry?
    /// Keeps `entry` for `key`.
    func save(_ entry: OAuth2TokenStore.Entry, key: String) throws
    /// Forgets the entry for `key` (a token the API refused).
    func remove(key: String)
}

/// The token store used when there is no session: one 0600 file per token URL, client id and
/// scope in a 0700 directory (`$XDG_STATE_HOME/afcli/tokens`), named by their key, holding the
/// token and when it expires. Files are read only when they are the user's own regular files,
/// never through a symbolic link, and replaced atomically; an unreadable one is as good as none.
/// The directory, and the `afcli` directory above it, are afcli's own making: a symbolic link
/// at either was planted, and is not followed (nor is a directory of another user's used).
package final class OAuth2TokenStore: OAuth2TokenKeeper {
    /// The directory; nil keeps tokens in memory only (no home directory).
    package let directory: String?

    package init(directory: String?) {
        self.directory = directory
    }

    /// A token and when it expires (seconds since the epoch; nil when the server did not say).
    package struct Entry: Equatable, Sendable {
        package var accessToken: String
        package var expiresAt: Int64?

        package init(accessToken: String, expiresAt: Int64?) {
            self.accessToken = accessToken
            self.expiresAt = expiresAt
        }

        /// `{"access_token": …, "expires_at": …}`.
        var json: JSONValue {
            var members = [JSONMember(key: "access_token", value: .string(accessToken))]
            if let expiresAt { members.append(JSONMember(key: "expires_at", value: .number("\(expiresAt)"))) }
            return .object(members)
        }

        /// The entry `json` wrote; nil for anything else.
        init?(json: JSONValue) {
            guard case .object(let members) = json,
                case .string(let token)? = members.first(where: { $0.key == "access_token" })?.value
            else { return nil }
            accessToken = token
            if case .number(let text)? = members.first(where: { $0.key == "expires_at" })?.value {
                expiresAt = Int64(text)
            }
        }
    }

    /// The key of a token URL, client id and scope: the SHA-256 of the three, in hexadecimal.
    package static func key(tokenURL: String, clientID: String, scope: String?) -> String {
        SHA256.hex(SHA256.hash(Array("\(tokenURL)\n\(clientID)\n\(scope ?? "")".utf8)))
    }

    /// The name of the file for `key` in the directory.
    static func fileName(_ key: String) -> String { key + ".json" }

    /// The directory opened, its last two components (`afcli/tokens`) without following a
    /// symbolic link, and only when it is the user's own; created (0700) first when `creating`.
    /// -1 when there is none or it cannot be used.
    private func openDirectory(creating: Bool) -> Int32 {
        guard let directory else { return -1 }
        let parent = FileIO.directory(of: directory)
        let base = FileIO.directory(of: parent)
        if creating, (try? SessionStore.makeDirectories(base, for: directory)) == nil { return -1 }
        var descriptor = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        for name in [FileIO.baseName(of: parent), FileIO.baseName(of: directory)] where descriptor >= 0 {
            if creating { _ = mkdirat(descriptor, name, 0o700) }
            let next = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            close(descriptor)
            descriptor = next
        }
        guard descriptor >= 0 else { return -1 }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_uid == geteuid() else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    package func load(key: String) -> Entry? {
        let folder = openDirectory(creating: false)
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        // O_NONBLOCK: a FIFO planted at the name must not block the open; it is refused below.
        let descriptor = openat(folder, Self.fileName(key), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard FileIO.problem(withOpenFile: descriptor) == nil,
            let bytes = try? FileDescriptorIO.readAll(descriptor, limit: 64 * 1024),
            let value = try? JSONParser.parse(bytes: bytes)
        else { return nil }
        return Entry(json: value)
    }

    package func save(_ entry: Entry, key: String) throws {
        guard let directory else { return }
        let path = FileIO.join(directory, Self.fileName(key))
        let folder = openDirectory(creating: true)
        guard folder >= 0 else {
            throw SessionError.cannotWrite(
                path: path,
                reason: "\(directory) is not a directory of the user's own (a symbolic link is not followed)")
        }
        defer { close(folder) }
        try SessionStore.write(try JSONWriter.encode(entry.json), named: Self.fileName(key), in: folder, path: path)
    }

    package func remove(key: String) {
        let folder = openDirectory(creating: false)
        guard folder >= 0 else { return }
        unlinkat(folder, Self.fileName(key), 0)
        close(folder)
    }
}

/// The tokens a session file keeps (`--session` with `-A oauth2`), under its own member
/// (`SessionFile`'s other members, which HTTPie leaves alone), written back with the session.
package final class OAuth2SessionTokens: OAuth2TokenKeeper {
    /// The session member that holds them.
    package static let member = "afcli_oauth2_tokens"
    private var entries: [(key: String, entry: OAuth2TokenStore.Entry)]

    /// The tokens of a session's member value (nil: none yet).
    package init(_ value: JSONValue?) {
        guard case .object(let members)? = value else {
            entries = []
            return
        }
        entries = members.compactMap { member in OAuth2TokenStore.Entry(json: member.value).map { (member.key, $0) } }
    }

    /// The member's value to write back; nil when no token is kept.
    package var json: JSONValue? {
        entries.isEmpty ? nil : .object(entries.map { JSONMember(key: $0.key, value: $0.entry.json) })
    }

    package func load(key: String) -> OAuth2TokenStore.Entry? {
        entries.first { $0.key == key }?.entry
    }

    package func save(_ entry: OAuth2TokenStore.Entry, key: String) throws {
        remove(key: key)
        entries.append((key, entry))
    }

    package func remove(key: String) {
        entries.removeAll { $0.key == key }
    }
}
