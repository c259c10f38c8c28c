import AFKit
import Glibc

/// Where a `--report FORMAT=FILE` is written, worked out for all of a run's reports before
/// anything is sent or created: a file (created when the run starts, never through a symbolic
/// link), or an open descriptor the FILE names as a standard stream (`/dev/stderr`, `/dev/fd/3`),
/// written as it is without opening the link `/dev` has for it.
///
/// Refused, since the run would destroy or corrupt what it reads or writes: a report onto the
/// source being run, two reports onto one file (by device and inode, or by the resolved path of
/// a file not made yet, however they are spelled), a report onto the `--log-file`, and a report
/// onto standard output (`-`, `/dev/stdout`, or the file standard output was sent to), which
/// carries the run's lines: `RunLineReporter` writes every request's NDJSON line there, or with
/// `--test` and on a terminal its PASS/FAIL line and the summary, whatever else is asked.
struct RunReportTarget {
    enum Place: Equatable {
        /// A file to create.
        case file(String)
        /// An open descriptor (2, or N of `/dev/fd/N`), not closed by the report.
        case descriptor(Int32)
    }

    var report: RunReportRequest
    var place: Place

    /// The targets of `reports`, checked against each other, the source (`source`, a path, or
    /// `-` for standard input) and the log file; throws a usage error for the first conflict.
    static func plan(_ reports: [RunReportRequest], source: String, logFile: String?) throws -> [RunReportTarget] {
        // What each file already holds or gets, and why a report may not go there too.
        var claimed: [Claim] = []
        if source != "-", let identity = FileIdentity(following: source) {
            claimed.append(Claim("is the source being run (\(source)), which the report would overwrite", identity))
        } else if source == "-", let input = FileIdentity(descriptor: STDIN_FILENO), input.isFileOrPipe {
            claimed.append(
                Claim("is the file standard input reads the run's lines from, which the report would overwrite", input))
        }
        if let logFile, !StandardStreams.isStandardOutput(logFile) {
            claimed.append(
                Claim(
                    "is the --log-file (\(logFile)), which the report would be mixed into",
                    FileIdentity(atPath: logFile),
                    resolved: resolvedPath(logFile)))
        }
        if let output = FileIdentity(descriptor: STDOUT_FILENO), output.isFileOrPipe {
            claimed.append(
                Claim(
                    "is where standard output goes, which carries the run's lines: write the report to another file",
                    output))
        }
        var targets: [RunReportTarget] = []
        for report in reports {
            let spelling = "\(report.format.rawValue)=\(report.path)"
            func refuse(_ reason: String) -> UsageError {
                UsageError.invalidValue(option: "--report", value: spelling, reason: reason)
            }
            let identity: FileIdentity?
            let resolved: String?
            let place: Place
            switch StandardStreams.descriptor(named: report.path) {
            case STDOUT_FILENO?:
                throw refuse(
                    "is standard output, which carries the run's lines (NDJSON, or PASS/FAIL lines and a summary): "
                        + "write the report to a file, /dev/stderr or /dev/fd/N")
            case STDIN_FILENO?:
                throw refuse("is standard input, which a report cannot be written to")
            case let descriptor?:
                guard Self.isOpenForWriting(descriptor) else {
                    throw refuse("names descriptor \(descriptor), which is not open for writing")
                }
                identity = FileIdentity(descriptor: descriptor)
                resolved = "/dev/fd/\(descriptor)"
                place = .descriptor(descriptor)
            case nil:
                identity = FileIdentity(atPath: report.path)
                resolved = resolvedPath(report.path)
                place = .file(report.path)
            }
            // A terminal shows every stream: a report to stderr there mixes nothing into a file.
            let comparable = identity?.isFileOrPipe ?? false
            for other in claimed {
                let sameFile = comparable && other.identity == identity
                let sameName = resolved != nil && other.resolved == resolved
                guard sameFile || sameName else { continue }
                throw refuse(other.reason)
            }
            claimed.append(
                Claim(
                    "is the file of --report \(spelling) too: each report needs a file of its own", identity,
                    resolved: resolved))
            targets.append(RunReportTarget(report: report, place: place))
        }
        return targets
    }

    /// The writer of this report, its file created now (0600, replacing one that exists, never
    /// through a symbolic link), before anything is sent.
    func makeWriter() throws -> any RunReportWriter {
        let stream: OutputStream
        switch place {
        case .descriptor(let descriptor):
            stream = OutputStream(descriptor: descriptor, target: report.path)
        case .file(let path):
            let descriptor: Int32
            do {
                descriptor = try FileIO.openOwnedRegularFile(path, flags: O_WRONLY | O_CREAT | O_TRUNC)
            } catch {
                throw RunReportError(path: path, reason: "\(error)", beforeSending: true)
            }
            stream = OutputStream(descriptor: descriptor, target: path, closesOnDeinit: true)
        }
        switch report.format {
        case .junit: return try JUnitReportWriter(stream: stream, path: report.path)
        case .tap: return TAPReportWriter(stream: stream)
        case .json: return JSONReportWriter(stream: stream)
        case .har: return HARReportWriter(stream: stream)
        }
    }

    /// A file the run already reads or writes: why a report may not go there, and how to know it.
    private struct Claim {
        var reason: String
        var identity: FileIdentity?
        /// The resolved path of a file that may not exist yet.
        var resolved: String?

        init(_ reason: String, _ identity: FileIdentity?, resolved: String? = nil) {
            self.reason = reason
            self.identity = identity
            self.resolved = resolved
        }
    }

    /// Whether `descriptor` is open, for writing.
    private static func isOpenForWriting(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        return flags >= 0 && flags & O_ACCMODE != O_RDONLY
    }

    /// `path` with its directory resolved (symbolic links, `.` and `..`), for telling two
    /// spellings of a file that does not exist yet apart; nil when the directory does not exist.
    private static func resolvedPath(_ path: String) -> String? {
        guard let directory = realpath(FileIO.directory(of: path), nil) else { return nil }
        defer { free(directory) }
        return FileIO.join(String(cString: directory), FileIO.baseName(of: path))
    }
}

/// A file's device and inode, which name it however it is spelled.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    /// Whether it is a regular file, a FIFO or a socket: what two writers would corrupt, unlike
    /// a terminal both may show.
    var isFileOrPipe: Bool

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        let kind = info.st_mode & S_IFMT
        isFileOrPipe = kind == S_IFREG || kind == S_IFIFO || kind == S_IFSOCK
    }

    /// The file at `path` itself (a symbolic link is not followed); nil when nothing is there.
    init?(atPath path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The file `path` leads to, through symbolic links.
    init?(following path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool { a.device == b.device && a.inode == b.inode }
}
