import AFKit
import Glibc

/// `afcli cache ls|show URL|rm URL|--all|prune|path`: looks at and tidies the response cache.
struct CacheCommand {
    var positionals: [String]
    var options: Settings
    var environment: [String: String]

    /// Runs the action named after `cache`.
    func run() throws -> ExitStatus {
        let words = Array(positionals.dropFirst())
        let action = words.first ?? ""
        let argument = words.dropFirst().first
        guard let directory = CacheDirectory.path(environment: environment) else {
            throw CacheUsageError(
                description: "cache: no cache directory (no absolute XDG_CACHE_HOME, and no home directory in HOME "
                    + "or the password database)")
        }
        let expected: Int
        switch action {
        case "show": expected = 2
        case "rm": expected = options.pipeline.cache.all ? 1 : 2
        case "ls", "prune", "path": expected = 1
        default:
            throw CacheUsageError(
                description: "cache: unknown action \"\(action)\" (ls, show URL, rm URL|--all, prune or path)")
        }
        guard words.count == expected else {
            if words.count < expected {
                throw CacheUsageError(description: "cache \(action): missing URL")
            }
            throw UsageError.unexpectedArgument(command: "cache \(action)", argument: words[expected])
        }
        if action == "path" {
            try printOut(directory + "\n")
            return .success
        }
        let now = CacheClock.clock(environment: environment)()
        if action == "prune" { return try prune(directory: directory, now: now) }
        let store = try CacheStore(directory: directory)
        switch action {
        case "ls":
            try printOut(CacheListing.table(try store.entries(), now: now))
        case "show":
            let url = try Self.storedURL(argument ?? "")
            let entries = try store.entries(url: url)
            guard !entries.isEmpty else {
                ErrorReporter.warn("nothing is stored for \(url)")
                return .failure
            }
            try printOut(entries.map { CacheListing.details($0, now: now) }.joined(separator: "\n"))
        default:
            let url = options.pipeline.cache.all ? "" : try Self.storedURL(argument ?? "")
            let count = options.pipeline.cache.all ? try store.removeAll() : try store.remove(url: url)
            try printOut("removed \(count) \(count == 1 ? "entry" : "entries")\n")
        }
        return .success
    }

    /// The URL as a request to `typed` would store it: shorthands expanded, characters a URL
    /// cannot hold percent-encoded, dot segments removed, then normalized as the key is.
    static func storedURL(_ typed: String) throws -> String {
        CacheKey.normalize(try RequestURL.make(from: typed))
    }

    /// Prunes the cache, or rebuilds it empty when its database is damaged; any other failure (a
    /// full disk, a lock held too long) is an error and leaves the cache as it is.
    private func prune(directory: String, now: Double) throws -> ExitStatus {
        let store: CacheStore
        var rebuilt = false
        do {
            store = try CacheStore(directory: directory)
        } catch {
            guard error.isCorruption else { throw error }
            ErrorReporter.warn("\(error); rebuilding an empty cache")
            store = try CacheStore.rebuild(directory: directory)
            rebuilt = true
        }
        var report: CachePruneReport
        do {
            report = try store.prune(
                now: now, maxSize: options.pipeline.cache.maxSize, verify: options.pipeline.cache.verify)
        } catch {
            guard (error as? CacheError)?.isCorruption ?? (error as? SQLiteError)?.isCorruption ?? false else {
                throw error
            }
            ErrorReporter.warn(
                "the cache database \(store.databasePath) is unreadable: \(error); rebuilding an empty cache")
            report = try CacheStore.rebuild(directory: directory).prune(
                now: now, maxSize: options.pipeline.cache.maxSize)
            rebuilt = true
        }
        report.rebuilt = rebuilt
        try printOut(
            "removed \(report.expired) expired, \(report.evicted) least recently used, "
                + "\(report.filesRemoved) unused files"
                + (options.pipeline.cache.verify ? ", \(report.damaged) damaged" : "")
                + (rebuilt ? "; the cache was rebuilt" : "") + "\n")
        return .success
    }

    private func printOut(_ text: String) throws {
        let stream = OutputStream(descriptor: STDOUT_FILENO, target: "standard output")
        try stream.write(text)
        try stream.flush()
    }
}

/// The text of `afcli cache ls` and `afcli cache show`.
enum CacheListing {
    /// One line per entry: method, URL, status, size, age, expiry.
    static func table(_ entries: [CacheEntry], now: Double) -> String {
        var rows = [["METHOD", "URL", "STATUS", "SIZE", "AGE", "EXPIRES"]]
        for entry in entries {
            rows.append([
                entry.method, entry.url.escapingTerminalControls, String(entry.statusCode), String(entry.bodySize),
                duration(age(entry, now: now)), expiry(entry, now: now),
            ])
        }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, text in
                index == 5 ? text : text + String(repeating: " ", count: widths[index] - text.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// Everything about one entry: key parts, status line, headers, body, times.
    static func details(_ entry: CacheEntry, now: Double) -> String {
        var text = "\(entry.method) \(entry.url)\n".escapingTerminalControls
        if !entry.namespace.isEmpty { text += "namespace: \(entry.namespace)\n".escapingTerminalControls }
        if !entry.varyNames.isEmpty { text += "varies on: \(entry.varyNames.joined(separator: ", "))\n" }
        text += "age: \(duration(age(entry, now: now))), expires: \(expiry(entry, now: now))\n"
        switch entry.body {
        case .inline: text += "body: \(entry.bodySize) bytes in the database\n"
        case .file(let digest): text += "body: \(entry.bodySize) bytes in bodies/\(digest)\n"
        }
        text += "\n\(entry.httpVersion) \(entry.statusCode) \(entry.reasonPhrase)\n".escapingTerminalControls
        for field in entry.headers { text += "\(field.name): \(field.value)\n".escapingTerminalControls }
        return text
    }

    private static func age(_ entry: CacheEntry, now: Double) -> Double {
        CacheFreshness.age(entry.head, requestTime: entry.requestTime, responseTime: entry.responseTime, now: now)
    }

    private static func expiry(_ entry: CacheEntry, now: Double) -> String {
        guard let expires = entry.expires else { return "never" }
        return expires <= now ? "expired" : "in " + duration(expires - now)
    }

    /// `12 s`, `5 min`, `3 h`, `2 d`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(max(0, seconds))
        if whole < 120 { return "\(whole) s" }
        if whole < 7200 { return "\(whole / 60) min" }
        if whole < 172_800 { return "\(whole / 3600) h" }
        return "\(whole / 86400) d"
    }
}
