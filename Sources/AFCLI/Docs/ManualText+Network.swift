extension ManualText {
    /// Timeouts and limits, HTTP versions and HSTS, sessions, cookies and netrc, and `--curl`:
    /// how a request travels, kept apart from the request and reference sections.
    static let networkSections: [ManualSection] = [
        ManualSection(
            "TIMEOUTS, LIMITS AND REDIRECTS",
            [
                .paragraph(
                    "`--timeout SECONDS` is an idle timeout, as HTTPie's and AFNetworking's timeoutInterval: "
                        + "afcli gives up when no byte is received or sent for SECONDS (checked about once a "
                        + "second), and when connecting takes longer unless `--connect-timeout` says otherwise. A "
                        + "slow but steady download never hits it. `--max-time SECONDS` limits the whole exchange, "
                        + "redirects included, as curl's `--max-time`. Both exit with status 7. Neither is set by "
                        + "default, except that `afcli download --retry N` gives up on a server that sends nothing "
                        + "for 60 seconds, and retries."),
                .paragraph(
                    "Responses are held to limits, each ending in one error line and exit status 12: "
                        + "`--max-filesize BYTES` refuses a body larger than BYTES after decoding (at once when the "
                        + "server announces it); a compressed body (Content-Encoding gzip, deflate, br, zstd) may "
                        + "not decode to more than 200 times the bytes received once past 16 MiB, a compression bomb "
                        + "guard that `--max-expansion RATIO` changes and `--max-expansion 0` turns off; a response "
                        + "head may have at most 1000 header fields and 1 MiB, and one header line at most 100 KiB "
                        + "(`response header too large`)."),
                .paragraph(
                    "A Content-Encoding or Transfer-Encoding afcli cannot decode (anything but gzip, deflate, "
                        + "br, zstd, identity and chunked) does not fail the request: the body is passed on as "
                        + "received, with one warning naming the coding (none when no body passes: a HEAD, a 204, "
                        + "a 304), and the formatters treat it as opaque "
                        + "bytes (a terminal gets the binary notice), as browsers, HTTPie and curl without "
                        + "`--compressed` do."),
                .paragraph(
                    "The response head is printed as soon as it arrives. When nothing more of the body would "
                        + "be shown (`--headers`, `--print` without b, `--quiet`, or the binary notice on a "
                        + "terminal), afcli stops reading it and closes the connection; the exit status is that of "
                        + "the response. The body is still read to its end for `--output`, `--log=cj`, "
                        + "`--accept-status`/`--accept-type` and downloads."),
                .paragraph(
                    "URLs are sent as libcurl sends them and printed the same way: `.` and `..` path segments "
                        + "are removed (`/a/../b` is `/b`, as curl and HTTPie do), and a host name with non-ASCII "
                        + "letters is converted to its IDNA A-label, the `xn--` form (also in `--resolve` entries); "
                        + "a name IDNA refuses is bad input (exit status 2). With "
                        + "`--follow`, a redirect to any scheme but http and https (`file://`, `ftp://`) is refused "
                        + "with exit status 6, and one from https to plain http is followed with a warning."),
            ]),
        ManualSection(
            "RETRIES AND PACING",
            [
                .paragraph(
                    "`--retry N` sends a request, or each request of `afcli run`, again up to N times after a "
                        + "transient failure, as curl's `--retry`: a timeout, a host name that did not resolve, a "
                        + "connection that could not be made (a refused one too: curl's `--retry-connrefused` is "
                        + "always on), or HTTP 408, 429, 500, 502, 503 or 504. Only the idempotent methods GET, "
                        + "HEAD, OPTIONS, PUT, DELETE and TRACE are sent again: a POST or PATCH that failed may "
                        + "have been acted on, so it is retried only with `--retry-all-errors`, which also retries "
                        + "every other transfer failure (a connection reset, a response cut short, TLS) except "
                        + "Ctrl-C. `-v` notes a failure that `--retry` would have retried but for the method."),
                .paragraph(
                    "The wait before a retry is the server's: `Retry-After` (seconds or an HTTP-date), else the "
                        + "reset of a used-up quota in the IETF draft's `RateLimit` and `RateLimit-Policy` fields "
                        + "or the common `X-RateLimit-Remaining: 0` with `X-RateLimit-Reset` (seconds, or a Unix "
                        + "time). Without one it is `--retry-delay SECONDS`, else 1 second doubling with each "
                        + "retry up to 10 minutes, less up to a fifth at random so that clients do not come back "
                        + "together. `--retry-max-time SECONDS` starts no retry once SECONDS have passed since the "
                        + "first try, and none whose wait would end after that; a server asking for more than 10 "
                        + "minutes (or more than `--retry-max-time` leaves) is not retried. Ctrl-C during a wait "
                        + "ends afcli at once (exit status 130)."),
                .paragraph(
                    "Only the last try is shown, logged and judged: a try that is retried is dropped at its "
                        + "response head, its body unread. `-v` notes each retry on standard error (`afcli: note: "
                        + "retrying GET URL in 2 s (HTTP 503, try 2 of 4)`). A body is sent again from its start: "
                        + "files, data items and multipart forms are read again, `--encrypt-cmd` is not run again "
                        + "(its encrypted output is kept and sent again), and a body from standard input is "
                        + "refused with `--retry` (exit status 2), since it cannot be read twice."),
                .paragraph(
                    "In `afcli run`, a 429 or a named wait from a host (its scheme, name and port) makes every "
                        + "later request to that host wait until then, not only the one that got it; requests to "
                        + "other hosts go on. Under `--parallel N`, a request waiting for its next try lends its place "
                        + "to the next request, as many as N at a time, and takes one again before it is sent (the "
                        + "first place to free is kept for it); one after the other, the next request starts only once "
                        + "it is done, as written. A request waiting for its host keeps its place: the requests that "
                        + "would take it wait for that host too. Each line then has `\"tries\"` (1 when it was not "
                        + "retried) and `\"retry_reason\"` (why it was last retried, such as `HTTP 503`; null for "
                        + "none). The "
                        + "retry options belong to the run: a `run -` line cannot give them. With `afcli download`, "
                        + "`--retry` continues from the bytes saved (see DOWNLOADS); `--retry-max-time` and "
                        + "`--retry-all-errors` are for requests and runs."),
            ]),
        ManualSection(
            "HTTP VERSIONS AND HSTS",
            [
                .paragraph(
                    "https URLs use HTTP/2 when the server agrees through ALPN, and HTTP/1.1 otherwise; http URLs use "
                        + "HTTP/1.1 (libcurl's default, as curl). `--http1.1`, `--http2`, `--http2-prior-knowledge` "
                        + "and `--http3` change that. HTTP/2 responses have no reason phrase on the wire: afcli shows "
                        + "the standard one (`HTTP/2 200 OK`), as xh does, and header names as received (lower case). "
                        + "`--print=m` names the protocol of the final response. An HTTP/2 server may answer before "
                        + "it has read the whole request body (RFC 9113 §8.1); once that response is complete, afcli "
                        + "stops sending the body and takes the response as received. With libcurl 7.88, a response "
                        + "that arrives together with the server's reset of the stream can be lost: afcli then says "
                        + "so, with how much of the body was sent, and exits with 1."),
                .paragraph(
                    "A Strict-Transport-Security header on an https response is remembered by libcurl in the HSTS "
                        + "file (see ENVIRONMENT); later http:// requests to that host, and its subdomains when the "
                        + "policy says so, are sent over https until the policy expires. The directory is created "
                        + "(0700, the file 0600) only when there is a policy to save; `--no-hsts` neither reads nor "
                        + "writes the file."),
            ]),
        ManualSection(
            "SESSIONS, COOKIES AND NETRC",
            [
                .paragraph(
                    "`--session NAME` keeps headers, credentials and cookies between requests in "
                        + "CONFIG/sessions/HOST_PORT/NAME.json (HTTPie 3.2's layout and format), where CONFIG is "
                        + "$AFCLI_CONFIG_DIR, else $XDG_CONFIG_HOME/afcli, else ~/.config/afcli (a `Host:` item "
                        + "names HOST_PORT instead, as in HTTPie); a value with a `/` is a file path. Headers typed with the session are stored and sent again (never "
                        + "Content-* or If-* headers; `Name:` removes one); `--auth` is stored unless "
                        + "`--session-store-auth=no`, and the stored credentials are used when no `--auth` is given. "
                        + "`--session-read-only NAME` uses a session without writing it. HTTPie's session files, "
                        + "including those written before HTTPie 3.1, work as they are, and HTTPie reads afcli's."),
                .paragraph(
                    "Cookies go through libcurl's cookie engine: each is bound to the domain it was set for, "
                        + "and a `Cookie:` item typed with a session is bound to the request's host, so a session "
                        + "never sends a cookie to another host (HTTPie sends typed and pre-3.1 cookies to every "
                        + "host). Expired cookies are dropped. Session files are created 0600 in 0700 directories "
                        + "and replaced atomically (a new file, fsync, rename), never through a symbolic link; an "
                        + "unchanged session is not rewritten. A session file that is not valid JSON is an error "
                        + "naming FILE:LINE:COLUMN, with exit status 2 and nothing sent."),
                .paragraph(
                    "`--cookie-jar FILE` reads cookies from a Netscape cookies.txt (curl's `-b`/`-c` format) "
                        + "and writes them all back after the response, 0600, when one changed. A `Cookie:` item "
                        + "given with it joins the jar, bound to the request's host."),
                .paragraph(
                    "When a request carries no credentials of its own (`--auth`, a URL's user:password, session "
                        + "auth or an Authorization item), libcurl looks its host up in $NETRC, else ~/.netrc, as "
                        + "curl `--netrc-optional` does; `--ignore-netrc` turns that off. `-v` shows the "
                        + "Authorization header libcurl built from it, as `Basic <redacted>` unless "
                        + "`--show-secrets`. Credentials from netrc are never written "
                        + "into a session. A netrc holding passwords that the group or others can read draws a "
                        + "warning. `afcli download` uses netrc the same way, and refuses `--session` and "
                        + "`--cookie-jar` (exit status 2). In `afcli run` they seed the run's one cookie engine and "
                        + "get its cookies back when the run ends (see MANY REQUESTS: AFCLI RUN)."),
                .paragraph(
                    "With `--follow`, Authorization and Cookie headers and digest credentials are dropped when a "
                        + "redirect leads to another scheme, host or port, unless `--location-trusted` is given. "
                        + "What `--auth-cmd` printed and what `--aws-sigv4` signed (its X-Amz-* headers and "
                        + "Authorization) belong to the URL they were made for: a redirect to another origin "
                        + "drops them, and one to the same origin (or any, with `--location-trusted`) runs the "
                        + "command again and signs again for the new URL; a command that fails then fails the "
                        + "request (exit 2). "
                        + "Cookies from a session or cookie jar always go only to their own domain, and netrc is "
                        + "looked up for each host a redirect leads to."),
                .example(
                    "A session keeps the cookie the server sets, and sends it back:",
                    "afcli --session=dev :8080/cookies/set/sid/abc\n"
                        + "afcli --session=dev :8080/cookies\n"
                        + "afcli --session=dev -a ann:secret :8080/basic-auth/ann/secret X-Team:web\n"
                        + "afcli --session-read-only=dev :8080/anything\n"
                        + "afcli --session=./work.json example.org/api"),
                .example(
                    "curl's and browsers' Netscape cookies.txt, read and written back:",
                    "afcli --cookie-jar cookies.txt :8080/cookies"),
            ]),
        ManualSection(
            "THE CURL COMMAND",
            [
                .paragraph(
                    "`--curl` prints one shell-quoted curl command line that sends the same request, and sends "
                        + "nothing. It is made from the same transfer settings that configure libcurl: every header "
                        + "as sent (`-H 'Name:'` for a removed one, `-H 'Name;'` for an empty one), the method (`-X` "
                        + "only where curl would not infer it), the body, `--compressed` because afcli decodes "
                        + "responses, and the TLS, proxy, routing, timeout and limit options. It starts with "
                        + "`--disable` (no ~/.curlrc) and `--proto =http,https` (what afcli allows), and passes "
                        + "`-H Expect:` because afcli never sends `Expect: 100-continue`. A unit test fails when a "
                        + "transfer setting has no curl flag, and the tests run the printed line with curl against a "
                        + "recording server and compare the request with afcli's own. `afcli download` and "
                        + "`afcli pin` refuse `--curl`."),
                .paragraph(
                    "A file body stays `--data-binary @FILE`. Multipart becomes `--form-string` and `--form` only "
                        + "when curl writes the same parts (its boundary differs); otherwise, and for standard input, "
                        + "a compressed or a non-text body or one over 64 KiB, `--data-binary @-` reads the body from "
                        + "standard input. "
                        + "Notes on standard error name what to pipe in and where curl differs: the idle `--timeout` "
                        + "becomes `--speed-limit 1 --speed-time N`, curl's `--limit-rate` also paces uploads, "
                        + "`--pinnedpubkey` checks the server's own key only, `--pin-cert` has no curl flag, and after "
                        + "a redirect to GET curl keeps the body's `-H` headers, and sends the `--auth-cmd` and "
                        + "`--aws-sigv4` headers on to every host a redirect leads to."),
                .paragraph(
                    "A cookie jar becomes `--cookie FILE --cookie-jar FILE`, a session's cookies `--cookie` with "
                        + "the name=value pairs libcurl would send to the URL, an existing netrc file "
                        + "`--netrc-optional --netrc-file FILE`, and `--location-trusted` is passed on. A password "
                        + "asked for on the terminal and a session's stored headers, credentials and cookies are "
                        + "printed as `<redacted>` unless `--show-secrets` is given; what was typed is shown as typed."),
            ]),
    ]
}
