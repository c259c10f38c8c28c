import AFCurl
import Glibc

/// A shell command (`/bin/sh -c COMMAND`) that bytes are piped through: the encryption and
/// decryption hooks (`--encrypt-cmd`, `--decrypt-cmd`, an environment's `encrypt`/`decrypt`).
///
/// One thread drives the child with `poll`: every call that feeds it input also reads whatever
/// output is ready and hands it on, so neither side blocks on a full pipe and memory stays
/// bounded by one 64 KiB chunk, whatever the body's size. Standard input is a socket, written
/// with `MSG_NOSIGNAL`, so a command that exits without reading its input cannot kill afcli with
/// SIGPIPE. Standard error is kept up to `maxErrorBytes` for the failure message. Ctrl-C (and
/// SIGTERM) kills the child and ends in `CurlError.interrupted`.
///
/// The shell runs in a process group of its own and is ended with that group, so whatever it
/// started (a pipeline, `openssl`, a background job) goes with it: a signal sent to afcli alone
/// (`kill PID`, a supervisor's SIGTERM) would otherwise leave those children running. Ctrl-C on
/// a terminal reaches afcli, which ends the group within 0.2 s. Being no foreground job, a
/// command that reads the terminal itself (a password prompt on /dev/tty) is stopped by the
/// kernel; afcli notices, ends it and says why instead of waiting.
package final class PipedCommand {
    /// The command as given, for messages.
    package let command: String
    /// Which hook this is (`encrypt`, `decrypt`), for messages.
    package let role: String
    /// How much of the command's standard error is kept for the failure message.
    package static let maxErrorBytes = 4096

    private let pid: pid_t
    private var input: Int32
    private var output: Int32
    private var errors: Int32
    private var errorText: [UInt8] = []
    private var errorTruncated = false
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    private var reaped = false
    /// The wait status of the shell, when it was collected while its output was still being read.
    private var exitStatus: Int32?

    /// Receives each piece of the command's standard output; valid only during the call.
    package typealias Output = (UnsafeRawBufferPointer) throws -> Void

    /// Starts `/bin/sh -c command` with its standard input, output and error connected to afcli,
    /// and afcli's environment with `environment`'s variables added (replacing any of the same name).
    package init(command: String, role: String, environment: [String: String] = [:]) throws(PipedCommandError) {
        self.command = command
        self.role = role
        var stdinPair: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, socketType, 0, &stdinPair) == 0 else {
            throw PipedCommandError(role: role, reason: "cannot start: \(SystemError.current)")
        }
        guard pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else {
            let failure = SystemError.current
            for descriptor in stdinPair + stdoutPipe + stderrPipe where descriptor >= 0 { close(descriptor) }
            throw PipedCommandError(role: role, reason: "cannot start: \(failure)")
        }
        // Every end is close-on-exec: the child gets only the copies dup2 makes as 0, 1 and 2.
        for descriptor in stdoutPipe + stderrPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let spawned = Self.spawn(
            command, environment: environment, stdin: stdinPair[1], stdout: stdoutPipe[1], stderr: stderrPipe[1])
        close(stdinPair[1])
        close(stdoutPipe[1])
        close(stderrPipe[1])
        guard case .success(let pid) = spawned else {
            close(stdinPair[0])
            close(stdoutPipe[0])
            close(stderrPipe[0])
            if case .failure(let failure) = spawned {
                throw PipedCommandError(role: role, reason: "cannot start /bin/sh: \(failure)")
            }
            throw PipedCommandError(role: role, reason: "cannot start /bin/sh")
        }
        self.pid = pid
        input = stdinPair[0]
        output = stdoutPipe[0]
        errors = stderrPipe[0]
        for descriptor in [input, output, errors] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
    }

    deinit {
        terminate()
    }

    /// posix_spawn of `/bin/sh -c command` with the given descriptors as 0, 1 and 2, default
    /// signal handling, an empty signal mask and a new process group whose id is the child's;
    /// the process id, or the errno of the failure.
    private static func spawn(
        _ command: String, environment: [String: String], stdin: Int32, stdout: Int32, stderr: Int32
    ) -> Result<pid_t, SystemError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT] { sigaddset(&defaults, signal) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        guard !environment.isEmpty else {
            let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environ)
            return result == 0 ? .success(pid) : .failure(SystemError(code: result))
        }
        var variables: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = environ[index] {
            index += 1
            let name = String(cString: entry).prefix { $0 != "=" }
            if environment[String(name)] == nil { variables.append(strdup(entry)) }
        }
        for (name, value) in environment { variables.append(strdup("\(name)=\(value)")) }
        variables.append(nil)
        defer { for variable in variables { free(variable) } }
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, variables)
        return result == 0 ? .success(pid) : .failure(SystemError(code: result))
    }

    /// Writes all of `bytes` to the command, handing on its output as it comes. When the command
    /// stops reading (it closed its input or exited), the rest is dropped: its exit status, seen by
    /// `finish`, tells whether that was a failure.
    package func feed(_ bytes: UnsafeRawBufferPointer, to deliver: Output) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count, input >= 0 {
            let ready = try wait(writing: true)
            try drain(ready, deliver)
            guard ready.writable else { continue }
            let sent = send(input, base + offset, min(bytes.count - offset, chunk.count), Int32(MSG_NOSIGNAL))
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
                // EPIPE, ECONNRESET: the command no longer reads.
                closeInput()
            }
        }
    }

    /// Ends the command's input, hands on the rest of its output and waits for it to exit; throws
    /// when it exits with a status other than 0 or is killed, with its standard error.
    package func finish(to deliver: Output) throws {
        closeInput()
        while output >= 0 || errors >= 0 {
            try drain(try wait(writing: false), deliver)
        }
        let status = try reap()
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard !exited || code != 0 else { return }
        let reason = exited ? "failed with exit status \(code)" : "was killed by signal \(status & 0x7f)"
        var message = String(decoding: errorText, as: UTF8.self)
        if errorTruncated { message += "…" }
        throw PipedCommandError(role: role, reason: reason, standardError: message)
    }

    /// Kills the command and everything in its process group if it still runs, waits for it and
    /// closes the descriptors.
    package func terminate() {
        closeInput()
        for descriptor in [output, errors] where descriptor >= 0 { close(descriptor) }
        output = -1
        errors = -1
        guard !reaped else { return }
        // The group's id is the shell's pid, which stays reserved until the shell is reaped.
        if kill(-pid, SIGKILL) != 0 { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        reaped = true
    }

    /// Which descriptors `poll` found ready.
    private struct Readiness {
        var writable = false
        var readable = false
        var errorsReadable = false
    }

    /// Waits (at most 0.2 s at a time, so that Ctrl-C is noticed) until input can be written (when
    /// `writing`) or output or errors can be read.
    private func wait(writing: Bool) throws -> Readiness {
        var descriptors = [
            pollfd(fd: writing ? input : -1, events: Int16(POLLOUT), revents: 0),
            pollfd(fd: output, events: Int16(POLLIN), revents: 0),
            pollfd(fd: errors, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            if Interruption.isInterrupted {
                terminate()
                throw CurlError.interrupted(signal: Interruption.signal ?? SIGINT)
            }
            let count = poll(&descriptors, 3, 200)
            if count < 0, errno != EINTR { throw PipedCommandError(role: role, reason: "failed: \(SystemError.current)") }
            if count > 0 { break }
            // Nothing for 0.2 s: the shell may be stopped, waiting for a terminal it cannot have.
            if exitStatus == nil, let status = try collect() { exitStatus = status }
        }
        let hangup = Int16(POLLHUP | POLLERR)
        return Readiness(
            writable: descriptors[0].revents & (Int16(POLLOUT) | hangup) != 0,
            readable: descriptors[1].revents & (Int16(POLLIN) | hangup) != 0,
            errorsReadable: descriptors[2].revents & (Int16(POLLIN) | hangup) != 0)
    }

    /// Reads what is ready: output is handed on, standard error kept up to its bound.
    private func drain(_ ready: Readiness, _ deliver: Output) throws {
        if ready.readable, output >= 0 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
            if count > 0 {
                try chunk.withUnsafeBytes { try deliver(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                close(output)
                output = -1
            }
        }
        if ready.errorsReadable, errors >= 0 {
            var piece = [UInt8](repeating: 0, count: 4096)
            let count = piece.withUnsafeMutableBytes { Glibc.read(errors, $0.baseAddress, $0.count) }
            if count > 0 {
                let room = Self.maxErrorBytes - errorText.count
                errorText += piece[0..<min(room, count)]
                if count > room { errorTruncated = true }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                close(errors)
                errors = -1
            }
        }
    }

    /// Waits for the child to exit, polling so that Ctrl-C still works; its raw wait status.
    private func reap() throws -> Int32 {
        if let exitStatus { return exitStatus }
        while true {
            if let status = try collect() { return status }
            if Interruption.isInterrupted {
                terminate()
                throw CurlError.interrupted(signal: Interruption.signal ?? SIGINT)
            }
            usleep(10_000)
        }
    }

    /// The shell's wait status if it has exited, nil while it runs; throws (after ending its
    /// group) when it was stopped: a job outside the foreground that touched the terminal.
    private func collect() throws -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG | WUNTRACED)
        if result < 0, errno != EINTR {
            reaped = true
            throw PipedCommandError(role: role, reason: "failed: \(SystemError.current)")
        }
        guard result == pid else { return nil }
        // WIFSTOPPED: the low byte is 0x7f.
        guard status & 0xff == 0x7f else {
            reaped = true
            return status
        }
        terminate()
        throw PipedCommandError(
            role: role,
            reason: "stopped when it used the terminal (signal \((status >> 8) & 0xff)): it runs in a process group of "
                + "its own, so it cannot prompt there; give it what it asks for another way (an environment "
                + "variable, a file)")
    }

    private func closeInput() {
        guard input >= 0 else { return }
        close(input)
        input = -1
    }
}

/// An encryption or decryption command that could not run or did not succeed.
package struct PipedCommandError: ClassifiedError, Equatable, CustomStringConvertible {
    /// `encrypt` or `decrypt`.
    package var role: String
    /// What went wrong: `failed with exit status 1`, `was killed by signal 9`, `cannot start …`.
    package var reason: String
    /// The start of the command's standard error (at most `PipedCommand.maxErrorBytes`).
    package var standardError: String = ""

    package init(role: String, reason: String, standardError: String = "") {
        self.role = role
        self.reason = reason
        self.standardError = standardError
    }

    /// An encryption or authentication command fails before anything is sent, so the request
    /// could not be made from the input given (exit 2); a decryption command fails after the exchange.
    package var failureClass: FailureClass { role == "decrypt" ? .failure : .badInput }

    package var description: String { "the \(role) command \(reason)" }
}
