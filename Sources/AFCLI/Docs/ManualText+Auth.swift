extension ManualText {
    /// The authentication schemes beyond basic, digest and bearer: AWS Signature Version 4, NTLM,
    /// Negotiate, OAuth 2.0 client credentials and `--auth-cmd`.
    static let authSections: [ManualSection] = [
        ManualSection(
            "AUTHENTICATION",
            [
                .paragraph(
                    "Each scheme below is a request stage or an engine decorator, so it acts the same on a single "
                        + "request and on every request of `afcli run` (`run -` lines and `.http` files)."),
                .definitions([
                    (
                        "--aws-sigv4 aws:amz:REGION:SERVICE",
                        "AWS Signature Version 4, computed by afcli as botocore computes it (libcurl 7.88 signs an "
                            + "unsorted query wrongly). The keys are `-a ACCESS_KEY:SECRET_KEY`, else AWS_ACCESS_KEY_ID "
                            + "and AWS_SECRET_ACCESS_KEY with AWS_SESSION_TOKEN (X-Amz-Security-Token) from the "
                            + "environment. It is the last request stage, after `--encrypt-cmd` and `--compress`: the "
                            + "signature covers the headers and body sent. The body is always hashed (never "
                            + "UNSIGNED-PAYLOAD); a file is read once in chunks to hash it and rewound, never held in "
                            + "memory; standard input longer than 64 KiB cannot be read twice (exit 2: send it as "
                            + "`@FILE`). `--offline` and `-v` show the signed headers, `--curl` shows them as `--header` "
                            + "lines rather than curl's `--aws-sigv4` (for the query bug above; the signature is valid "
                            + "for 15 minutes), X-Amz-Security-Token redacted unless `--show-secrets`; `-v` and a run's reports "
                            + "show the Authorization header's signature as <redacted> too."
                    ),
                    (
                        "-A ntlm, -A negotiate",
                        "Answered by libcurl after the server's challenge. Negotiate (SPNEGO) uses the Kerberos "
                            + "ticket from kinit and needs no `-a`. Before sending, afcli checks that libcurl has the "
                            + "scheme and, for Negotiate, that the credential cache file (KRB5CCNAME, else "
                            + "/tmp/krb5cc_UID) exists: exit 2 with the reason otherwise."
                    ),
                    (
                        "-A oauth2 --oauth2-token-url URL -a ID:SECRET",
                        "OAuth 2.0 client credentials (RFC 6749 section 4.4): a POST of "
                            + "grant_type=client_credentials (and `--oauth2-scope`) with the client as HTTP Basic (from "
                            + "`-a`, else netrc's login and password for the token URL's host); the "
                            + "token is sent as Authorization: Bearer and kept until 30 seconds before it expires, in "
                            + "memory for a run, and for later invocations in the `--session` file (its "
                            + "afcli_oauth2_tokens member), else in $XDG_STATE_HOME/afcli/tokens (0600, per token URL, "
                            + "client id and scope, never through a symbolic link: not at a file, nor at the afcli or "
                            + "tokens directory). A token a header cannot carry (a line break, a space) is refused "
                            + "saying so. A 401 with "
                            + "`WWW-Authenticate: Bearer error=\"invalid_token\"` gets a new token and the request is "
                            + "sent once more. A token endpoint that refuses is an error (exit 1) and the API is not "
                            + "called. `-v` shows `Bearer <redacted>` unless `--show-secrets`; `--offline`, `--curl` "
                            + "and the log show `Bearer <oauth2 token>` and fetch nothing."
                    ),
                    (
                        "--auth-cmd CMD",
                        "Runs CMD with /bin/sh -c for every request, in its own process group, with AFCLI_METHOD, "
                            + "AFCLI_URL and AFCLI_BODY_SHA256 (of the body as sent) in its environment, and adds each "
                            + "`Name: value` line it prints, replacing a header of the same name. A command that fails "
                            + "or prints anything else stops that request before anything is sent (exit 2). It runs "
                            + "before `--aws-sigv4`. `-v` and a run's reports show the values it printed as "
                            + "<redacted> unless `--show-secrets`. With `--follow` both run again for a redirect to the same "
                            + "origin, and what they set is dropped on a redirect to another (see SESSIONS, "
                            + "COOKIES AND NETRC)."
                    ),
                ]),
                .example(
                    "AWS Signature Version 4, with keys given and with keys from AWS_* variables:",
                    "afcli --aws-sigv4 aws:amz:eu-west-1:execute-api -a \"$AK:$SK\" \\\n"
                        + "    https://abc.execute-api.eu-west-1.amazonaws.com/prod/items\n"
                        + "afcli put --aws-sigv4 aws:amz:us-east-1:s3 \\\n"
                        + "    https://bucket.s3.amazonaws.com/big.iso @big.iso"),
                .example(
                    "NTLM, and Negotiate with a Kerberos ticket:",
                    "afcli -A ntlm -a 'DOMAIN\\ann:secret' https://intranet.example/api\n"
                        + "kinit ann@EXAMPLE.ORG && afcli -A negotiate https://intranet.example/api"),
                .example(
                    "OAuth 2.0 client credentials, and a signature a script of your own computes:",
                    "afcli -A oauth2 --oauth2-token-url https://auth.example/token \\\n"
                        + "    -a \"$CLIENT_ID:$CLIENT_SECRET\" --oauth2-scope 'read write' \\\n"
                        + "    https://api.example/v1/users\n"
                        + "afcli --auth-cmd './sign-hmac.sh' post https://api.example/orders id=1"),
            ]),
    ]
}
