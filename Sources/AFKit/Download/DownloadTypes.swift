/// One file to download, as the command line asked for it.
package struct DownloadJob {
    /// The GET request, with `Accept-Encoding: identity` and no `Range` (added per attempt).
    package var request: PreparedRequest
    /// Where the data goes.
    package var destination: DownloadDestination
    /// Whether to continue a partial download (`--resume`).
    package var resume: Bool
    /// Whether an existing file may be replaced (`--overwrite`; always true for `-o FILE`).
    package var overwrite: Bool
    /// The SHA-256 the finished file must have (`--sha256`), or nil.
    package var expectedDigest: [UInt8]?

    package init(
        request: PreparedRequest, destination: DownloadDestination, resume: Bool = false, overwrite: Bool = false,
        expectedDigest: [UInt8]? = nil
    ) {
        self.request = request
        self.destination = destination
        self.resume = resume
        self.overwrite = overwrite
        self.expectedDigest = expectedDigest
    }

    /// The URL as requested, before redirects: the key state files are found by.
    package var url: String { request.url }
}

/// Where a download's data goes.
package enum DownloadDestination: Equatable, Sendable {
    /// A file in `directory`, named from the response (Content-Disposition, URL, `index`).
    case automatic(directory: String)
    /// This file (`-o FILE`); `replaces` says whether an existing one may be replaced.
    case file(path: String, replaces: Bool)
    /// Standard output (`-o -`): streamed, no partial file.
    case standardOutput

    /// How messages name standard output as a download's target.
    package static let standardOutputName = "standard output"
}

/// What a finished download produced.
package struct DownloadResult: Equatable, Sendable {
    /// The file written, or nil for standard output.
    package var path: String?
    /// The size of the finished file (or the bytes streamed).
    package var size: Int64
    /// Body bytes received over the network, all attempts together.
    package var transferred: Int64
    /// Where the last attempt started (0 for a download from scratch).
    package var resumedFrom: Int64
    /// Whether the partial file was already whole (a 416 answer) and nothing was transferred.
    package var alreadyComplete: Bool
    /// The SHA-256 in hex, when `--sha256` asked for a check (which passed).
    package var sha256: String?
    /// How many times a transient failure was retried.
    package var retries: Int

    package init(
        path: String?, size: Int64, transferred: Int64, resumedFrom: Int64, alreadyComplete: Bool,
        sha256: String?, retries: Int
    ) {
        self.path = path
        self.size = size
        self.transferred = transferred
        self.resumedFrom = resumedFrom
        self.alreadyComplete = alreadyComplete
        self.sha256 = sha256
        self.retries = retries
    }
}

/// Hears about a download as it goes, for the progress display and warnings.
package protocol DownloadObserver: AnyObject {
    /// Data starts flowing into `name`: `total` bytes in all (when known), `alreadyDone` on disk.
    func downloadDidStart(name: String, total: Int64?, alreadyDone: Int64)
    /// `done` bytes of the file are now written (counting what was on disk before).
    func downloadDidProgress(done: Int64)
    /// The transfer of the current attempt ended, completely or not.
    func downloadDidStop(completed: Bool)
    /// Something the user should know that is not an error (a restart, a retry, a rename).
    func downloadWarning(_ message: String)
    /// A warning about the files on disk: told once, however many tries and downloads find them.
    func downloadWarningOnce(_ message: String)
}
