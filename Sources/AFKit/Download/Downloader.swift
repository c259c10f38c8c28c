import AFCurl
import Glibc

/// Downloads files to disk or to a stream, resuming partial files and retrying transient
/// failures with exponential backoff (DESIGN §2; AFNETWORKING.md §8; CJNETWORK.md §8).
///
/// Each attempt is planned from what is on disk (the state file, the partial file, a file another
/// tool left), sent with `Range`/`If-Range` when it continues one, and judged by
/// `ResponseDecision`. Unlike CJNetwork, a 200 to a range request restarts the file instead of
/// being appended to it.
package final class Downloader {
    /// The client every request goes through (one connection pool for all files).
    private let client: HTTPClient
    /// Where progress and warnings go.
    private unowned let observer: DownloadObserver
    /// The warnings about files on disk given so far.
    private var warned: Set<String> = []

    /// A downloader sending through `client` (which should follow redirects).
    package init(client: HTTPClient, observer: DownloadObserver) {
        self.client = client
        self.observer = observer
    }

    /// What the attempts of one job have learned so far.
    private struct Progress {
        /// Whether a failed attempt is being retried (continue our own partial file).
        var retrying = false
        /// Bytes already written to a stream target.
        var streamWritten: Int64 = 0
        /// The stream's validators and length, for continuing it with a range.
        var streamState: DownloadState?
        /// Body bytes received by all attempts.
        var transferred: Int64 = 0
        /// Retries made.
        var retries = 0
    }

    /// Downloads `job`, retrying transient failures as `retry` allows. Throws `DownloadError`,
    /// `CurlError` (transport, interrupt) or `HTTPClientError` (redirects).
    package func download(_ job: DownloadJob, retry: RetryPolicy = RetryPolicy()) throws -> DownloadResult {
        var job = job
        var progress = Progress()
        var fresh = false
        // Only a file the command line named may continue a state saved for another URL.
        let explicit: Bool
        if case .file = job.destination { explicit = true } else { explicit = false }
        while true {
            var attempt: DownloadAttempt?
            do {
                let plan = try self.plan(job, progress: progress, fresh: fresh, explicit: explicit)
                if let installed = plan.installed { return try Self.alreadyInstalled(installed, job: job) }
                let current = DownloadAttempt(
                    job: job, plan: plan, observer: observer, streamWritten: progress.streamWritten)
                attempt = current
                let outcome = try current.run(with: client)
                record(current, into: &progress, job: &job)
                switch outcome {
                case .finished(var result):
                    result.transferred = progress.transferred
                    result.retries = progress.retries
                    return result
                case .restart:
                    observer.downloadWarning(
                        "the partial file does not match the file on the server; starting again from zero")
                    fresh = true
                }
            } catch let found as ExistingDownload {
                // `--resume` and the name chosen from the response is a file already there (an
                // earlier, finished download): continue it from its size as `-o NAME --resume`
                // would, which ends in "already complete" when the server's 416 confirms it.
                job.destination = .file(path: found.path, replaces: job.overwrite)
                fresh = false
            } catch {
                if let attempt { record(attempt, into: &progress, job: &job) }
                guard progress.retries < retry.retries, Self.isTransient(error) else { throw error }
                progress.retries += 1
                progress.retrying = true
                fresh = false
                let delay = retry.delay(beforeRetry: progress.retries, retryAfter: attempt?.retryAfter)
                observer.downloadWarning(
                    "\(error); retrying in \(Self.seconds(delay)) (retry \(progress.retries) of \(retry.retries))")
                try Self.pause(delay)
            }
        }
    }

    /// Carries what an attempt learned into the next one: the name it claimed, the bytes it
    /// streamed and the stream's validators.
    private func record(_ attempt: DownloadAttempt, into progress: inout Progress, job: inout DownloadJob) {
        progress.transferred += attempt.received
        if case .automatic = job.destination {
            if let final = attempt.finalPath {
                job.destination = .file(path: final, replaces: job.overwrite)
            } else if case .file(let final, let replaces) = attempt.plan.target {
                // A partial download found by URL: later attempts keep its name.
                job.destination = .file(path: final, replaces: replaces)
            }
        }
        if case .stream = attempt.plan.target {
            progress.streamWritten = attempt.startOffset + attempt.received
            if let state = attempt.responseState { progress.streamState = state }
        }
    }

    // MARK: - Planning

    /// Decides where this attempt starts: from scratch, or from a partial file (ours, with its
    /// state; ours without it; or, with `--resume` and `-o`, a file another tool left).
    private func plan(_ job: DownloadJob, progress: Progress, fresh: Bool, explicit: Bool) throws(DownloadError)
        -> AttemptPlan
    {
        switch job.destination {
        case .standardOutput:
            guard progress.streamWritten > 0 else { return AttemptPlan(target: .stream(path: nil)) }
            return AttemptPlan(target: .stream(path: nil), offset: progress.streamWritten, state: progress.streamState)
        case .automatic(let directory):
            try FileIO.checkWritableDirectory(directory)
            if job.resume, !fresh, let final = partialDownload(of: job.url, in: directory),
                let plan = try continuing(final, replaces: job.overwrite, job: job, adopting: false, explicit: false)
            {
                return plan
            }
            return AttemptPlan(target: .automatic(directory: directory))
        case .file(let path, let replaces):
            switch FileIO.kind(of: path) {
            case .directory:
                throw .outputIsDirectory(path: path)
            case .special:
                if job.resume { throw .cannotResumeStream(target: path) }
                guard progress.streamWritten > 0 else { return AttemptPlan(target: .stream(path: path)) }
                return AttemptPlan(
                    target: .stream(path: path), offset: progress.streamWritten, state: progress.streamState)
            case .regular, .missing:
                break
            }
            try FileIO.checkWritableDirectory(FileIO.directory(of: path))
            guard !fresh, job.resume || progress.retrying else {
                return AttemptPlan(target: .file(final: path, replaces: replaces))
            }
            let plan = try continuing(path, replaces: replaces, job: job, adopting: job.resume, explicit: explicit)
            return plan ?? AttemptPlan(target: .file(final: path, replaces: replaces))
        }
    }

    /// The plan for continuing the download of `final`: from the state file when there is one
    /// (never past the bytes it vouches for), else from a bare partial file's size, else (when
    /// `adopting`) from the size of `final` itself.
    ///
    /// A state is used only for the partial file it was written for (its inode) and the URL it
    /// was saved for; `explicit` (`-o` named the file) lets a state of another URL be continued,
    /// with a warning. A state that cannot be used is reported; then an `explicit` file continues
    /// from the partial file's size, and otherwise the result is nil: start afresh.
    private func continuing(
        _ final: String, replaces: Bool, job: DownloadJob, adopting: Bool, explicit: Bool
    ) throws(DownloadError) -> AttemptPlan? {
        let target = AttemptPlan.Target.file(final: final, replaces: replaces)
        let part = final + ".part"
        let statePath = DownloadStateFile.path(forPart: part)
        var ignoredState = false
        switch DownloadStateFile.load(statePath) {
        case .missing:
            break
        case .unusable(let problem):
            warnUnusable(statePath, problem: problem, part: part, final: final, continuing: explicit)
            guard explicit else { return nil }
            ignoredState = true
        case .usable(let state):
            if !FileIO.exists(part) {
                // A state without its partial file: either the last run renamed the finished file
                // into place and stopped before removing the state (the file is there, whole, and
                // is the very file the state was written for), or it claimed the name and stopped
                // before creating the partial file.
                DownloadStateFile.remove(statePath)
                if state.url == job.url || explicit, let inode = state.inode, FileIO.inode(atPath: final) == inode,
                    FileIO.problem(atPath: final) == nil, case .regular(let size) = FileIO.kind(of: final),
                    let total = state.total, size == total
                {
                    return AttemptPlan(target: target, installed: final)
                }
                if job.resume, FileIO.problem(atPath: final) == nil, case .regular(let size) = FileIO.kind(of: final),
                    size > 0
                {
                    // A file the state cannot vouch for: continued from its size, so the server's
                    // 416 says whether it is whole.
                    return AttemptPlan(target: target, offset: size, adoptFrom: final)
                }
                return AttemptPlan(target: target)
            }
            if state.url != job.url {
                guard explicit else {
                    warnUnusable(statePath, problem: .otherURL(state.url), part: part, final: final, continuing: false)
                    return nil
                }
                warnOnce("\(statePath) was saved for \(state.url); continuing it from \(job.url)")
            }
            let partial = try PartialFile(path: part, state: state)
            if state.bytes > 0, state.inode != partial.inode {
                partial.closeFile()
                let problem: DownloadStateProblem = state.inode == nil ? .namesNoPartialFile : .belongsToAnotherFile
                warnUnusable(statePath, problem: problem, part: part, final: final, continuing: explicit)
                guard explicit else { return nil }
                ignoredState = true
                break
            }
            // Bytes past what the state vouches for may not have reached the disk before a
            // crash; they are fetched again.
            let offset = min(state.bytes, partial.sizeOnDisk)
            return AttemptPlan(target: target, offset: offset > 0 ? offset : nil, state: state, partial: partial)
        }
        if FileIO.exists(part) {
            // A bare partial file (another tool's, or one whose state was ignored above).
            let partial = try PartialFile(path: part, state: DownloadState(url: job.url))
            let size = partial.sizeOnDisk
            return AttemptPlan(target: target, offset: size > 0 ? size : nil, partial: partial)
        }
        if adopting, !ignoredState, case .regular(let size) = FileIO.kind(of: final), size > 0 {
            // Another tool's file, continued in place: only a regular file of the user's own.
            if let problem = FileIO.problem(atPath: final) { throw .unsafeFile(path: final, problem: problem) }
            return AttemptPlan(target: target, offset: size, adoptFrom: final)
        }
        return AttemptPlan(target: target)
    }

    /// Warns that a state file is not used, saying why and what to do.
    private func warnUnusable(
        _ statePath: String, problem: DownloadStateProblem, part: String, final: String, continuing: Bool
    ) {
        let advice =
            continuing
            ? "continuing \(part) from its size without it (remove both to start again)"
            : "not resuming from it; to continue \(part) anyway, run with -o \(final) --resume, or remove both files"
        warnOnce("ignoring \(statePath): \(problem); \(advice)")
    }

    /// Gives a warning about the files on disk once, however many attempts plan from them.
    private func warnOnce(_ message: String) {
        guard warned.insert(message).inserted else { return }
        observer.downloadWarning(message)
    }

    /// The result for a file a previous run finished (checked against `--sha256` when given).
    private static func alreadyInstalled(_ path: String, job: DownloadJob) throws -> DownloadResult {
        let size: Int64
        if case .regular(let bytes) = FileIO.kind(of: path) { size = bytes } else { size = 0 }
        var digest: String?
        if let expected = job.expectedDigest {
            let actual = try PartialFile.digest(ofFileAt: path) { Interruption.isInterrupted }
            if Interruption.isInterrupted { throw CurlError.interrupted(signal: Interruption.signal ?? 0) }
            guard actual == expected else {
                throw DownloadError.checksumMismatch(
                    expected: SHA256.hex(expected), actual: SHA256.hex(actual), path: path, removed: false)
            }
            digest = SHA256.hex(actual)
        }
        return DownloadResult(
            path: path, size: size, transferred: 0, resumedFrom: size, alreadyComplete: true, sha256: digest,
            retries: 0)
    }

    /// The final path of a partial download of `url` in `directory`, found by its state file;
    /// the one with the most bytes when there are several. State files that cannot be read are
    /// reported, since one of them may be the download the user meant to resume.
    func partialDownload(of url: String, in directory: String) -> String? {
        let suffix = ".part.state"
        var best: (final: String, bytes: Int64)?
        for name in FileIO.names(in: directory).sorted() where name.hasSuffix(suffix) {
            let path = FileIO.join(directory, name)
            let final = String(path.dropLast(suffix.count))
            switch DownloadStateFile.load(path) {
            case .usable(let state):
                guard state.url == url else { continue }
                if state.bytes > (best?.bytes ?? -1) { best = (final, state.bytes) }
            case .unusable(let problem):
                warnUnusable(path, problem: problem, part: final + ".part", final: final, continuing: false)
            case .missing:
                continue
            }
        }
        return best?.final
    }

    // MARK: - Retries

    /// Whether `--retry` should try again after `error`: a server that stopped early or asked to
    /// come back later, a timeout, a refused connection, a failed send or receive.
    package static func isTransient(_ error: any Error) -> Bool {
        if let error = error as? DownloadError { return error.isTransient }
        if let error = error as? CurlError {
            return [.timeout, .couldNotConnect, .receiveFailed, .sendFailed].contains(error.kind)
        }
        return false
    }

    /// Sleeps `seconds` in short slices, stopping at once with the interrupt error on SIGINT or
    /// SIGTERM.
    static func pause(_ seconds: Double) throws {
        let deadline = FileIO.monotonicSeconds() + seconds
        while true {
            if Interruption.isInterrupted { throw CurlError.interrupted(signal: Interruption.signal ?? 0) }
            let left = deadline - FileIO.monotonicSeconds()
            guard left > 0 else { return }
            var slice = timespec(tv_sec: 0, tv_nsec: Int(min(left, 0.05) * 1_000_000_000))
            nanosleep(&slice, nil)
        }
    }

    /// `0.5 s`, `2 s`: a delay for messages.
    static func seconds(_ value: Double) -> String {
        if value == value.rounded() { return "\(Int(value)) s" }
        return "\((value * 100).rounded() / 100) s"
    }
}
