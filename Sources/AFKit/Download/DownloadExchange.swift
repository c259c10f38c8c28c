import AFCurl

/// One download across its tries, which `RetryingEngine` drives as their `TryPlanner`: each try
/// is planned from what is on disk (`plan`, in `DownloadExchange+Plan`), sent with
/// `Range`/`If-Range` when it continues a file, and judged by `ResponseDecision`; a transient
/// failure is retried from the bytes saved, a 416 that does not fit the partial file starts again
/// from zero. Unlike CJNetwork, a 200 to a range request restarts the file instead of being
/// appended to it. Warnings about files on disk go to the observer's `downloadWarningOnce`, which
/// tells each once however many tries and downloads find them.
///
/// It is the delegate of every try's request, passing the events on to the try's `DownloadAttempt`.
package final class DownloadExchange: TryPlanner, HTTPClientDelegate {
    /// The download; an automatic name, once claimed, becomes its file.
    private(set) var job: DownloadJob
    /// Where progress and warnings go.
    unowned let observer: DownloadObserver
    /// Whether the next try starts from zero, whatever is on disk.
    private(set) var fresh = false
    /// Whether the command line named the file: only then may it continue a state saved for
    /// another URL.
    let explicit: Bool
    /// Whether a failed try is being retried (continue our own partial file).
    private(set) var retrying = false
    /// Bytes already written to a stream target, and the stream's validators and length, for
    /// continuing it with a range.
    private(set) var streamWritten: Int64 = 0
    private(set) var streamState: DownloadState?
    /// Body bytes received by all tries, and the retries made.
    private var transferred: Int64 = 0
    private var retried = 0
    /// The try under way.
    private var attempt: DownloadAttempt?
    /// The finished download, once the exchange is over and succeeded.
    package private(set) var result: DownloadResult?

    package init(job: DownloadJob, observer: DownloadObserver) {
        self.job = job
        self.observer = observer
        if case .file = job.destination { explicit = true } else { explicit = false }
    }

    // MARK: - TryPlanner

    package func planTry(_ request: inout PreparedRequest) -> Result<HTTPClientResult, any Error>? {
        attempt = nil
        do {
            let plan = try self.plan()
            if let installed = plan.installed {
                result = try alreadyInstalled(installed)
                return .success(Self.nothingSent(job.request))
            }
            let attempt = DownloadAttempt(job: job, plan: plan, observer: observer, streamWritten: streamWritten)
            self.attempt = attempt
            request = attempt.request
            return nil
        } catch {
            return .failure(error)
        }
    }

    package func tryEnded(_ ended: Result<HTTPClientResult, any Error>) -> TryEnd {
        guard let attempt else { return .over(ended) }
        do {
            let outcome = try attempt.finish(ended)
            record(attempt)
            switch outcome {
            case .finished(var finished):
                finished.transferred = transferred
                finished.retries = retried
                result = finished
                return .over(ended)
            case .restart:
                observer.downloadWarning(
                    "the partial file does not match the file on the server; starting again from zero")
                fresh = true
                return .again
            }
        } catch let found as ExistingDownload {
            // `--resume` and the name chosen from the response is a file already there (an
            // earlier, finished download): continue it from its size as `-o NAME --resume`
            // would, which ends in "already complete" when the server's 416 confirms it.
            job.destination = .file(path: found.path, replaces: job.overwrite)
            fresh = false
            return .again
        } catch {
            record(attempt)
            return .failed(error, transient: Self.isTransient(error), serverWait: attempt.serverWait)
        }
    }

    package func willRetry(after error: any Error, wait: Double, retry: Int, of retries: Int) {
        retried += 1
        retrying = true
        fresh = false
        let reason = (error as? DownloadError)?.retriedDescription ?? "\(error)"
        observer.downloadWarning("\(reason); retrying in \(Self.seconds(wait)) (retry \(retry) of \(retries))")
    }

    /// Carries what a try learned into the next one: the name it claimed, the bytes it streamed
    /// and the stream's validators.
    private func record(_ attempt: DownloadAttempt) {
        transferred += attempt.received
        if case .automatic = job.destination {
            if let final = attempt.finalPath {
                job.destination = .file(path: final, replaces: job.overwrite)
            } else if case .file(let final, let replaces) = attempt.plan.target {
                // A partial download found by URL: later tries keep its name.
                job.destination = .file(path: final, replaces: replaces)
            }
        }
        if case .stream = attempt.plan.target {
            streamWritten = attempt.startOffset + attempt.received
            if let state = attempt.responseState { streamState = state }
        }
    }

    /// The result of an exchange that sent nothing: the file was already in place.
    private static func nothingSent(_ request: PreparedRequest) -> HTTPClientResult {
        let head = ResponseHead(statusCode: 200, reasonPhrase: "", httpVersion: "", headers: [])
        let outcome = TransferOutcome(
            statusCode: 200, effectiveURL: request.url, httpVersion: "", bytesDownloaded: 0, totalTime: 0, head: head,
            metrics: TransferMetrics())
        return HTTPClientResult(
            head: head, outcome: outcome, url: request.url, method: request.method, redirectCount: 0, totalTime: 0)
    }

    // MARK: - HTTPClientDelegate

    package func willSend(hop: Int, request: SentRequest) throws {
        try attempt?.willSend(hop: hop, request: request)
    }

    package func willFollowInsecureRedirect(hop: Int, to: String) {
        attempt?.willFollowInsecureRedirect(hop: hop, to: to)
    }

    package func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        try attempt?.didReceive(hop: hop, head: head, isFinal: isFinal)
    }

    package func needsMoreFinalBody() -> Bool {
        attempt?.needsMoreFinalBody() ?? true
    }

    package func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        try attempt?.didReceiveBody(hop: hop, chunk: chunk, isFinal: isFinal)
    }

    package func didFinishResponse(hop: Int, isFinal: Bool) throws {
        try attempt?.didFinishResponse(hop: hop, isFinal: isFinal)
    }
}
