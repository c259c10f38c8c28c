extension ManualText {
    /// Metrics: the phase table, `--meta=json` and `--write-out`, for every request.
    static let metricsSections: [ManualSection] = [
        ManualSection(
            "METRICS",
            [
                .paragraph(
                    "libcurl measures every transfer, and afcli keeps what it measured for each hop (each "
                        + "redirect followed is one more transfer): the time name resolution, the TCP connection, "
                        + "the TLS handshake, sending the request, the first response byte and the end took, the "
                        + "protocol, whether the connection was reused, both addresses and the bytes each way. "
                        + "Reading them costs nothing measurable; printing them is asked for in three ways."),
                .paragraph(
                    "The m part of `--print` (and `--verbose`, which is `--print=HBhbm`) prints, after the "
                        + "exchange, the elapsed time of all hops together, the protocol of the final response and "
                        + "a table with one row per phase: its duration and when it ended, in milliseconds from "
                        + "the start of the hop, a dash for a phase that did not happen (no TLS over http), then "
                        + "the connection (new or reused, to and from which address and port) and the bytes of "
                        + "head and body sent and received. `--verbose --follow` prints one table per hop, each "
                        + "titled with its method, URL, status and protocol; `--print=m` alone prints the final "
                        + "hop's. With `--print=m` the body is read to its end even when it is not printed, so the "
                        + "sizes and times describe the whole transfer; `--verbose` still stops at the binary "
                        + "notice, and its table describes what was transferred."),
                .paragraph(
                    "`--meta=json` prints the same metrics as one line of JSON with the names of AFNetworking's "
                        + "NSURLSessionTaskMetrics: `taskInterval` (`start`, `duration`), `redirectCount` and "
                        + "`transactionMetrics`, one object per hop with `fetchStartDate`, `domainLookupStartDate`, "
                        + "`domainLookupEndDate`, `connectStartDate`, `connectEndDate`, `secureConnectionStartDate`, "
                        + "`secureConnectionEndDate`, `requestStartDate`, `requestEndDate`, `responseStartDate`, "
                        + "`responseEndDate`, `networkProtocolName` (`http/1.1`, `h2`, `h3`), `isReusedConnection`, "
                        + "`remoteAddress`, `remotePort`, `localAddress`, `localPort`, the four byte counts and "
                        + "`resourceFetchType` (`networkLoad`, or `localCache` for an answer from the response cache, "
                        + "which has no connection, addresses or bytes received), plus `request`, `response` and afcli's own "
                        + "`queueDuration`. Dates are seconds since 1970 with six decimals; a date AFNetworking "
                        + "leaves nil is null (lookup and connect on a reused connection, TLS without TLS). libcurl "
                        + "7.88 does not report when the request's last byte left, so `requestEndDate` is "
                        + "`requestStartDate` without a body and `responseStartDate` with one. The JSON goes to "
                        + "standard error, so that standard output stays the body; when m is printed it replaces "
                        + "the table on standard output (`afcli --print=m --meta=json URL | jq`)."),
                .paragraph(
                    "`-w FORMAT` (`--write-out`) prints FORMAT to standard output after the response, as curl's "
                        + "`-w` does, with curl's variables and formats: `%{time_namelookup}`, `%{time_connect}`, "
                        + "`%{time_appconnect}`, `%{time_pretransfer}`, `%{time_starttransfer}`, `%{time_total}` "
                        + "and `%{time_redirect}` in seconds with six decimals, `%{http_code}` in three digits, "
                        + "sizes and speeds in bytes, and `%{json}` for all of them as one JSON object with curl's "
                        + "keys. `%header{NAME}` is a header of the final response, `%{stderr}` and `%{stdout}` "
                        + "switch streams, `%{onerror}` (curl 7.75) prints the rest of FORMAT only when the "
                        + "transfer failed (no response; an HTTP status is a response), `\\n`, `\\r` and `\\t` "
                        + "are escapes and `%%` is a percent sign; anything "
                        + "else is printed as curl prints it. After `--follow` the values are those curl -L "
                        + "reports: head and request sizes and connections summed over the hops, `time_redirect` "
                        + "the hops before the last, and the phase times counted from the start. `%{exitcode}` is "
                        + "afcli's exit status and `%{errormsg}` its error message: FORMAT is printed for a failed "
                        + "transfer too, with `%{http_code}` 000 and the times up to the failure (a `--max-time` "
                        + "timeout reports the time spent); a cache hit or a `--local` answer has no transfer, and "
                        + "its `%{size_download}` is the body written. `-w @FILE` reads FORMAT from a file and `-w @-` "
                        + "from standard input; a format is at most 64 KiB, and one that cannot be read ends "
                        + "afcli with status 2 before anything is sent. An unknown variable prints nothing and a "
                        + "warning, as in curl. When standard output is a terminal, control characters in values "
                        + "the server chose (headers, URLs) are shown escaped, as `\\x1b` (after `%{stderr}`, when "
                        + "standard error is a terminal). `%{size_request}` counts the request head and, as with curl "
                        + "--data, a body of under 64 KiB handed to libcurl whole; a larger, chunked or "
                        + "unknown-length body is streamed and not counted. libcurl 7.88 has no `time_posttransfer`. `afcli download` refuses `--write-out` and `--meta=json` "
                        + "(status 2)."),
                .example(
                    "Status and timings of a request, curl style:",
                    "afcli -q -w '%{http_code} %{time_total}s\\n' :8080/get"),
                .example(
                    "The metrics as JSON, piped into jq:",
                    "afcli --print=m --meta=json :8080/get | jq .taskInterval"),
                .example(
                    "Each phase of an exchange, the connection and the bytes each way:",
                    "$ afcli --print=m :8080/get\n"
                        + "Elapsed time: 0.004807s\n"
                        + "Protocol: HTTP/1.1\n"
                        + "\n"
                        + "  Phase               Duration          At\n"
                        + "  queue               0.000 ms\n"
                        + "  DNS lookup          0.021 ms    0.021 ms\n"
                        + "  TCP connect         4.377 ms    4.398 ms\n"
                        + "  TLS handshake              -           -\n"
                        + "  request sent        0.043 ms    4.441 ms\n"
                        + "  first byte          0.180 ms    4.621 ms\n"
                        + "  body received       0.186 ms    4.807 ms\n"
                        + "  Connection: new, to 127.0.0.1:8080 from 127.0.0.1:57078\n"
                        + "  Sent: 147 bytes of head, 0 of body\n"
                        + "  Received: 71 bytes of head, 11 of body"),
            ])
    ]
}
