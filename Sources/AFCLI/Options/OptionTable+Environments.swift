/// Environments: the options that pick and shape CJNetwork's per-environment settings from the
/// config file (base URL, common parameters and headers, envelope, encryption, simulation).
extension OptionTable {
    static let environments: [OptionSpec] = [
        OptionSpec(
            long: "env", scope: .sending, valueName: "NAME", group: .request,
            help: "use the environment NAME of the config",
            description: "Use the environment NAME: from the config file's environments for a request, and "
                + "from http-client.env.json beside the file for afcli run. Without --env, $AFCLI_ENV names it. "
                + "A relative URL is joined to the environment's base_url, and its common params and headers "
                + "are merged in (the request's own win). An unknown NAME is an error listing the known ones.",
            completion: .environmentNames,
            apply: { values, text in
                values.environment.name = try OptionValueParser.nonEmpty(text ?? "", what: "an environment name")
            },
            reset: { $0.environment.name = nil }),
        OptionSpec(
            long: "config", scope: .every, group: .general,
            help: "read the config file (default: on)",
            description: "Read the config file (the default): CONFIG/config.json, with CONFIG $AFCLI_CONFIG_DIR, "
                + "else $XDG_CONFIG_HOME/afcli, else ~/.config/afcli. --no-config, anywhere on the command line, "
                + "skips it: no default_options, no environments.",
            apply: { values, _ in values.environment.readsConfig = true },
            reset: { $0.environment.readsConfig = false }),
        OptionSpec(
            long: "simulate", scope: .sending, group: .request,
            help: "send to the simulation origin instead",
            description: "Send the request to the environment's simulate_domain (default http://localhost/), or "
                + "to URL, instead of its base_url: the same relative path, joined with the same rules. An "
                + "absolute request URL is refused, so that nothing meant for simulation reaches a real server.",
            apply: { values, text in
                if let text {
                    values.environment.simulate = .url(try OptionValueParser.nonEmpty(text, what: "a URL"))
                } else {
                    values.environment.simulate = .environment
                }
            },
            reset: { $0.environment.simulate = nil }
        ).withOptionalValue("URL"),
        OptionSpec(
            long: "local", scope: .request, group: .request,
            help: "answer from local files, no network",
            description: "Answer from a file in the environment's local_dir instead of the network: the path "
                + "/api/card/list reads api:card:list, else api:card:list.json, as a 200 response. A missing "
                + "file answers CJNetwork's JSON message with exit status 0 and a warning. Paths with . or .. "
                + "segments and answer files that are symbolic links are refused (exit status 2).",
            apply: { values, _ in values.environment.local = true },
            reset: { $0.environment.local = false }),
    ]
}

/// Where `--simulate` sends a request.
package enum SimulateTarget: Equatable, Sendable {
    /// The environment's `simulate_domain` (default `http://localhost/`).
    case environment
    /// The URL given as `--simulate=URL`.
    case url(String)
}
