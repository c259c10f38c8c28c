import AFCurl

/// One download across its tries, which `RetryingEngine` drives as their `TryPlanner`: each try
/// is planned from what is on disk (`Downloader.plan`), sent with `Range`/`If-Range` when it
/// continues a file, and judged by `ResponseDecision`; a transient failure is retried from the
/// bytes saved, a 416 that does not fit the partial file starts again from zero. Unlike CJNetwork,
/// a 200 to a range request restarts the file instead of being appended to it.
///
/// It is the delegate of every try's request, passing the events on to the try's `DownloadAttempt`.
package final class DownloadExchange: TryPlanner, HTTPClientDelegate {
    private var job: DownloadJob
    private let downloader: Downloader
    private var progress = Downloader.Progress()
    /// Whether the next try starts from zero, whatever is on disk.
    private var fresh = false
    /// Whether the command line named the file: only then may it continue a state saved for
    /// another URL.
    private let explicit: Bool
    /// The try under way.
    private var attempt: DownloadAttempt?
    /// The finished download, once the exchange is over and succeeded.
    package private(set) var result: DownloadResult?

    package init(job: DownloadJob, downloader: Downloader) {
        self.job = job
        self.downloader = downloader
        if case .file = job.destination { explicit = true } else { explicit = false }
    }

    // MARK: - TryPlanner

    package func planTry(_ request: inout PreparedRequest) -> Result<HTTPClientResult, any Error>? {
        attempt = nil
        do {
            let plan = try downloader.plan(job, progress: progress, fresh: fresh, explicit: explicit)
            if let installed = plan.installed {
                result = try Downloader.alreadyInstalled(installed, job: job)
                return .success(Self.nothingSent(job.request))
            }
            let attempt = DownloadAttempt(
                job: job, plan: plan, observer: downloader.observer, streamWritten: progress.streamWritten)
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
                finished.transferred = progress.transferred
                finished.retries = progress.retries
                result = finished
                return .over(ended)
            case .restart:
                downloader.observer.downloadWarning(
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
            return .failed(error, transient: Downloader.isTransient(error), serverWait: attempt.retryAfter)
        }
    }

    package func willRetry(after error: any Error, wait: Double, retry: Int, of retries: Int) {
        progress.retries += 1
        progress.retrying = true
        fresh = false
        downloader.observer.downloadWarning(
            "\(error); retrying in \(Downloader.seconds(wait)) (retry \(retry) of \(retries))")
    }

    /// Carries what a try learned into the next one: the name it claimed, the bytes it streamed
    /// and the stream's validators.
    private func record(_ attempt: DownloadAttempt) {
        progress.transferred += attempt.received
        if case .automatic = job.destination {
            if let final = attempt.finalPath {
                job.destination = .file(path: final, replaces: job.overwrite)
            } else if case .file(let final, let replaces) = attempt.plan.target {
                // A partial download found by URL: later tries keep its name.
                job.destination = .file(path: final, replaces: replaces)
            }
        }
        if case .stream = attempt.plan.target {
            progress.streamWritten = attempt.startOffset + attempt.received
            if let state = attempt.responseState { progress.streamState = state }
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
