import AFKit
import Glibc

/// The program: parses argv, dispatches the command and exits with a documented status.
package enum AFCLIMain {
    /// Runs afcli with the process's arguments and exits.
    package static func run() -> Never {
        // First of all, before anything is opened.
        StandardStreams.reserve()
        let status = execute(Array(CommandLine.arguments.dropFirst()))
        exit(status.rawValue)
    }

    /// Runs one command line and returns its exit status; nothing below this calls `exit`.
    static func execute(_ arguments: [String]) -> ExitStatus {
        let environment = Terminal.environment()
        let terminal = Terminal.current(environment: environment)
        do {
            // The config's default_options go before argv, through the same parser.
            let config = try ConfigSetup.prepare(arguments, environment: environment)
            let (parsed, typed) = try ArgumentParser.parse(config.arguments, defaults: config.defaultCount)
            // Options typed where they do nothing are refused before anything else happens.
            try OptionScopes.check(typed, for: parsed)
            switch parsed.command {
            case .request:
                Interruption.install()
                let settings = try config.settings(for: parsed.options, environment: environment)
                try CacheStage.checkLifetime(settings)
                return try RequestCommand(
                    positionals: parsed.positionals, settings: settings, environment: environment, terminal: terminal
                ).run()
            case .download:
                try DownloadCommand.validate(parsed.options, urlCount: parsed.positionals.count - 1)
                Interruption.install()
                let settings = try config.settings(for: parsed.options, environment: environment)
                return try DownloadCommand(
                    positionals: parsed.positionals, settings: settings, environment: environment, terminal: terminal
                ).run()
            case .run:
                Interruption.install()
                // Command lines get the config environment, as when typed; a .http file's --env
                // names an environment of its http-client.env.json instead.
                let settings = try config.settings(
                    for: parsed.options, environment: environment,
                    inEnvironment: RunCommand.source(of: parsed.positionals) == "-")
                return try RunCommand(
                    positionals: parsed.positionals, settings: settings, environment: environment, terminal: terminal
                ).run()
            case .pin:
                Interruption.install()
                return try PinCommand(positionals: parsed.positionals, options: parsed.options).run()
            case .reachability:
                return try ReachabilityCommand(positionals: parsed.positionals, options: parsed.options).run()
            case .cache:
                return try CacheCommand(
                    positionals: parsed.positionals, options: parsed.options, environment: environment
                ).run()
            case .help, .completions, .manPage, .version:
                try printOut(OptionDocs.output(for: parsed.command) ?? "")
            case .environments:
                return try EnvironmentCommand(positionals: parsed.positionals, options: parsed.options, config: config)
                    .runEnvironments()
            case .configPath:
                return try EnvironmentCommand(positionals: parsed.positionals, options: parsed.options, config: config)
                    .runConfigPath()
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
