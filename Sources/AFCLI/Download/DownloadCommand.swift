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
    func run() throws -> ExitStatus {
        let urls = Array(positionals.dropFirst())
        // Every URL is checked before anything is sent.
        let jobs = try urls.map(job(for:))
        // TLS options (--verify, pins, client certificates, --resolve) apply to every URL.
        var settings = transferSettings()
        for job in jobs { try SecurityOptions.configure(&settings, options: options, url: job.request.url) }
        let style =
            options.output.quiet && options.output.progress == .auto ? ProgressStyle.none : options.output.progress
        let reporter = DownloadReporter(
            style: style, stderrIsTerminal: terminal.stderrIsTerminal, quiet: options.output.quiet)
        let downloader = Downloader(client: HTTPClient(options: settings), observer: reporter)
        let retry = RetryPolicy(retries: options.retry.count, initialDelay: options.retry.delay ?? 1)

        var summary = DownloadSummary()
        var status = ExitStatus.success
        for (index, job) in jobs.enumerated() {
            reporter.startFile()
            do {
                let result = try downloader.download(job, retry: retry)
                reporter.saved(result)
                summary.add(url: urls[index], result: result)
            } catch {
                let (code, message, _) = ErrorReporter.classify(error)
                // One URL: the error is reported as any command's; an interrupt stops them all.
                if jobs.count == 1 || code == .interrupted { throw error }
                // Several URLs: the line says which one failed (the summary repeats it at the end).
                _ = ErrorReporter.report(LocatedError(origin: urls[index], underlying: error))
                summary.add(url: urls[index], failure: message)
                if status == .success { status = code }
            }
        }
        if jobs.count > 1, !options.output.quiet { summary.print() }
        return status
    }

    /// The job for one URL: a GET that asks for the bytes as stored (`Accept-Encoding:
    /// identity`), so a resumed range lines up with what is on disk.
    private func job(for text: String) throws -> DownloadJob {
        // Its token is added by the request engine's decorator, which downloads do not go through.
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

    /// Downloads follow redirects (DESIGN §2), leave the body undecoded and take credentials from
    /// netrc and keep them from other hosts (unless `--location-trusted`) as requests do; with `--retry` a stalled server times out (and is retried) after
    /// `downloadRetryIdleTimeout` seconds.
    func transferSettings() -> TransferSettings {
        var client = options.transferSettings(
            netrcFile: RequestStores.netrcFile(options: options, environment: environment))
        client.follow = true
        client.acceptEncoding = nil
        if options.retry.count > 0, options.transfer.timeout == nil {
            client.idleTimeout = Settings.Transfer.downloadRetryIdleTimeout
        }
        return client
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
