import AFCurl
import Glibc

/// What one attempt starts from, decided before its request is sent (see `DownloadExchange.plan`).
struct AttemptPlan {
    /// Where the body of this attempt goes.
    enum Target {
        /// Standard output (nil) or a device or FIFO at this path: written directly.
        case stream(path: String?)
        /// A new file in this directory, named from the response.
        case automatic(directory: String)
        /// This final path, through `final.part`; `replaces` allows replacing an existing file.
        case file(final: String, replaces: Bool)
    }

    var target: Target
    /// The first byte asked for (`Range: bytes=offset-`); nil for the whole resource.
    var offset: Int64? = nil
    /// The state being continued: validators for `If-Range`, the total length.
    var state: DownloadState? = nil
    /// Our partial file, opened and locked.
    var partial: PartialFile? = nil
    /// A file written by another tool, continued in place (`-o FILE --resume`); it is moved to
    /// `FILE.part` only once a 206 that continues it has arrived, so it stays untouched otherwise.
    var adoptFrom: String? = nil
    /// A file an earlier run finished and renamed into place, whose state was left behind:
    /// nothing to send.
    var installed: String? = nil
}

/// Thrown when `--resume` chose a name from the response that an earlier, finished download
/// already holds: its `DownloadExchange` continues that file instead of saving `NAME-1`.
struct ExistingDownload: ClassifiedError {
    /// The existing file.
    var path: String
    /// Never reported: the exchange catches it and continues the file.
    var failureClass: FailureClass { .failure }
}

/// How an attempt ended without an error.
enum AttemptOutcome {
    /// The download is done.
    case finished(DownloadResult)
    /// A 416 said the partial file does not fit the resource: start again without a range.
    case restart
}

/// One request of a download: it decides what the response means, writes the body, and
/// finishes or saves the partial file. Its `DownloadExchange` passes it the events of its request.
final class DownloadAttempt: HTTPClientDelegate {
    let job: DownloadJob
    let plan: AttemptPlan
    unowned let observer: DownloadObserver
    /// Bytes an earlier attempt already wrote to the stream target.
    let streamWritten: Int64

    /// The decision for the final response, once its head has arrived.
    private(set) var decision: ResponseDecision?
    /// The partial file being written.
    private(set) var partial: PartialFile?
    /// The final path claimed for the file (automatic names are chosen on the first head).
    private(set) var finalPath: String?
    /// Body bytes written by this attempt.
    private(set) var received: Int64 = 0
    /// Where this attempt's body starts in the file.
    private(set) var startOffset: Int64 = 0
    /// Validators and length of this response, kept to resume a stream on the next attempt.
    private(set) var responseState: DownloadState?
    /// Seconds the response asked to wait before it is retried (`Retry-After`, a used-up rate
    /// limit's reset), read as `RetryingEngine` reads a request's.
    private(set) var serverWait: Double?
    /// The stream target, when writing to one.
    private(set) var stream: WriteBuffer?
    /// The descriptor behind `stream` when afcli opened it (a device path).
    private var openedStreamDescriptor: Int32 = -1
    /// The length this response's body should have.
    private var expectedLength: Int64?
    /// The complete length of the resource, when known.
    private(set) var expectedTotal: Int64?
    /// The running digest, when `--sha256` was given.
    private(set) var hasher: BodyDigest?
    /// Whether body bytes are being written.
    private(set) var writing = false
    /// Whether the final response's head has been reported to the observer.
    private(set) var announced = false

    init(job: DownloadJob, plan: AttemptPlan, observer: DownloadObserver, streamWritten: Int64) {
        self.job = job
        self.plan = plan
        self.observer = observer
        self.streamWritten = streamWritten
        self.partial = plan.partial
    }

    deinit {
        if openedStreamDescriptor >= 0 { close(openedStreamDescriptor) }
    }

    /// The request of this attempt: the job's, with `Range`/`If-Range` when it continues a file.
    var request: PreparedRequest {
        var request = job.request
        if let offset = plan.offset {
            request.headers.removeAll { ["range", "if-range"].contains(ASCIICase.lowercased($0.name)) }
            request.headers.append(HTTPField(name: "Range", value: "bytes=\(offset)-"))
            if let validator = plan.state?.ifRangeValidator {
                request.headers.append(HTTPField(name: "If-Range", value: validator))
            }
        }
        return request
    }

    /// Completes the download once its request ended with `result`: saves what can be saved of
    /// a failure (and says where it is), else finishes the file as the response decided.
    func finish(_ result: Result<HTTPClientResult, any Error>) throws -> AttemptOutcome {
        let sent: HTTPClientResult
        do {
            sent = try result.get()
        } catch {
            abandon()
            throw translate(error)
        }
        do {
            switch decision {
            case .alreadyComplete?:
                return .finished(try completeWholeFile())
            case .restartWithoutRange?:
                partial?.closeFile()
                return .restart
            case .writeFromStart?, .append?:
                return .finished(try complete())
            case .fail(let error)?:
                throw error
            case nil:
                throw DownloadError.httpStatus(code: sent.statusCode, reason: sent.reasonPhrase)
            }
        } catch {
            abandon()
            throw error
        }
    }

    // MARK: - HTTPClientDelegate

    func willSend(hop: Int, request: SentRequest) throws {}

    func willFollowInsecureRedirect(hop: Int, to: String) {
        observer.downloadWarning("following a redirect from https to http: \(to) is not encrypted")
    }

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        guard isFinal else { return }
        let offset = plan.offset
        var decision = ResponseDecision.decide(
            status: head.statusCode, reason: head.reasonPhrase, contentRange: head.value(for: "Content-Range"),
            contentLength: head.value(for: "Content-Length").flatMap { Int64($0) }, offset: offset,
            knownTotal: plan.state?.total, path: displayPath)
        // A whole body of the same length is the same file only if its validators still agree.
        if decision == .alreadyComplete, head.statusCode != 416, let state = plan.state,
            Self.validatorsChanged(state, head)
        {
            decision = .writeFromStart(warning: ResponseDecision.restartWarning)
        }
        self.decision = decision
        serverWait = ServerWait.read(head, now: WallClock.now()).seconds
        switch decision {
        case .fail(let error):
            throw error
        case .alreadyComplete, .restartWithoutRange:
            return
        case .writeFromStart(let warning):
            if let warning { observer.downloadWarning(warning) }
            try openForWholeBody(head)
        case .append(let length, let complete):
            try openForAppend(head, offset: offset ?? 0, length: length, complete: complete)
        }
        writing = true
    }

    /// Whether `head` names another version of the resource than the one `state` was saved for.
    private static func validatorsChanged(_ state: DownloadState, _ head: ResponseHead) -> Bool {
        if let etag = state.etag, let now = head.value(for: "ETag"), now != etag { return true }
        if let date = state.lastModified, let now = head.value(for: "Last-Modified"), now != date { return true }
        return false
    }

    /// A body that is already on disk (`alreadyComplete`) is not read.
    func needsMoreFinalBody() -> Bool {
        decision != .alreadyComplete
    }

    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        guard isFinal, writing else { return }
        if let partial {
            try partial.append(chunk)
        } else if let stream {
            try stream.append(chunk)
        }
        hasher?.update(chunk)
        received += Int64(chunk.count)
        observer.downloadDidProgress(done: startOffset + received)
    }

    func didFinishResponse(hop: Int, isFinal: Bool) throws {
        guard isFinal, writing, let expectedLength, received < expectedLength else { return }
        throw DownloadError.incomplete(
            received: startOffset + received, expected: expectedTotal, path: partial?.path,
            detail: "the server closed the response early")
    }

    // MARK: - Opening the target

    /// Prepares to write a whole body from byte 0 (a fresh download or a restart).
    private func openForWholeBody(_ head: ResponseHead) throws {
        let length = head.value(for: "Content-Length").flatMap { Int64($0) }
        expectedLength = length
        expectedTotal = length
        startOffset = 0
        let state = DownloadState(
            url: job.url, total: length, etag: head.value(for: "ETag"), lastModified: head.value(for: "Last-Modified"))
        responseState = state
        switch plan.target {
        case .stream(let path):
            guard streamWritten == 0 else { throw DownloadError.cannotRestartStream(written: streamWritten) }
            try openStream(path)
        case .automatic(let directory):
            let name = DownloadName.choose(
                contentDisposition: head.value(for: "Content-Disposition"), url: job.url,
                contentType: head.value(for: "Content-Type"))
            // A file already under the name is continued (as wget -c does) only when it could be
            // this resource: no longer than what the server now announces.
            if job.resume, let length, let existing = Self.finishedFile(named: name, in: directory),
                existing.size <= length
            {
                throw ExistingDownload(path: existing.path)
            }
            let claimed = try claim(name, in: directory, state: state)
            finalPath = claimed.final
            partial = claimed.partial
        case .file(let final, _):
            finalPath = final
            if partial == nil {
                partial = try PartialFile(path: final + ".part", state: state)
            }
        }
        try partial?.start(at: 0, state: state)
        if job.expectedDigest != nil { hasher = BodyDigest() }
        announce(total: length, alreadyDone: 0)
    }

    /// Prepares to append a 206 body at `offset`, hashing what is already on disk when a digest
    /// is wanted.
    private func openForAppend(_ head: ResponseHead, offset: Int64, length: Int64, complete: Int64?) throws {
        expectedLength = length
        expectedTotal = complete
        startOffset = offset
        var state = plan.state ?? DownloadState(url: job.url)
        state.url = job.url
        state.total = complete
        if let etag = head.value(for: "ETag") { state.etag = etag }
        if let modified = head.value(for: "Last-Modified") { state.lastModified = modified }
        responseState = state
        switch plan.target {
        case .stream(let path):
            try openStream(path)
        case .automatic:
            // A plan for a new name never asks for a range.
            throw DownloadError.unsolicitedPartialContent
        case .file(let final, _):
            finalPath = final
            let part = final + ".part"
            if let foreign = plan.adoptFrom {
                guard rename(foreign, part) == 0 else {
                    throw DownloadError.cannotRename(from: foreign, to: part, code: errno)
                }
            }
            let partial = try self.partial ?? PartialFile(path: part, state: state)
            self.partial = partial
            try partial.start(at: offset, state: state)
            if job.expectedDigest != nil {
                let prefix = BodyDigest()
                try partial.hashPrefix(offset, into: prefix) { Interruption.isInterrupted }
                hasher = prefix
            }
        }
        announce(total: complete, alreadyDone: offset)
    }

    /// Opens standard output or a device for writing.
    private func openStream(_ path: String?) throws {
        guard stream == nil else { return }
        guard let path else {
            stream = WriteBuffer(
                descriptor: STDOUT_FILENO, path: DownloadDestination.standardOutputName, initialOffset: streamWritten)
            return
        }
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DownloadError.cannotOpen(path: path, code: errno) }
        openedStreamDescriptor = descriptor
        stream = WriteBuffer(descriptor: descriptor, path: path, initialOffset: streamWritten)
    }

    /// Claims the first free name among `name`, `name-1`, `name-2`…: a name is taken when the
    /// file, its partial file or its state exists, and it is claimed by creating the state file
    /// exclusively (so a process killed right after still leaves a state `--resume` finds). With
    /// `--overwrite` the name itself is used whatever exists.
    private func claim(_ name: String, in directory: String, state: DownloadState) throws -> (
        final: String, partial: PartialFile
    ) {
        for number in 0..<10000 {
            let final = FileIO.join(directory, number == 0 ? name : DownloadName.numbered(name, number))
            let part = final + ".part"
            if FileIO.kind(of: final) == .directory { continue }
            if job.overwrite {
                return (final, try PartialFile(path: part, state: state))
            }
            let statePath = DownloadStateFile.path(forPart: part)
            if FileIO.exists(final) || FileIO.exists(part) || FileIO.exists(statePath) { continue }
            // False when another process claimed the name a moment ago: try the next one.
            guard try DownloadStateFile.create(state, at: statePath) else { continue }
            DownloadStateFile.removeAbandonedClaims(for: statePath)
            return (final, try PartialFile(path: part, state: state))
        }
        throw DownloadError.noFreeName(name)
    }

    /// The path and size of `name` in `directory` when it is a finished file (a regular file of
    /// the user's own, not empty) with no partial download beside it; else nil.
    private static func finishedFile(named name: String, in directory: String) -> (path: String, size: Int64)? {
        let final = FileIO.join(directory, name)
        let part = final + ".part"
        guard FileIO.exists(final), FileIO.problem(atPath: final) == nil,
            case .regular(let size) = FileIO.kind(of: final),
            size > 0, !FileIO.exists(part), !FileIO.exists(DownloadStateFile.path(forPart: part))
        else { return nil }
        return (final, size)
    }

    /// Tells the observer the transfer has started, once.
    private func announce(total: Int64?, alreadyDone: Int64) {
        guard !announced else { return }
        announced = true
        let name = finalPath ?? (stream?.path ?? DownloadDestination.standardOutputName)
        observer.downloadDidStart(name: name, total: total, alreadyDone: alreadyDone)
    }

    /// The path errors name: the partial file, else the target.
    private var displayPath: String {
        if let partial { return partial.path }
        if let adopt = plan.adoptFrom { return adopt }
        if case .file(let final, _) = plan.target { return final + ".part" }
        return "the output"
    }
}
