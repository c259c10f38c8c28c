extension ManualText {
    /// The response cache: HTTP's rules, CJNetwork's strategies, keys, storage and `afcli cache`.
    static let cacheSections: [ManualSection] = [
        ManualSection(
            "RESPONSE CACHE",
            [
                .paragraph(
                    "afcli keeps no response unless asked. `--cache` stores responses and answers from them as a "
                        + "private HTTP cache (RFC 9111): a fresh response answers at once and nothing is sent; a stale "
                        + "one with an ETag or Last-Modified is revalidated with If-None-Match / If-Modified-Since, and "
                        + "a 304 refreshes it. Freshness comes from Cache-Control max-age, else Expires minus Date, else "
                        + "10% of the time since Last-Modified (at most a day) for statuses that allow it; Age and the "
                        + "response's own delay count towards the age. s-maxage is for shared caches and ignored. "
                        + "no-store is never stored, no-cache is always revalidated, Vary selects among stored "
                        + "variants (a Vary with `*` among its members is never stored). An Expires that is not exactly "
                        + "an HTTP-date (two-digit year, missing comma, dashes, one-digit hour, extra spaces, several "
                        + "Expires lines) means already expired; of a list-valued Age the first member counts (a "
                        + "parameter after it, `7200;foo`, aside). The first max-age wins over a later one, a decimal "
                        + "max-age (3600.0) counts its whole seconds, and a max-age with spaces around its `=` is not "
                        + "one. A qualified `no-cache=\"Field\"` stores and reuses the response without that field; "
                        + "`must-understand` lets a status whose caching afcli implements be stored despite no-store; "
                        + "public allows heuristic freshness for any status. Vary compares the request's values "
                        + "normalised: repeated lines are one list, and spaces around list members do not count. "
                        + "Hop-by-hop fields (Connection, Keep-Alive, TE, Transfer-Encoding, Upgrade, the Proxy- "
                        + "fields) and the fields Connection names are not stored. Set-Cookie is stored and shown on a "
                        + "hit as received, but a replayed Set-Cookie never changes a cookie jar or session. A successful "
                        + "POST, PUT, PATCH or DELETE with --cache removes the stored GET and HEAD responses of its URL, "
                        + "and of the URLs its answer's Location and Content-Location name when they are of the same "
                        + "origin. A 304 that names another representation (a strong ETag other than the stored one) "
                        + "refreshes nothing: the request is sent again without conditions; a 304 with no-store answers "
                        + "with the stored response and removes it. An answer from the cache is held to "
                        + "--max-filesize as the network's is, and has metrics of its own (the `--print=m` table shows "
                        + "one `cache read` phase and no connection; `--meta=json` says `resourceFetchType` "
                        + "`localCache`). "
                        + "With --follow, stored redirects are not answered, and the final response of a redirect chain "
                        + "is stored under its own URL (the final request's), never under the URL that redirected. A "
                        + "fresh stored GET response answers a HEAD with its head. A "
                        + "request that carries its own If-None-Match, If-Modified-Since or Range, or "
                        + "whose body is streamed from a file or standard input, bypasses the cache."),
                .paragraph(
                    "The request's own Cache-Control (typed as an item, from an environment's headers, or on a "
                        + "`run` line) is honoured too: `max-age=N` takes only a response at most N seconds old "
                        + "(`max-age=0` revalidates), `min-fresh=N` one still fresh N seconds from now, "
                        + "`max-stale[=N]` also a response stale by at most N seconds (any, without N) unless it said "
                        + "must-revalidate, `no-cache` revalidates, `no-store` neither answers from nor writes to the "
                        + "cache, and `only-if-cached` answers from the cache (a stale response too, unless it said "
                        + "must-revalidate or no-cache) or with a 504 Gateway Timeout, sending nothing."),
                .paragraph(
                    "RFC 5861's directives let a stale response answer when the server allows it. Within "
                        + "`stale-while-revalidate=N` seconds of going stale, a stored response answers, whatever the "
                        + "server would say (`cache: hit, stale, age 12 s (stale-while-revalidate)`), and afcli "
                        + "revalidates it before it exits, so the next request finds it fresh (`afcli run` revalidates instead, before "
                        + "answering). Within `stale-if-error=N` seconds (the response's, or the request's), a stored "
                        + "response answers a 500, 502, 503 or 504 or a connection that failed, with a warning on "
                        + "standard error and exit status 0. Without these directives, or with must-revalidate or "
                        + "no-cache, an error is shown as it is: afcli never hides a failure on its own."),
                .paragraph(
                    "`--cache=refresh` revalidates even a fresh response. `--cache=only` sends nothing, ever: it "
                        + "answers from the cache, also with a stale response unless it said must-revalidate or "
                        + "no-cache, and fails with exit status 15 (HTTP's only-if-cached) for anything else, a POST, "
                        + "PUT, PATCH, DELETE or other unsafe method included, in a single request as in a run."),
                .paragraph(
                    "CJNetwork's strategies ignore HTTP's freshness and use an explicit lifetime, `--cache-ttl` "
                        + "(90, 10m, 1h, 7d, or forever: kept until removed): `--cache=cj-first` answers with a stored "
                        + "response younger than the lifetime and asks the network only otherwise; "
                        + "`--cache=cj-then-network` gives the stored answer first and then always asks the network, "
                        + "whose answer is printed and stored. Both store any 2xx response that is not no-store, for "
                        + "any method, and a network failure never falls back to the cache. On a terminal, "
                        + "cj-then-network prints both answers, the stored one first; when standard output is a pipe "
                        + "or a file it gets only the network's answer, and the stored answer's body goes to "
                        + "`--cache-transition-output FILE` when given (otherwise it only appears in the request log; "
                        + "`-` is standard output when `-o FILE` takes the network's answer, and refused otherwise). "
                        + "`--log=cj` writes one block per answer, the stored one first, whose final parameters are the "
                        + "fallback text, since nothing was sent for it. The stored answer goes through decryption "
                        + "(`--decrypt-cmd`) and `--envelope` as the network's does."),
                .paragraph(
                    "A stored response is found by its namespace (`--cache-namespace`, else the environment's "
                        + "cacheNamespace), method, target URI (the URL with the host of a `Host:` item when one is "
                        + "given, as the server sees it; scheme and host in lower case, no default port, no "
                        + "fragment; `afcli cache ls` lists it), a SHA-256 of the request body as typed (before "
                        + "`--encrypt-cmd`, whose output may differ each time) and a SHA-256 of the credentials and "
                        + "cookies sent "
                        + "(Authorization, Cookie, digest credentials, the netrc file, and the session and cookie-jar "
                        + "cookies sent to this URL, not the whole jar), and the route when `--resolve`, `--connect-to` "
                        + "or `--unix-socket` sends the request to another server than its URL names: "
                        + "a response is never answered to other credentials, and no secret is stored. An "
                        + "environment's cachePolicy (a --cache value) applies when no --cache or --no-cache is given."),
                .paragraph(
                    "`--print=m` adds a line saying what the cache did, and `--verbose` shows it too: "
                        + "`cache: hit, age 12 s`, `cache: hit, stale, age 12 s (stale-if-error)`, `cache: revalidated`, `cache: miss, stored`, `cache: miss, not "
                        + "stored`, `cache: invalidated`, `cache: bypassed` or `cache: miss, only-if-cached: 504, "
                        + "nothing sent`."),
                .paragraph(
                    "An answer from the cache never loads libcurl (most of afcli's start-up): the "
                        + "requests the cache may answer carry a constant Accept-Encoding, `gzip, deflate, br, zstd` "
                        + "(what Debian's libcurl decodes). "
                        + "The cache is an SQLite database (WAL, so several afcli processes share it) in "
                        + "$XDG_CACHE_HOME/afcli, else ~/.cache/afcli; bodies over 64 KiB are files in its bodies "
                        + "directory named by their SHA-256, written as the response streams (memory stays flat) and "
                        + "renamed into place only once complete, so a run that is killed leaves no half entry. The "
                        + "directories are 0700 and the files 0600, and a symbolic link planted at any of them is "
                        + "refused. A cache that cannot be read (corrupt, another user's, a link) is reported once on "
                        + "standard error and bypassed; the request goes on. A body that cannot be written (a full "
                        + "disk) is not stored and the entry stored before stays."),
                .paragraph(
                    "Where the public HTTP caching test suite would have a cache do otherwise, afcli chooses: a "
                        + "request that sends a Cookie or Authorization is not answered with a response stored "
                        + "without it (credentials are in the key); a stale response never answers a server error "
                        + "or a dropped connection without stale-if-error; 206 Partial Content is never stored."),
                .paragraph(
                    "`afcli cache ls` lists the stored responses (method, URL, status, size, age, expiry); `afcli "
                        + "cache show URL` prints one with its headers; `afcli cache rm URL` removes a URL's responses "
                        + "and `afcli cache rm --all` all of them (URL is read as a request reads it: shorthands, "
                        + "percent-encoding, dot segments); `afcli cache prune` removes expired responses, then "
                        + "the least recently used until the cache is at most `--cache-max-size` (256m), and rebuilds "
                        + "a damaged database (not a database, or corrupt) empty; with `--verify-bodies` it first reads "
                        + "every body file and removes those whose SHA-256 is not their name, with their entries; any other failure (a full disk, a "
                        + "lock held too long) is an error that leaves the cache as it is. `afcli cache path` prints "
                        + "the directory, and `afcli cache --help` this section with the cache's options."),
                .example(
                    "Store a response, answer the next request from the cache, revalidate a stale one:",
                    "$ afcli --cache --print=m :8080/cache/60 | tail -1\n"
                        + "cache: miss, stored\n"
                        + "$ afcli --cache -v :8080/cache/60 | tail -1\n"
                        + "cache: hit, age 12 s\n"
                        + "$ afcli --cache --print=hm :8080/etag/abc | tail -1\n"
                        + "cache: revalidated\n"
                        + "$ afcli --cache=only :8080/cache/60 || echo $?"),
                .example(
                    "CJNetwork's strategies, with a time to live:",
                    "afcli --cache=cj-first --cache-ttl 10m post :8080/api/list page:=1\n"
                        + "afcli --cache=cj-then-network --cache-ttl 1h \\\n"
                        + "    --cache-transition-output old.json :8080/api/feed > new.json"),
                .example(
                    "List what is stored, then prune it to 64 MiB:",
                    "$ afcli cache ls\n"
                        + "METHOD  URL                             STATUS  SIZE  AGE    EXPIRES\n"
                        + "GET     http://localhost:8080/cache/60  200     266   12 s   in 48 s\n"
                        + "GET     http://localhost:8080/etag/abc  200     266   3 min  expired\n"
                        + "$ afcli cache prune --cache-max-size 64m\n"
                        + "removed 1 expired, 0 least recently used, 0 unused files"),
            ])
    ]
}
