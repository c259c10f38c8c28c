/// Encryption hooks and the response envelope: the options that pipe bodies through commands
/// and read CJNetwork's `{status, message, result}` answers, with or without a config
/// environment.
extension OptionTable {
    static let crypto: [OptionSpec] = [
        OptionSpec(
            long: "encrypt-cmd", scope: [.request, .run], valueName: "CMD", group: .request,
            help: "pipe the request body through CMD",
            description: "Run CMD with /bin/sh -c, feed it the serialized body (JSON, form, plist, multipart, a file "
                + "or standard input) and send its output as the body, with Content-Type from --encrypted-type "
                + "and an exact Content-Length. Overrides the environment's encrypt. A command that fails stops "
                + "the request before anything is sent (exit status 2, its standard error shown).",
            apply: { values, text in
                values.pipeline.crypto.encryptCommand = try OptionValueParser.nonEmpty(text ?? "", what: "a command")
            },
            reset: { $0.pipeline.crypto.encryptCommand = nil }),
        OptionSpec(
            long: "decrypt-cmd", scope: [.request, .run], valueName: "CMD", group: .request,
            help: "pipe the response body through CMD",
            description: "Run CMD with /bin/sh -c on the body of a final 2xx response and use its output as the "
                + "body for validation, --envelope, formatting and the log. Overrides the environment's "
                + "decrypt. A command that fails ends with exit status 1 and its standard error.",
            apply: { values, text in
                values.pipeline.crypto.decryptCommand = try OptionValueParser.nonEmpty(text ?? "", what: "a command")
            },
            reset: { $0.pipeline.crypto.decryptCommand = nil }),
        OptionSpec(
            long: "encrypt", scope: [.request, .run], group: .request,
            help: "use the encryption commands (the default)",
            description: "Encrypt and decrypt with --encrypt-cmd, --decrypt-cmd or the environment's commands, the "
                + "default. --no-encrypt sends this request's body as it is and shows the response as received, "
                + "whatever the options and the environment say.",
            apply: { values, _ in values.pipeline.crypto.disabled = false },
            reset: { $0.pipeline.crypto.disabled = true }),
        OptionSpec(
            long: "encrypted-type", scope: [.request, .run], valueName: "TYPE", group: .request,
            help: "Content-Type of an encrypted body (text/plain)",
            description: "The Content-Type sent with an encrypted body instead of the serializer's; text/plain "
                + "by default.",
            completion: .words(["text/plain", "application/octet-stream"]),
            apply: { values, text in
                values.pipeline.crypto.encryptedType = try OptionValueParser.nonEmpty(text ?? "", what: "a media type")
            },
            reset: { $0.pipeline.crypto.encryptedType = nil }),
        OptionSpec(
            long: "envelope", scope: [.request, .run], group: .output, help: "print only the result of an envelope",
            description: "Read the body of a final 2xx response as the environment's envelope, else with the keys "
                + "status, message and result. On a success status only the result value is printed (formatted "
                + "on a terminal, its exact JSON text otherwise); on another status the message goes to standard "
                + "error and the exit status is 13, or 14 for a common-failure status. A body that is not such "
                + "an object exits with 11.",
            apply: { values, _ in values.pipeline.crypto.envelope = true },
            reset: { $0.pipeline.crypto.envelope = false }),
        OptionSpec(
            long: "envelope-success", scope: [.request, .run], valueName: "LIST", group: .output,
            help: "envelope statuses meaning success",
            description: "Comma-separated status values (compared as text, so 0 matches both 0 and \"0\") that "
                + "mean success for --envelope, instead of the environment's success list; without either, "
                + "0, 200, ok, success and true.",
            apply: { values, text in values.pipeline.crypto.envelopeSuccess = try CryptoOptions.statusList(text ?? "")
            },
            reset: { $0.pipeline.crypto.envelopeSuccess = nil }),
        OptionSpec(
            long: "common-failure", scope: [.request, .run], valueName: "LIST", group: .output,
            help: "envelope statuses of a common failure",
            description: "Comma-separated status values that --envelope reports as a common failure (CJNetwork's "
                + "\"logged in elsewhere\"), exit status 14, instead of the environment's common_failure list.",
            apply: { values, text in
                values.pipeline.crypto.envelopeCommonFailure = try CryptoOptions.statusList(text ?? "")
            },
            reset: { $0.pipeline.crypto.envelopeCommonFailure = nil }),
    ]
}
