import AFCurl

/// How a download's tries are planned from what is on disk (DESIGN §2; AFNETWORKING.md §8;
/// CJNETWORK.md §8): each starts from scratch, or continues a partial file (ours, with its state;
/// ours without it; or, with `--resume` and `-o`, a file another tool left).
extension DownloadExchange {
    /// Decides where the next try starts, from what the earlier ones learned and what is on disk.
    func plan() throws(DownloadError) -> AttemptPlan {
        switch job.destination {
        case .standardOutput:
            guard streamWritten > 0 else { return AttemptPlan(target: .stream(path: nil)) }
            return AttemptPlan(target: .stream(path: nil), offset: streamWritten, state: streamState)
        case .automatic(let directory):
            try FileIO.checkWritableDirectory(directory)
            if job.resume, !fresh, let final = partialDownload(of: job.url, in: directory),
                let plan = try continuing(final, replaces: job.overwrite, adopting: false, explicit: false)
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
                guard streamWritten > 0 else { return AttemptPlan(target: .stream(path: path)) }
                return AttemptPlan(target: .stream(path: path), offset: streamWritten, state: streamState)
            case .regular, .missing:
                break
            }
            try FileIO.checkWritableDirectory(FileIO.directory(of: path))
            guard !fresh, job.resume || retrying else {
                return AttemptPlan(target: .file(final: path, replaces: replaces))
            }
            let plan = try continuing(path, replaces: replaces, adopting: job.resume, explicit: explicit)
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
        _ final: String, replaces: Bool, adopting: Bool, explicit: Bool
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
                observer.downloadWarningOnce("\(statePath) was saved for \(state.url); continuing it from \(job.url)")
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
        observer.downloadWarningOnce("ignoring \(statePath): \(problem); \(advice)")
    }

    /// The result for a file a previous run finished (checked against `--sha256` when given).
    func alreadyInstalled(_ path: String) throws -> DownloadResult {
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
    static func isTransient(_ error: any Error) -> Bool {
        if let error = error as? DownloadError { return error.isTransient }
        if let error = error as? CurlError {
            return [.timeout, .couldNotConnect, .receiveFailed, .sendFailed].contains(error.kind)
        }
        return false
    }

    /// `0.5 s`, `2 s`: a delay for messages.
    static func seconds(_ value: Double) -> String {
        if value == value.rounded() { return "\(Int(value)) s" }
        return "\((value * 100).rounded() / 100) s"
    }
}
