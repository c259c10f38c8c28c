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
                        + "VALUE is the rest of the line, quotes optional; JSON values compare as their kind."),
                .paragraph(
                    "A request whose assertions do not all hold fails with exit status 16; its NDJSON line lists "
                        + "every assertion (`line`, `assert`, `passed`, `actual`, or the `problem` that kept it from "
                        + "being checked: a body that is not JSON, or larger than the 16 MiB assertions read). A "
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
                        + "through a symbolic link."),
            ]),
    ]
}
