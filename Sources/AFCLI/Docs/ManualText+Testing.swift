extension ManualText {
    /// `afcli run` as a test runner: `??` assertions, `--test` and `--report`.
    static let testingSections: [ManualSection] = [
        ManualSection(
            "TESTING APIS WITH AFCLI RUN",
            [
                .paragraph(
                    "A `.http` file's requests may carry assertions in httpyac's syntax, one per line after the "
                        + "request's headers or body (never part of the body): `?? FIELD [ARGUMENT] CONDITION [VALUE]`. "
                        + "Fields: `status`; `header NAME`; `body` (the body as text) or `body PATH` (the value a "
                        + "JSONPath, or a bare property path such as `items[0].name`, selects in a JSON body); "
                        + "`jsonpath QUERY` (RFC 9535); `xpath EXPRESSION` (XPath 1.0 over an XML body: the string value "
                        + "of the first node selected, or the expression's value); `duration [PHASE]` (milliseconds: "
                        + "total, firstByte, wait, download, request, tcp or tls). Conditions: `==` (equals), `!=`, `<`, "
                        + "`<=`, `>`, `>=`, `startsWith`, `endsWith`, `includes` (contains), `exists`, `isTrue`, "
                        + "`isFalse`, `isNumber`, `isString`, `isBoolean`, `isArray`, `matches` (RFC 9485 I-Regexp with "
                        + "`^`, `$`, `\\d`, `\\w`, `\\s`, in linear time; a repetition count over 1000 or a pattern that "
                        + "expands to more than 20000 instructions is refused with the file) and `sha256` (of the body, "
                        + "base64 or hex). "
                        + "VALUE is the rest of the line, quotes optional; JSON values compare as their kind. A "
                        + "JSONPath is read by the JSONPath parser, so it may hold spaces (`?? jsonpath "
                        + "$.items[?@.age > 18].name exists`): it ends where the query does, and the condition "
                        + "follows it."),
                .paragraph(
                    "A request whose assertions do not all hold fails with exit status 16; its NDJSON line lists "
                        + "every assertion (`line`, `assert`, `passed`, `actual`, or the `problem` that kept it from "
                        + "being checked: a body that is not JSON, nested deeper than `--max-depth` allows, or larger "
                        + "than the 16 MiB assertions read). A "
                        + "`?? status` assertion replaces the status check for its request. `?? js` lines and "
                        + "`{{ … }}` script blocks need JavaScript: their request fails alone with exit status 2, unsent; any other mistake in a "
                        + "`??` line stops the file before anything is sent."),
                .paragraph(
                    "`# @retry N` before a request sends it again, up to N more times, while its assertions "
                        + "fail, waiting `--retry-interval` (1 s by default) between tries, for polling a job until "
                        + "it is done; the request is reported once, with `assertion_tries` in its NDJSON line. Under "
                        + "`--parallel N` a request waiting for its next try leaves its slot to the next request; "
                        + "one after the other, the next request starts only once it is done."),
                .paragraph(
                    "`--test` prints one line per request (PASS or FAIL, name, method, URL, status, size, time, "
                        + "and under a failure what failed) and a summary, and runs every request (`--keep-going` is "
                        + "implied). A plain `afcli run` whose standard output is a terminal prints the same lines; "
                        + "in a pipe or a file it prints NDJSON. `--report FORMAT=FILE` (repeatable) writes a report as "
                        + "requests end: `junit` (JUnit XML, with the failed assertions, the curl command and the "
                        + "timings of each failure), `tap` (TAP version 13), `json` (the NDJSON records and a summary "
                        + "in one document) or `har` (HAR 1.2 with per-phase timings, headers but no bodies). Report "
                        + "files are created 0600 before anything is sent, replaced if they exist, and never written "
                        + "through a symbolic link. `/dev/stderr` and `/dev/fd/N` are written as the descriptors they "
                        + "name (`--report junit=/dev/fd/3 3>report.xml`; standard error also carries afcli's "
                        + "messages); `-` and `/dev/stdout` are refused, since standard output carries the run's "
                        + "lines (NDJSON, or the PASS/FAIL lines and summary) whatever else is asked. A report onto "
                        + "the source being run, the `--log-file`, the file standard output goes to, or another "
                        + "report's file, however it is spelled (compared by device and inode, or by resolved path), "
                        + "is refused before anything is sent (exit status 2)."),
                .paragraph(
                    "Reports are kept as CI artifacts and shown in merge requests, so they hold no credentials: "
                        + "by one rule, the rule `-v` follows too, the value of a header is shown as <redacted> "
                        + "when the header is Authorization or Proxy-Authorization (its scheme kept: `Basic "
                        + "<redacted>`), X-Amz-Security-Token, one whose name looks secret (with token, key, "
                        + "secret, auth, password, session or signature in it), one `--auth-cmd` printed, or one "
                        + "the environment sets to a secret-looking value; in Cookie and Set-Cookie each cookie "
                        + "keeps its name and attributes and loses its value (`sid=<redacted>; Path=/`). The HAR "
                        + "entries keep every header's name, as Chrome's sanitised HAR export does, and list the "
                        + "cookies sent (the run's cookie engine's among them) and set; the JUnit report's curl "
                        + "command hides them the same way, and a `--user` password. The json and tap reports "
                        + "show no headers. `--show-secrets` on the `afcli run` command line (or in "
                        + "default_options) shows them all."),
                .example(
                    "A test file, api.http, with assertions on status, headers, JSON and XML:",
                    "### health\n"
                        + "GET http://127.0.0.1:8080/health\n"
                        + "?? status == 200\n"
                        + "?? duration < 500\n"
                        + "\n"
                        + "### users\n"
                        + "GET http://127.0.0.1:8080/users?page=2\n"
                        + "Accept: application/json\n"
                        + "\n"
                        + "?? header content-type includes json\n"
                        + "?? body $.items isArray\n"
                        + "?? jsonpath $.items[0].id == 7\n"
                        + "?? jsonpath $.items[0].email matches ^[^@]+@example\\.com$\n"
                        + "\n"
                        + "### feed\n"
                        + "GET http://127.0.0.1:8080/feed.xml\n"
                        + "?? xpath count(//item) >= 1\n"
                        + "\n"
                        + "### not there\n"
                        + "GET http://127.0.0.1:8080/users/0\n"
                        + "?? status == 404"),
                .example(
                    "Run it as a test suite, with a JUnit and a TAP report for CI; one assertion fails, so the exit status is 16:",
                    "$ afcli run api.http --test --report junit=report.xml --report tap=r.tap\n"
                        + "PASS  health  GET http://127.0.0.1:8080/health  200  15 B  2 ms\n"
                        + "FAIL  users  GET http://127.0.0.1:8080/users?page=2  200  1.2 KB  9 ms\n"
                        + "      ✗ jsonpath $.items[0].id == 7 (actual 8)\n"
                        + "PASS  feed  GET http://127.0.0.1:8080/feed.xml  200  3.4 KB  4 ms\n"
                        + "PASS  not there  GET http://127.0.0.1:8080/users/0  404  21 B  1 ms\n"
                        + "3 passed, 1 failed (4 requests) in 19 ms\n"
                        + "$ echo $?\n"
                        + "16"),
                .example(
                    "Poll an asynchronous job until it is done, at most 10 more tries, 2 s apart:",
                    "# @retry 10\n"
                        + "GET http://127.0.0.1:8080/jobs/42\n"
                        + "?? body $.state == done\n"
                        + "\n"
                        + "$ afcli run job.http --retry-interval 2"),
            ])
    ]
}
