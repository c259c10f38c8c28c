import AFKit
import Glibc

/// Asks a question on the controlling terminal: the password of `-a USER` (given without a
/// colon), with echo off, as HTTPie and xh do, and a `.http` file's `# @prompt` variables.
///
/// The prompt goes to `/dev/tty`, not stdout or stderr, so redirections do not hide it and pipes
/// do not receive it. Without a controlling terminal (cron, CI) nothing is asked.
enum TerminalPrompt {
    /// The most bytes a typed answer may have.
    static let maximumLength = 4096

    /// The password typed for `user`, or nil when there is no terminal to ask on.
    static func password(user: String) throws(ItemError) -> String? {
        try ask("afcli: password for \(user): ", secret: true)
    }

    /// The line typed after `prompt`, with echo off when `secret`; nil when there is no terminal
    /// to ask on. Ctrl-C while typing ends afcli as an interrupt (exit 130), with the terminal's
    /// echo restored.
    static func ask(_ prompt: String, secret: Bool) throws(ItemError) -> String? {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { return nil }
        if secret {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            // Echo goes off before the prompt shows, so nothing typed after the prompt is discarded.
            _ = tcsetattr(tty, TCSAFLUSH, &silent)
        }
        write(tty, prompt)
        defer {
            if secret {
                _ = tcsetattr(tty, TCSAFLUSH, &saved)
                write(tty, "\n")
            }
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < maximumLength {
            // A Ctrl-C that comes before the read starts interrupts no call: the flag is
            // looked at between short waits for input instead.
            var ready = pollfd(fd: tty, events: Int16(POLLIN), revents: 0)
            while true {
                if Interruption.isInterrupted { throw .interrupted }
                let polled = poll(&ready, 1, 100)
                if polled > 0 || (polled < 0 && errno != EINTR) { break }
            }
            let count = Glibc.read(tty, &byte, 1)
            // afcli's SIGINT/SIGTERM handlers do not restart calls, so Ctrl-C ends the read here.
            if count < 0, errno == EINTR { throw .interrupted }
            if count <= 0 || byte == 0x0A || byte == 0x0D { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    private static func write(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
