/// Environments: the options that pick and shape CJNetwork's per-environment settings from the
/// config file (base URL, common parameters and headers, envelope, encryption, simulation).
extension OptionTable {
    static let environments: [OptionSpec] = [
        OptionSpec(
            long: "env", valueName: "NAME", group: .request,
            help: "use the environment NAME of the config",
            description: "Use the environment NAME: from the config file's environments for a request, and "
                + "from http-client.env.json beside the file for afcli run.",
            apply: { values, text in
                values.environmentName = try OptionValueParser.nonEmpty(text ?? "", what: "an environment name")
            },
            reset: { $0.environmentName = nil }),
    ]
}
