import AFKit
import Glibc

/// The program: parses argv, dispatches the command and exits with a documented status.
package enum AFCLIMain {
    /// Runs afcli with the process's arguments and exits.
    package static func run() -> Never {
        let status = execute(Array(CommandLine.arguments.dropFirst()))
        exit(status.rawValue)
    }

    /// Runs one command line and returns its exit status; nothing below this calls `exit`.
    static func execute(_ arguments: [String]) -> ExitStatus {
        let environment = Terminal.environment()
        let terminal = Terminal.current(environment: environment)
        do {
            let parsed = try ArgumentParser.parse(arguments)
            switch parsed.command {
            case .request:
                try DownloadCommand.rejectDownloadOptions(parsed.options)
                try ReachabilityCommand.rejectReachabilityOptions(parsed.options)
                try RunCommand.rejectRunOptions(parsed.options, command: "request")
                Interruption.install()
                let command = RequestCommand(
                    positionals: parsed.positionals, options: parsed.options, environment: environment,
                    terminal: terminal)
                return try command.run()
            case .download:
                try ReachabilityCommand.rejectReachabilityOptions(parsed.options)
                Interruption.install()
                let command = DownloadCommand(
                    positionals: parsed.positionals, options: parsed.options, environment: environment,
                    terminal: terminal)
                return try command.run()
            case .run:
                try ReachabilityCommand.rejectReachabilityOptions(parsed.options)
                try DownloadCommand.rejectDownloadOptions(parsed.options)
                Interruption.install()
                let command = RunCommand(
                    positionals: parsed.positionals, options: parsed.options, environment: environment,
                    terminal: terminal)
                return try command.run()
            case .pin:
                try ReachabilityCommand.rejectReachabilityOptions(parsed.options)
                Interruption.install()
                return try PinCommand(positionals: parsed.positionals, options: parsed.options).run()
            case .reachability:
                return try ReachabilityCommand(positionals: parsed.positionals, options: parsed.options).run()
            case .help(let length):
                try printOut(length == .short ? HelpText.short() : HelpText.long())
            case .completions(let shell):
                try printOut(Completions.script(for: shell))
            case .manPage:
                try printOut(ManPage.render())
            case .version:
                try printOut("afcli \(AFKitVersion.current)\n")
            }
            return .success
        } catch {
            return ErrorReporter.report(error)
        }
    }

    private static func printOut(_ text: String) throws {
        let stream = OutputStream(descriptor: STDOUT_FILENO, target: "standard output")
        try stream.write(text)
        try stream.flush()
    }
}
