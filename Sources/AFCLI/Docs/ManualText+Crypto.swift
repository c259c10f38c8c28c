extension ManualText {
    /// Encryption hooks and the response envelope: CJNetwork's crypt manager and response model,
    /// as shell commands and one option.
    static let cryptoSections: [ManualSection] = [
        ManualSection(
            "ENCRYPTION HOOKS AND ENVELOPES",
            [
                .paragraph(
                    "afcli has no cryptography of its own: `--encrypt-cmd CMD` runs CMD with /bin/sh -c, feeds it "
                        + "the serialized request body and sends its output instead, with Content-Type from "
                        + "`--encrypted-type` (text/plain by default) and an exact Content-Length. Every body is "
                        + "encrypted: JSON, form, plist, `--raw`, a file, standard input and multipart (the whole "
                        + "multipart body, boundaries included); a request without a body runs no command. The "
                        + "command is fed and read at the same time and its output goes to an unlinked 0600 "
                        + "temporary file in $TMPDIR (else /tmp), so memory stays flat for any size. `--compress` "
                        + "deflates the encrypted body. A command that cannot start, fails or exits with a status "
                        + "other than 0 stops the request before anything is sent: exit status 2, the error line, "
                        + "then the first 4 KiB of the command's standard error. Its standard error is not shown "
                        + "when it succeeds. Ctrl-C kills the command. Each command runs in a process group of its "
                        + "own, and Ctrl-C or a SIGTERM sent to afcli alone ends that whole group, so nothing the "
                        + "command started outlives afcli; not being the terminal's foreground job, a command that "
                        + "prompts on /dev/tty is stopped by the kernel, and afcli ends it and says so rather than "
                        + "wait (give it its password through the environment or a file). With `--retry`, the "
                        + "encrypted body of the first try is sent again: the command is not run twice."),
                .paragraph(
                    "`--decrypt-cmd CMD` pipes the body of a final 2xx response through CMD before validation, "
                        + "`--envelope`, formatting, `--output` and the log; redirects, other statuses and empty "
                        + "bodies are left as received (an error page from a proxy is not encrypted). The output is "
                        + "shown as text, as JSON when it looks like JSON, whatever the response's Content-Type "
                        + "said. The output is kept in an unlinked temporary file until the command exits, so a "
                        + "decrypt command that fails writes nothing of it (no `--output` file is created or "
                        + "truncated); it ends with exit status 1 and its standard error. "
                        + "The environment's encrypt and decrypt commands are used when the options are not "
                        + "given; `--no-encrypt` runs neither for one request."),
                .paragraph(
                    "`--offline` runs the encryption and prints exactly what would be sent: the encrypted body, "
                        + "its Content-Type and Content-Length (`--verbose` and the log show an encrypted body of "
                        + "up to 1 MiB; a larger one is streamed from the temporary file and shown only by "
                        + "`--offline`). `--curl` refuses an encrypted request (exit status 2): the encrypted body "
                        + "exists only while afcli runs. With `--log=cj`, the block's original parameters are the plain "
                        + "parameters, its final parameters the encrypted body and its result the decrypted "
                        + "response."),
                .paragraph(
                    "`--envelope` reads the body of a final 2xx response (after decryption, at most 64 MiB, "
                        + "else exit status 12) as CJNetwork's envelope: a JSON object with a status, a message "
                        + "and a result, under the environment's key names, else status, message and result. The "
                        + "status is compared as text (0 and \"0\" are the same; a string status without regard "
                        + "to case, so \"OK\" is ok) with `--envelope-success`, else the environment's success "
                        + "list, else 0, 200, ok, success and true. On success only "
                        + "the result is printed: formatted on a terminal, its exact JSON text when piped, and "
                        + "without the response head unless `--print` or `--verbose` asks for it. On a status in "
                        + "`--common-failure` (or the environment's common_failure) the message goes to "
                        + "standard error as `afcli: error: MESSAGE` with exit status 14; on any other status, "
                        + "the same with exit status 13. A body that is not a JSON object with the status key "
                        + "exits with status 11 (a lone surrogate escape such as `\\ud800` is valid JSON: a message "
                        + "shows it as U+FFFD, the result keeps it as sent). Responses that are not 2xx are printed as received, with "
                        + "their HTTP exit status."),
                .example(
                    "With E='openssl enc -aes-256-cbc -pbkdf2 -pass env:KEY -base64 -A' and D the same with -d, "
                        + "encrypt the body and decrypt the answer:",
                    "afcli post :8080/login user=ann --encrypt-cmd \"$E\" --decrypt-cmd \"$D\""),
                .example(
                    "Print only the result of a {status, message, result} answer:",
                    "afcli get :8080/profile --envelope --envelope-success 0,1"),
            ])
    ]
}
