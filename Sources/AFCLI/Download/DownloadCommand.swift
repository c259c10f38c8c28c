import AFKit

/// Runs `afcli download URL…`: each URL to a file (or `-o -` to standard output), one after
/// another over one connection pool, with a summary at the end when there are several.
///
/// Every positional after `download` is a URL (shorthands such as `:8080/x` work); request items
/// are not taken, so a URL can never be mistaken for one.
struct DownloadCommand {
    var positionals: [String]
    /// The settings every download reads, resolved once.
    let settings: ResolvedSettings
    var environment: [String: String]
    var terminal: Terminal

    /// The options as parsed.
    var options: Settings { settings.options }

    /// Downloads every URL and returns the exit status: success, or the status of the first
    /// download that failed. The options were checked by `validate` before.
    ///
    /// The downloads are a plan of one entry per URL, sent one after another on `EngineStack`'s
    /// download stack and told by a `DownloadReporter`; a failed one does not stop the others.
    func run() throws -> ExitStatus {
        let urls = Array(positionals.dropFirst())
        // Every URL is checked before anything is sent.
        let jobs = try urls.map(job(for:))
        // TLS options (--verify, pins, client certificates, --resolve) apply to every URL.
        let settings = try EngineStack.downloadSettings(
            options: options, environment: environment, urls: jobs.map(\.request.url))
        let style =
            options.output.quiet && options.output.progress == .auto ? ProgressStyle.none : options.output.progress
        let reporter = DownloadReporter(
            jobs: jobs, urls: urls, style: style, stderrIsTerminal: terminal.stderrIsTerminal,
            quiet: options.output.quiet)
        // A download judges its responses itself (a status that saves nothing is its error).
        var judged = options
        judged.pipeline.checkStatus = false
        let shared = SharedOptions(self.settings.overriding(judged))
        let entries = zip(urls, jobs).map { url, job in
            PlanEntry(name: url, origin: url, isKeeper: false) {
                PlannedRequest(prepared: job.request, shared: shared, isShared: true)
            }
        }
        let stack = try EngineStack.download(settings: settings, options: options)
        return try stack.runner(RunPlan(entries: entries, keepGoing: true), reporter: reporter).run()
    }

    /// The job for one URL: a GET that asks for the bytes as stored (`Accept-Encoding:
    /// identity`), so a resumed range lines up with what is on disk.
    private func job(for text: String) throws -> DownloadJob {
        // OAuth 2's options are not in a download's scope (`OptionTable`), and so neither is its token.
        if options.request.authType == .oauth2 { throw OAuth2Error.notForDownloads }
        let url = try EnvironmentTarget.resolve(text, settings: self.settings).url
        var spec = RequestSpec(
            method: "GET", url: url, headers: [HeaderItem(name: "Accept-Encoding", value: "identity")],
            credentials: try InvocationBuilder.credentials(options))
        if let profile = self.settings.profile { EnvironmentStage(profile: profile).applyHeaders(to: &spec) }
        let request = try RequestSerializer.prepare(spec, environment: environment)
        let destination: DownloadDestination
        switch options.output.outputFile {
        case "-"?: destination = .standardOutput
        case let path?: destination = .file(path: path, replaces: true)
        case nil: destination = .automatic(directory: ".")
        }
        return DownloadJob(
            request: request, destination: destination, resume: options.download.resume,
            overwrite: options.download.overwrite,
            expectedDigest: options.download.sha256.flatMap(SHA256.parseHex))
    }

    /// Refuses combinations that cannot work, before anything is sent.
    static func validate(_ options: Settings, urlCount: Int) throws {
        guard urlCount > 0 else { throw UsageError.missingURL }
        if options.output.outputFile == "-" && options.download.resume {
            throw DownloadUsageError.resumeToStandardOutput
        }
        if let output = options.output.outputFile, output != "-", urlCount > 1 {
            throw DownloadUsageError.oneOutputForSeveralURLs(urlCount)
        }
        if options.download.sha256 != nil, urlCount > 1 { throw DownloadUsageError.oneDigestForSeveralURLs(urlCount) }
        if let output = options.output.outputFile, output != "-" {
            // A directory that is missing or none is a mistake in -o, like -o DIR: refused as bad
            // input before sending. One that exists but cannot be written is found when writing.
            let directory = FileIO.directory(of: output)
            switch FileIO.kind(of: directory) {
            case .directory: break
            case .missing: throw DownloadUsageError.noOutputDirectory(directory, reason: "no such file or directory")
            default: throw DownloadUsageError.noOutputDirectory(directory, reason: "not a directory")
            }
        }
    }
}

/// Download command lines that cannot work; reported with exit status 2, nothing sent.
enum DownloadUsageError: ClassifiedError, CustomStringConvertible {
    /// `-o -` with `--resume`.
    case resumeToStandardOutput
    /// `-o FILE` with several URLs.
    case oneOutputForSeveralURLs(Int)
    /// `--sha256` with several URLs.
    case oneDigestForSeveralURLs(Int)
    /// `-o FILE` in a directory that does not exist or is not a directory.
    case noOutputDirectory(String, reason: String)

    var failureClass: FailureClass { .badInput }

    var description: String {
        switch self {
        case .resumeToStandardOutput:
            return "--resume cannot continue standard output (-o -); download to a file to resume"
        case .oneOutputForSeveralURLs(let count):
            return "-o names one file, but \(count) URLs were given"
        case .oneDigestForSeveralURLs(let count):
            return "--sha256 checks one file, but \(count) URLs were given"
        case .noOutputDirectory(let directory, let reason):
            return "cannot write to the directory \(directory): \(reason)"
        }
    }
}
