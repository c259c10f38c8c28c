import AFCurl

extension DownloadAttempt {
    /// Finishes a transferred body: fsync, digest check, atomic rename into place.
    func complete() throws -> DownloadResult {
        let size = startOffset + received
        if let partial {
            try partial.finishWriting()
            let digest = try verify(hasher: hasher, path: finalPath ?? partial.path) { partial.remove() }
            let final = finalPath ?? String(partial.path.dropLast(".part".count))
            let installed = try partial.install(as: final, replacing: replaces)
            observer.downloadDidStop(completed: true)
            if installed != final {
                // A file continued in place (`--resume` on NAME) was there all along.
                let why =
                    plan.adoptFrom == nil ? "appeared while downloading" : "is kept (use --overwrite to replace it)"
                observer.downloadWarning("\(final) \(why); saved as \(installed) instead")
            }
            return result(path: installed, size: size, alreadyComplete: false, digest: digest)
        }
        try stream?.flush()
        let digest = try verify(hasher: hasher, path: streamName, onMismatch: nil)
        observer.downloadDidStop(completed: true)
        return result(path: streamPath, size: size, alreadyComplete: false, digest: digest)
    }

    /// Finishes a partial file the server says is already whole (416 with its exact length).
    func completeWholeFile() throws -> DownloadResult {
        let size = plan.offset ?? 0
        if let partial {
            try partial.finishWriting()
            var digest: String?
            if job.expectedDigest != nil {
                let hasher = BodyDigest()
                try partial.hashPrefix(size, into: hasher) { Interruption.isInterrupted }
                try checkInterrupted()
                digest = try verify(hasher: hasher, path: partial.path) { partial.remove() }
            }
            guard case .file(let final, _) = plan.target else { throw DownloadError.unsolicitedPartialContent }
            let installed = try partial.install(as: final, replacing: replaces)
            return result(path: installed, size: size, alreadyComplete: true, digest: digest)
        }
        if let foreign = plan.adoptFrom {
            var digest: String?
            if let expected = job.expectedDigest {
                let actual = try PartialFile.digest(ofFileAt: foreign) { Interruption.isInterrupted }
                try checkInterrupted()
                guard actual == expected else {
                    // Not afcli's file: reported, never deleted.
                    throw DownloadError.checksumMismatch(
                        expected: SHA256.hex(expected), actual: SHA256.hex(actual), path: foreign, removed: false)
                }
                digest = SHA256.hex(actual)
            }
            return result(path: foreign, size: size, alreadyComplete: true, digest: digest)
        }
        return result(path: streamPath, size: size, alreadyComplete: true, digest: nil)
    }

    /// Saves what can be saved after a failure: the partial file's state, the stream's buffer.
    func abandon() {
        partial?.suspend()
        try? stream?.flush()
        if announced { observer.downloadDidStop(completed: false) }
    }

    /// A transport failure in the middle of the body becomes an incomplete download, which says
    /// where the partial file is; other errors pass unchanged.
    func translate(_ error: any Error) -> any Error {
        if let curl = error as? CurlError, curl.kind == .interrupted, let partial {
            // What was saved, and where: the message tells how to continue.
            return DownloadError.interrupted(
                signal: Interruption.signal ?? 0, saved: partial.state.bytes, path: partial.path)
        }
        guard let curl = error as? CurlError, curl.kind == .receiveFailed, writing else { return error }
        return DownloadError.incomplete(
            received: startOffset + received, expected: expectedTotal, path: partial?.path, detail: curl.description)
    }

    // MARK: - Helpers

    /// Compares a finished digest with `--sha256`; runs `onMismatch` (removing our file) and
    /// throws when they differ. Returns the hex digest, or nil when no check was asked for.
    private func verify(hasher: BodyDigest?, path: String, onMismatch: (() -> Void)?) throws -> String? {
        guard let expected = job.expectedDigest, let hasher else { return nil }
        guard let actual = hasher.finalizeBytes() else {
            observer.downloadDidStop(completed: false)
            throw DownloadError.checksumUnavailable(path: path)
        }
        guard actual == expected else {
            onMismatch?()
            observer.downloadDidStop(completed: false)
            throw DownloadError.checksumMismatch(
                expected: SHA256.hex(expected), actual: SHA256.hex(actual), path: path, removed: onMismatch != nil)
        }
        return SHA256.hex(actual)
    }

    /// Whether an existing file at the final path may be replaced.
    private var replaces: Bool {
        if case .file(_, let replaces) = plan.target { return replaces }
        return job.overwrite
    }

    /// Throws the interrupt error when SIGINT/SIGTERM arrived during a long local step.
    private func checkInterrupted() throws {
        if Interruption.isInterrupted { throw CurlError.interrupted(signal: Interruption.signal ?? 0) }
    }

    /// The result of this attempt; its `DownloadExchange` adds the totals over all attempts.
    private func result(path: String?, size: Int64, alreadyComplete: Bool, digest: String?) -> DownloadResult {
        DownloadResult(
            path: path, size: size, transferred: received, resumedFrom: startOffset, alreadyComplete: alreadyComplete,
            sha256: digest, retries: 0)
    }

    /// The device path of a stream target, nil for standard output.
    private var streamPath: String? {
        if case .stream(let path) = plan.target { return path }
        return nil
    }

    /// The stream's name in messages.
    private var streamName: String { streamPath ?? DownloadDestination.standardOutputName }
}
