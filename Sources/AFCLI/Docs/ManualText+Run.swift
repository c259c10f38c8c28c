extension ManualText {
    /// `afcli run`: many requests in one process, how they are scheduled, what is printed, the
    /// exit status and Ctrl-C.
    static let runSections: [ManualSection] = [
        ManualSection(
            "MANY REQUESTS: AFCLI RUN",
            [
                .paragraph(
                    "`afcli run SOURCE` sends many requests from one process, on libcurl's multi interface: "
                        + "connections are reused from one request to the next, and over TLS, requests to one "
                        + "HTTP/2 server share one connection as streams (a request waits for that connection only "
                        + "over https: to a plain-http host, `--parallel N` opens up to N connections at once). "
                        + "SOURCE is a .http file, or `-` for afcli "
                        + "command lines on standard input, one request per line in afcli's own grammar. Every "
                        + "option of the run (`--follow`, `--verify`, `--timeout`, `-a`, `--check-status`…) "
                        + "applies to every request; a line's or an entry's own settings override it for that "
                        + "request. Options that would do nothing for a run are refused when typed on its command "
                        + "line (exit status 2, nothing sent): "
                        + OptionScopes.refused(by: .run).joined(separator: ", ") + "."),
                .paragraph(
                    "Requests are sent one after the other, in the order written, unless `--parallel N` keeps up "
                        + "to N in flight. Keepers, marked `# @first` in the source or named with `--first NAME`, "
                        + "all complete before any other request starts (they run among themselves up to N at "
                        + "once). Each request is built (its items read, its files opened) shortly before it "
                        + "starts, while others are in flight. A body "
                        + "that is not saved is counted and dropped as it arrives, so memory stays bounded by the "
                        + "requests in flight however long the batch is. Every transfer of a run is driven from one "
                        + "thread over one set of connections and one cookie engine, as curl -Z drives its: HTTP/2 "
                        + "requests to a server share a connection as streams. Waiting for an answer, the run polls "
                        + "for up to 50 µs before it "
                        + "sleeps while earlier answers came that fast (a sleeping thread wakes late, on a virtual "
                        + "machine especially); after a wait the poll did not catch, the next 1, 2, 4… up to 64 waits "
                        + "sleep at once. Redirects are followed "
                        + "with `--follow` (not for an entry marked `# @no-redirect`); each hop is a new transfer "
                        + "on the same connections."),
                .paragraph(
                    "A run has one cookie engine, libcurl's, shared by all its requests: a cookie a response sets "
                        + "(a login) is sent by every request that starts after it, only to the domain and path it "
                        + "belongs to. `--cookie-jar FILE` and `--session NAME|PATH` seed it, and its cookies are "
                        + "written back to them when the run ends (0600, replaced atomically; never with "
                        + "`--session-read-only`). In a run a session is a cookie store only: a session file that "
                        + "stores headers, credentials or cookies bound to no domain belongs to one host, and is "
                        + "refused (exit status 2, nothing sent); a session NAME is looked up under the host of the "
                        + "run's first request. A request's own Cookie header (a .http file's, a `run -` line's "
                        + "`Cookie:` item) joins the engine, bound to the request's host, as a `Cookie:` item "
                        + "joins a single request's cookie jar: libcurl sends it with the engine's cookies in one "
                        + "Cookie field (RFC 6265 allows no second), later requests to that host send it too, "
                        + "and the jar or session gets it when the run ends. `# @no-cookie-jar` keeps a request "
                        + "out of the engine (its own Cookie header is then sent alone). With "
                        + "`--parallel N` requests run at once, so a request that needs a cookie another one sets "
                        + "must start after it: use `--parallel 1` (the default) or make the login a keeper "
                        + "(`# @first`, `--first NAME`). With `--cache`, the cookies the engine sends to a URL when "
                        + "its request starts are part of the request's cache key."),
                .paragraph(
                    "A request fails when it gets no response (exit statuses 6 to 12), when its final response "
                        + "is 3xx, 4xx or 5xx (as `--check-status`, on by default; `--no-check-status` accepts any "
                        + "status), or when it fails `--accept-status` or `--accept-type`. After the first failure "
                        + "no new request starts, and those in flight finish; with `--keep-going` every request "
                        + "runs. Each failure is also told on standard error as `afcli: error: NAME (FILE:LINE): "
                        + "…`."),
                .paragraph(
                    "Standard output gets one JSON object per request, on one line, in the order they complete, "
                        + "whether it is a terminal or not: `name`, `method`, `url`, `status` (null without a "
                        + "response), `bytes` (the final body, decoded), `redirects`, `http_version`, `time`, "
                        + "`reused` (the connection was opened by an earlier request), `remote` (address:port), "
                        + "`file` (with `--output-dir`), `error` (null, or the message) and `exit` (the exit status "
                        + "the request counts as). `time` holds seconds: `queue`, measured by afcli, from the "
                        + "moment the run was ready to send until libcurl began the request's transfer (the wait "
                        + "for a free slot and for keepers, building the request, and a wait inside libcurl for a "
                        + "connection, which is not in `total`), then "
                        + "libcurl's cumulative `namelookup`, `connect`, `tls`, `first_byte` and `total` of the "
                        + "final transfer, so that namelookup <= connect <= tls <= first_byte <= total. A phase that "
                        + "did not happen is null: name lookup and connect on a reused connection, TLS over plain "
                        + "http. A request that failed in libcurl (refused, timed out), was interrupted or failed "
                        + "after its transfer (its decryption) has its measured times up to the failure, the phases "
                        + "it never reached null, as curl -w reports them; `time` is null for a request that was "
                        + "never sent (it could not be built, or the cache answered it)."),
                .paragraph(
                    "`--output-dir DIR` saves each final body as DIR/NAME.body, NAME made safe (bytes other than "
                        + "letters, digits, `.`, `-` and `_` become `_`, no leading dot, at most 100 bytes) and unique in the order "
                        + "written (NAME-2.body…). DIR is created 0700 when missing; files are created 0600 when "
                        + "the final body begins (or ends empty), replaced when they exist, and never written "
                        + "through a symbolic link. A request whose `--decrypt-cmd` fails writes nothing: no file "
                        + "is created, and one left by an earlier run is kept as it was. A DIR that is not a directory or cannot be "
                        + "created is refused before anything is sent (exit status 2)."),
                .paragraph(
                    "When standard error is a terminal, a status line there shows the requests done, failed and "
                        + "running and the rate, cut to the terminal's width (redrawn in place, never wrapped), and "
                        + "a summary line ends the run. The exit status is 0 when every "
                        + "request succeeded, else the status of the first request that failed (in completion "
                        + "order): 4 when the first failure was a 404, 8 for a refused connection. A mistake in "
                        + "SOURCE or in the options (exit status 2) stops the run before anything is sent."),
                .paragraph(
                    "Ctrl-C (SIGINT) or SIGTERM stops new requests from starting and cancels the ones in flight, "
                        + "each reported with the error `interrupted`; the summary is printed on standard error "
                        + "and afcli exits with status 130."),
                .paragraph(
                    "Command lines on standard input are built in the config environment, as when typed "
                        + "(`afcli --env dev run -` joins each URL to the base URL and merges the common parameters "
                        + "and headers), and an encrypt command encrypts each body. For a .http file, --env names an "
                        + "environment of its http-client.env.json instead. `--decrypt-cmd` (or the environment's "
                        + "decrypt) decrypts each final 2xx body before it is counted, saved or logged, and a failed "
                        + "decryption fails that request (exit status 1). `--envelope` reads each final 2xx body as "
                        + "an envelope: `--output-dir` saves the result alone, and a request whose envelope fails "
                        + "counts as exit status 13 (14 for a common failure, 11 for a body that is no envelope), "
                        + "the envelope's message as its line's error. Each request is judged as the same request "
                        + "typed alone would be: `--accept-status` and `--accept-type` first, then the envelope, then "
                        + "`--check-status`. `--log=cj` (or `--log-file FILE`, opened before anything is "
                        + "sent) writes each request's CJNetwork block, in completion order, byte for byte the block "
                        + "the same request sent alone would write. netrc gives credentials to requests without their "
                        + "own, and `--location-trusted` sends them on to redirect targets, as for a single request."),
                .paragraph(
                    "The response cache serves a run as it serves single requests: `--cache[=MODE]`, "
                        + "`--cache-ttl` and `--cache-namespace` (or, for `run -`, the environment's cache policy) "
                        + "apply to every request, with the same rules and the same store. A request the store "
                        + "answers is not sent: its line has `\"cache\":\"hit\"` and `time` and `remote` null. With "
                        + "the cache on, every line has a `cache` field: hit, stale (a stale response answered a server "
                        + "error or a failed connection, stale-if-error), revalidated (a 304 answered with the "
                        + "stored body), stored, not-stored, invalidated (a POST, PUT, PATCH or DELETE succeeded), "
                        + "bypassed, only-if-cached (a 504 from the cache, nothing sent), or null. A miss under `--cache=only` fails that request with exit status 15. "
                        + "`--cache=cj-then-network`, which gives two answers to one request, is refused when typed "
                        + "for a run (from default_options or the environment, a run passes it over and asks the network), "
                        + "and the cache options belong to the run's command line, not to a line of `run -`."),
                .example(
                    "Fetch users, 16 at a time:",
                    "jq -r '.[] | \"get :8080/u/\\(.id)\"' ids.json | afcli run - --parallel 16"),
                .example("Show only the failures:", "afcli run - --keep-going < requests.txt | jq 'select(.error)'"),
                .example(
                    "Two requests from standard input, piped: a JSON line each (shortened here), and the first failure named on standard error:",
                    "$ printf 'get :8080/users/1\\nget :8080/users/2\\n' | afcli run - | cat\n"
                        + "{\"name\":\"line-1\",\"method\":\"GET\",\"url\":\"http://localhost:8080/users/1\",\n"
                        + " \"status\":200,\"bytes\":41,…,\"error\":null,\"exit\":0}\n"
                        + "{\"name\":\"line-2\",\"method\":\"GET\",\"url\":\"http://localhost:8080/users/2\",\n"
                        + " \"status\":404,\"bytes\":22,…,\"error\":\"HTTP 404 Not Found\",\"exit\":4}\n"
                        + "afcli: error: line-2 (stdin:2): HTTP 404 Not Found\n"
                        + "$ echo $?\n"
                        + "4"),
            ])
    ]
}
