/// The hand-written part of afcli's manual, kept as a small structured template so that one text
/// renders both as the roff man page (`ManPage`) and as plain text (`afcli help`).
///
/// Only the option list and the exit status table are generated, from `OptionTable` and
/// `ExitStatus`; everything else is prose here. In the prose, text between backticks is literal
/// input (bold in the man page, as-is in plain text).
package enum ManualText {
    /// The man page's one-line summary (after `afcli -`).
    package static let summary = "HTTP client with HTTPie's syntax and AFNetworking's semantics"

    /// The synopsis lines; lower-case words are literal, upper-case words are placeholders.
    /// The subcommands' lines come from `CommandTable`.
    package static var synopsis: [String] {
        ["afcli [METHOD] URL [ITEM...] [OPTION...]"] + CommandTable.all.map(\.synopsis)
    }

    /// The sections after NAME and SYNOPSIS, in order.
    package static let sections: [ManualSection] =
        requestSections + streamingSections + networkSections + authSections + environmentSections + cryptoSections + cacheSections + runSections
            + batchInputSections + testingSections
            + metricsSections + referenceSections

    /// What requests, uploads, downloads, TLS, reachability and responses do.
    private static let requestSections: [ManualSection] = [
        ManualSection(
            "DESCRIPTION",
            [
                .paragraph(
                    "afcli sends one HTTP request and prints the response. Its command line is HTTPie's: an optional "
                        + "METHOD, a URL, and request items that become headers, query parameters and the body. "
                        + "Requests and responses are handled as AFNetworking handles them, and libcurl does the "
                        + "transfer."),
                .paragraph(
                    "METHOD is one of `get`, `head`, `post`, `put`, `patch`, `delete` or `options`, in any case; "
                        + "other methods are given with `--method`. Without either, the method is POST when there "
                        + "is a data item, a raw body (`--raw` or an `@file` item) or standard input that yields at "
                        + "least one byte, and GET otherwise. Standard input is never read when it is a terminal or "
                        + "/dev/null, or with `--ignore-stdin`; when the command line already has data, afcli reads only "
                        + "the bytes standard input has ready at once, so a cron job or a CI step never waits on it."),
                .paragraph(
                    "URL may be abbreviated: `:3000/x` means `http://localhost:3000/x`, and a URL without a "
                        + "scheme gets `http://`. With `--base-url`, a relative URL is resolved against the base."),
                .paragraph(
                    "Data fields form the request body, a JSON object by default (`--form`, `--multipart` and "
                        + "`--plist` choose other encodings). For GET, HEAD and DELETE they go into the query string "
                        + "instead, as AFNetworking does."),
                .paragraph(
                    "When standard output is a terminal, afcli prints the response status line, the headers and "
                        + "the formatted body. When it is a pipe or a file, afcli writes the exact body bytes and "
                        + "nothing else. Errors and warnings go to standard error, after `afcli: error:` or "
                        + "`afcli: warning:`."
                ),
                .paragraph(
                    "`afcli help` prints this manual as plain text, `afcli completions` prints a completion "
                        + "script for bash, zsh or fish (it completes the config's environment names after `--env` "
                        + "and `afcli env show`, asking `afcli env`), and `afcli man` prints this page's roff source. These words "
                        + "are commands only as the first argument before `--`: `afcli -- help` requests http://help. "
                        + "`make install` puts the completion scripts where each shell looks; without it, "
                        + "`source <(afcli completions bash)` loads bash's, `afcli completions fish > "
                        + "~/.config/fish/completions/afcli.fish` installs fish's, and zsh's goes in a file named "
                        + "`_afcli` in a directory on `$fpath`. `afcli man markdown` prints this manual as the "
                        + "Markdown reference, docs/reference.md in afcli's repository."),
            ]),
        ManualSection(
            "REQUEST ITEMS",
            [
                .paragraph(
                    "Each ITEM is a name and a value joined by a separator. The earliest separator in the item "
                        + "wins, the longest one when several start at the same place. A backslash makes a "
                        + "separator, a bracket or a backslash literal, so `a\\=b=c` is the field `a=b` with the "
                        + "value `c`; before any other character it stays, so `a\\b=c` is the field `a\\b`."),
                .definitions([
                    ("Name:Value", "A request header. Repeated names send repeated headers."),
                    ("Name;", "A request header with an empty value."),
                    ("Name:", "Removes the header, including a default one such as User-Agent."),
                    ("Name:@file", "A request header whose value is read from file."),
                    ("name==value", "A query parameter, added to the URL's query string."),
                    ("name==@file", "A query parameter whose value is read from file."),
                    ("name=value", "A data field with a string value."),
                    (
                        "name:=json",
                        "A data field with a raw JSON value: a number, true, false, null, an array or an object."
                    ),
                    ("name=@file", "A data field whose string value is read from file."),
                    ("name:=@file", "A data field whose JSON value is read from file."),
                    (
                        "name@file",
                        "A file upload, which makes the body multipart/form-data. `;type=MIME` and `;filename=NAME` "
                            + "after the path set the part's Content-Type and file name."
                    ),
                    (
                        "@file",
                        "The file's contents are the request body, sent as they are, with a Content-Type from the "
                            + "file's extension (application/octet-stream when unknown); `;type=MIME` or a "
                            + "Content-Type item sets another."
                    ),
                ]),
                .paragraph(
                    "Data field names may nest: `a[b]=x` makes `{\"a\":{\"b\":\"x\"}}`, `a[]=x` appends to an "
                        + "array, and `a[b][]=x` does both. Fields keep the order they were typed in. `a[3]=x` sets "
                        + "index 3, padding with nulls; an index may be at most 10000, and a name may nest at most 512 "
                        + "levels. A name that starts with `[` "
                        + "addresses a top-level array and needs an index or `[]` (`[0]=x`). An empty name is the "
                        + "key \"\"."),
                .paragraph(
                    "A data field given twice sends its last value in a JSON or property-list body (`a=1 a=2` "
                        + "sends `{\"a\":\"2\"}`, as HTTPie and xh do) and both pairs in the order typed in a "
                        + "form or query string (`a=1&a=2`); `a[]` is sent only when typed. Unlike HTTPie, `--form` "
                        + "flattens structured values as AFNetworking does (`a[b]`, `a[]`, keys sorted). Files read "
                        + "by `=@`, `==@`, `:@` and `:=@` must be UTF-8 text of at most 64 MiB; `@file` and "
                        + "`name@file` send any bytes."),
                .paragraph(
                    "afcli frames the request itself: a Content-Length item must equal the body's length, and a "
                        + "Transfer-Encoding item may only be `chunked`, on a request with a body, which is then sent "
                        + "chunked; `Host:NAME` replaces the Host line, and `Host:` is refused because HTTP/1.1 needs "
                        + "one. Other values are refused (exit status 2), so what `--verbose` and `--offline` print is "
                        + "what is sent. POST, PUT and PATCH without a body send Content-Length: 0; `--multipart` "
                        + "without items sends an empty form."),
            ]),
        ManualSection(
            "FILE UPLOADS",
            [
                .paragraph(
                    "A file item (`name@path`) makes the body multipart/form-data, laid out as AFNetworking's "
                        + "AFStreamingMultipartFormData lays it out: the data fields first, as parts named the way "
                        + "`--form` flattens them (`a[b]`, `l[]`, keys sorted, names not escaped), then the files in "
                        + "the order typed. Several file items with one name send several parts with that name. "
                        + "`--multipart` sends a multipart body without files. A file part is named after the file "
                        + "(`;filename=` changes that) and typed from its extension with /etc/mime.types and a "
                        + "built-in table (`;type=` sets it; unknown extensions are application/octet-stream)."),
                .paragraph(
                    "The body is streamed part by part from disk, so memory stays flat whatever the files weigh, "
                        + "and its Content-Length is computed exactly before the first byte is sent. A file that "
                        + "changes size while it is being sent stops the transfer with an error (exit status 1) "
                        + "instead of sending a body that disagrees with its length. `name@-` reads a part from "
                        + "standard input; its length is unknown, so the body is sent with Transfer-Encoding: "
                        + "chunked, which `--verbose` points out. A 307 or 308 redirect sends the whole body again."),
                .paragraph(
                    "The boundary is `Boundary+` and 16 random upper-case hex digits, new for every request; "
                        + "`--boundary` sets it, so `--offline --print=B > body.bin` writes a body that can be "
                        + "reproduced. On a terminal, `--verbose` and `--print=B` show each file's contents as a "
                        + "short placeholder; piped or redirected, the body is printed in full (except a part from "
                        + "standard input, which is read once, for the wire, unless the request is `--offline`)."),
                .paragraph(
                    "Refused before anything is sent, with exit status 2: a missing or unreadable file, a "
                        + "directory, a field or file name containing a double quote, CR or LF, an invalid "
                        + "`;type=`, a file item with GET or HEAD or with `--json` or `--plist`, and a second "
                        + "item reading standard input."),
                .paragraph(
                    "`--throttle 3g` paces the body as AFNetworking's throttleBandwidthWithPacketSize:delay: "
                        + "with its suggested 3G values, 16384-byte packets 0.2 seconds apart; `--throttle 500k` "
                        + "sends at most 500 KiB a second. While a file or standard input is uploaded and standard "
                        + "error is a terminal, a bar on standard error shows the bytes sent, the percent, the rate "
                        + "and the time left, fitted to the terminal's width (the least useful parts are left out "
                        + "when it is narrow); `--progress=percent` prints CJNetwork-style lines such as `37%` "
                        + "instead, for scripts, which never go back, also when a redirect or a retry sends the body "
                        + "again; `--progress=none` prints nothing."),
            ]),
        ManualSection(
            "DOWNLOADS",
            [
                .paragraph(
                    "`afcli download URL...` saves each URL to a file, one after another, following redirects "
                        + "and asking for the bytes as stored (Accept-Encoding: identity). Every argument after "
                        + "`download` is a URL; shorthands such as `:8080/file` work. A progress bar on standard "
                        + "error shows the bytes, percent, rate and time left when standard error is a terminal "
                        + "(`--progress`). Each saved file is reported as `afcli: saved NAME (SIZE)`; with several "
                        + "URLs a failed one is reported with its URL (`afcli: error: URL: …`), the others still run, "
                        + "and a summary ends the list; the exit status is that of the first download that failed."),
                .paragraph(
                    "The file is named by `-o FILE`; else by the response's Content-Disposition (`filename*` "
                        + "first, then `filename`); else by the last segment of the URL as typed; else `index`. A "
                        + "name from the server or the URL is reduced to a plain base name: directories, path "
                        + "separators, leading dots, control characters and Unicode direction overrides are removed, "
                        + "so a download never lands outside the current directory. A name without an extension "
                        + "gets one from the Content-Type (`index.html`). An existing file is never replaced unless "
                        + "`-o` names it or `--overwrite` is given: the download is saved as NAME-1, NAME-2 and so "
                        + "on (`big-1.iso`), and a file that appears under the name while the download runs is not "
                        + "replaced either. `-o -` writes the body to standard output; one that was closed when "
                        + "afcli started is a write error (exit status 1) that says so. An `-o` that names a "
                        + "directory, or a file in a directory that does not exist (or is not one), is refused before "
                        + "anything is sent (exit status 2)."),
                .paragraph(
                    "Data goes to NAME.part, with a small state file NAME.part.state beside it (the URL, the "
                        + "bytes on disk, the ETag, Last-Modified and total length). The data is fsynced before "
                        + "the state that counts it is written, and the state is replaced atomically, so even a "
                        + "process killed with SIGKILL or a power cut leaves a state that claims no byte that is "
                        + "not on disk. When the download is complete the file is fsynced, renamed to NAME in one "
                        + "step and the state removed. The state is brought up to date a few times in the first "
                        + "second and then once a second, so a crash costs at most about a second of transfer. "
                        + "Where the file system allows it, the data goes around the page cache (O_DIRECT) and "
                        + "NAME.part is allocated ahead of the data in steps of 4 to 64 MiB, never past the "
                        + "announced length (a server that announces 20 GB and sends 5 bytes takes a few MiB): while "
                        + "a download runs the file can be longer than what it holds, and the state says how much "
                        + "that is. Ctrl-C or SIGTERM saves the state, says how much NAME.part holds and that "
                        + "`--resume` continues it, and exits with status 130. A server that stops early, a full "
                        + "disk or a failed write leave NAME.part and its state for the next `--resume`."),
                .paragraph(
                    "afcli writes, reads back and renames only regular files of your own: a symbolic link, a "
                        + "device or another user's file at NAME.part, NAME.part.state or the state's temporary file "
                        + "is never followed or written, and the download stops with exit status 1. The state file "
                        + "is created 0600 (its URL may carry a signed query string) and records the inode of "
                        + "NAME.part. A name from the network that ends like one of these working files (x.part, "
                        + "x.part.state) gets a `_` appended, so one download can never plant a partial file or a "
                        + "state for a later `--resume`."),
                .paragraph(
                    "`--resume` (`-c`) continues afcli's partial download of the URL found in the current "
                        + "directory (or the one `-o` names), and with `-o FILE` also a partial FILE written by "
                        + "another tool, from its size. It sends `Range: bytes=N-` and `If-Range` with a strong "
                        + "ETag, else Last-Modified. A 206 whose Content-Range starts at N and agrees with the "
                        + "total is appended; any other Content-Range stops with an error and leaves the file "
                        + "untouched; a 200 means the file changed or ranges are not supported, and the download "
                        + "starts again from zero with a warning (CJNetwork would append it to the partial file), "
                        + "unless its Content-Length equals the bytes already there (and its validators agree): "
                        + "then, as a 416 on a file of the full length, the file was already complete (exit status "
                        + "0). A "
                        + "Content-Range whose total differs from the state's stops with a message saying so; "
                        + "remove NAME.part to start again. A state is used only for the partial file it was "
                        + "written for and, without `-o`, only for its own URL; one that cannot be used is reported "
                        + "with the reason and what to do, and the download starts under a new name (with `-o`, "
                        + "NAME.part is continued from its size). When NAME itself is there and whole, `--resume` "
                        + "reports it as complete (exit status 0) instead of saving NAME-1, as wget -c does; a "
                        + "shorter NAME is continued, one longer than the server's file is left alone."),
                .paragraph(
                    "`--sha256 HEX` hashes the file while it is written (a resumed file's first part is read "
                        + "back from disk) and fails, without keeping the file, when the digest differs. "
                        + "`--retry N` retries transient failures (a dropped or refused connection, a timeout, "
                        + "HTTP 408, 429, 500, 502, 503, 504) up to N times, continuing from the bytes saved, "
                        + "after waits that double from `--retry-delay` (1 second) up to a minute, or the server's "
                        + "(Retry-After, a used-up rate limit's reset, as for a request). A final "
                        + "status that is not 2xx saves nothing and exits with 3, 4 or 5; `-o` naming a directory "
                        + "and `-o -` with `--resume` are usage errors (exit status 2)."),
                .paragraph(
                    "Options that would do nothing for a download are refused when typed on its command line "
                        + "(exit status 2, nothing sent): "
                        + OptionScopes.refused(by: .download).joined(separator: ", ") + "."),
            ]),
        ManualSection(
            "TLS AND PINNING",
            [
                .paragraph(
                    "afcli verifies https servers by default: the certificate chain must lead to one of the "
                        + "system's CA certificates and the certificate must name the host in the URL. The options "
                        + "below map to AFNetworking's AFSecurityPolicy:"),
                .definitions([
                    ("default policy", "Verify the chain and the host name (`--verify=yes`)."),
                    (
                        "allowInvalidCertificates",
                        "`--verify=no` (`-k`, `--insecure`), which as in curl also turns validatesDomainName off."
                    ),
                    ("validatesDomainName = NO", "`--no-verify-host`: skip only the host name check."),
                    (
                        "AFSSLPinningModePublicKey",
                        "`--pin-key sha256//BASE64`, once per accepted key; `afcli pin URL` prints the pins of a "
                            + "server's chain (it connects to make a TLS handshake, so `--offline` is refused there)."
                    ),
                    (
                        "AFSSLPinningModeCertificate",
                        "`--pin-cert FILE`, once per file of accepted certificates (PEM or DER)."
                    ),
                ]),
                .paragraph(
                    "`--verify=PATH` replaces the system's CA certificates with a bundle file or a hashed "
                        + "directory. `--cert FILE` and `--cert-key FILE` present a client certificate, "
                        + "`--tls-min 1.3` refuses older protocol versions, and `--resolve HOST:PORT:ADDRESS` "
                        + "connects to ADDRESS while keeping HOST for the server name and the certificate checks."),
                .paragraph(
                    "Key pins reach the whole chain, as in AFNetworking: the server is accepted when any "
                        + "certificate it sends, or any certificate of the verified chain up to its root, has a "
                        + "pinned key, so pinning a CA's key keeps working when the server's certificate is "
                        + "renewed. (libcurl's own pinning, which afcli uses only with a libcurl that is not built on "
                        + "OpenSSL, compares the leaf's key alone.) Pins are checked during the TLS handshake, so a "
                        + "mismatch stops the connection before any byte of the request is sent, with AFNetworking's "
                        + "message (\u{201C}The certificate for this server is invalid…\u{201D}) and exit status 10. "
                        + "With `--insecure` the chain is not verified but the pins still are, so "
                        + "`--insecure --pin-key` trusts a self-signed server by its key alone."),
                .paragraph(
                    "Certificate pins make the pinned certificates the only trusted ones: the chain must verify up "
                        + "to one of them, and one of them must be in it. This differs from AFNetworking in one way: "
                        + "AFNetworking with allowInvalidCertificates off also requires the chain to be trusted by "
                        + "the system, while afcli needs only the pins, so a pinned self-signed certificate works "
                        + "without `--insecure` (AFNetworking needs allowInvalidCertificates for that). "
                        + "`--pin-cert` cannot be combined with `--verify=PATH` or with `--pin-key`."),
                .paragraph(
                    "As AFNetworking refuses them, afcli refuses with exit status 2, before connecting: "
                        + "`--insecure --verify-host` without a pin (\u{201C}In order to validate a domain name "
                        + "for self signed certificates, you MUST use pinning\u{201D}), and any pin on a plain "
                        + "http:// URL. A redirect from a pinned https URL to plain http is refused too."),
                .paragraph(
                    "Each TLS failure is reported on one line naming the host and the reason: a certificate "
                        + "that is not trusted (unknown CA, self-signed), expired, not yet valid or for another "
                        + "host name; a failed handshake (no common protocol version or cipher); an unusable "
                        + "client certificate. They exit with status 9, pin mismatches with 10."),
            ]),
        ManualSection(
            "REACHABILITY",
            [
                .paragraph(
                    "`afcli reachability` answers AFNetworkReachabilityManager's question, \u{201C}could traffic "
                        + "reach this host, and how\u{201D}, without sending anything. Without a target it asks "
                        + "about any route off this machine (the IPv4 and IPv6 default routes). A target is a "
                        + "HOST, HOST:PORT, [IPV6]:PORT or an http(s) URL; the port (443 unless given) matters only "
                        + "to `--probe`."),
                .paragraph(
                    "The host name is resolved for every address family (`--resolve` entries apply), and for "
                        + "each address the kernel is asked which route it would take: connecting a UDP socket "
                        + "picks a route and a source address and sends no packet. The interface that owns the "
                        + "source address gives the way out, and its kind comes from /sys/class/net: wifi "
                        + "(a wireless directory), wwan (cellular or PPP), ethernet (an Ethernet link backed by "
                        + "a device), loopback, or other (bridges, veth, tunnels). The status is reachable when a "
                        + "route exists through an interface that is up and has a carrier, not-reachable "
                        + "otherwise (no route, the name does not resolve, the link is down). AFNetworking's "
                        + "status is shown beside it: ReachableViaWWAN for wwan, ReachableViaWiFi for every "
                        + "other link, as on iOS."),
                .paragraph(
                    "The answer is printed as `key: value` lines, the first one `status: reachable` or "
                        + "`status: not-reachable`, or as one JSON object with `--json`. The exit status is 0 "
                        + "when reachable and 1 when not. `--probe` also opens a TCP connection to the address a "
                        + "client would use, with a TLS handshake for port 443 or an https URL (checked with the "
                        + "TLS options above), and reports the times; this is an active probe and sends packets, "
                        + "and its failure also makes the exit status 1."),
                .paragraph(
                    "`--watch` starts from unknown, as AFNetworking does before its first answer, and prints "
                        + "one line, with a UTC time, whenever the status, the interface or the source address "
                        + "changes, until interrupted (exit status 130). It learns of changes from rtnetlink "
                        + "(links, addresses and routes, IPv4 and IPv6) and re-resolves the name every 30 seconds; "
                        + "where netlink is not available it polls every 2 seconds."),
            ]),
        ManualSection(
            "RESPONSES",
            [
                .paragraph(
                    "On a terminal the body is formatted and coloured (`--pretty=all`); into a pipe or a file it is "
                        + "written byte for byte (`--pretty=none`), unless `--pretty` asks for more: "
                        + "`--pretty=format > out.json` writes formatted JSON into a file. The format is chosen by "
                        + "media type, as AFNetworking chooses a response serializer: JSON (application/json, "
                        + "text/json, text/javascript, any +json type, NDJSON), XML (application/xml, text/xml, any "
                        + "+xml type), property lists (application/x-plist) and images. A text/plain or untyped body "
                        + "is shown as JSON when its first character is `{` or `[`."),
                .paragraph(
                    "JSON is read in one pass as it arrives, with no document tree, and indented by 4 (`--indent`). "
                        + "Keys keep the order they came in, and strings and numbers are copied exactly as received: "
                        + "`\\u00e9` and `\\/` stay as written, and 12345678901234567890 or 1.50 are not rounded. "
                        + "`--sorted` sorts keys and holds each object in memory while it is sorted (a top-level "
                        + "object whole, a top-level array one element at a time; at most 8 MiB, see the limits "
                        + "below); `--drop-nulls` removes null "
                        + "members and elements, recursively, as AFNetworking's removesKeysWithNullValues does, and "
                        + "holds only one key at a time. Memory stays flat otherwise, however large the body."),
                .paragraph(
                    "XML is parsed by libxml2 as it arrives (its push parser, on a second thread) and indented by 2. "
                        + "Elements that hold elements get one child per line; text and mixed content stay inline. "
                        + "The XML declaration is kept, with the encoding given as UTF-8, the text's encoding on "
                        + "output. A property list, XML or binary (bplist00, decoded without Foundation), is shown "
                        + "as an indented XML property list, or as JSON with `--plist-as=json`."),
                .paragraph(
                    "Invalid JSON and malformed XML never lose bytes: when nothing has been written yet the body is "
                        + "printed as received; otherwise the formatted part stays and the rest follows exactly as "
                        + "received, from the separator after the last value shown. A warning on standard error "
                        + "names the place (none under `--quiet`). A transfer that fails part-way shows what was "
                        + "formatted and then the rest of what arrived, as received."),
                .paragraph(
                    "Limits keep a small hostile body from running the formatter for minutes or filling memory; "
                        + "past each one the rest is shown as received with one warning. Nesting: 512 levels of "
                        + "JSON arrays and objects, XML elements or property-list containers (`--max-depth N` "
                        + "sets this one limit, up to 10000, for the formatters, `--jsonpath`, `??` assertions "
                        + "and references alike; the warning says `nested deeper than the limit (N levels; "
                        + "--max-depth raises it)`). XML entities: "
                        + "libxml2's own limits on entity expansion stay on (a \"billion laughs\" body is refused), "
                        + "and no external entity or DTD is ever fetched. Binary property lists, whose objects may "
                        + "share children by reference: at most 4 decoded objects per byte of the list (plus 4096) "
                        + "and 32 MiB (or 8 times the list's size) of decoded text and data. `--sorted`: an object "
                        + "larger than 8 MiB, and everything after it, is shown unsorted. Ctrl-C stops formatting "
                        + "at once (exit status 130)."),
                .paragraph(
                    "On a terminal, control characters from the server are shown, not obeyed: in headers and "
                        + "bodies, C0 controls other than tab and line feed, a carriage return not followed by a "
                        + "line feed, DEL and the C1 controls U+0080 to U+009F appear as `\\xHH` (`\\x1b`, "
                        + "`\\x07`), so a response cannot retitle the window or clear the screen. Pipes and files "
                        + "get the bytes unchanged. The same holds for the `--log=cj` block on a terminal (a "
                        + "`--log-file` keeps the bytes), and each `afcli: error:`, `warning:` or `note:` line stays "
                        + "one line whatever it quotes (a reason phrase, an envelope message): a line feed in it is "
                        + "written `\\n`."),
                .paragraph(
                    "On a terminal, an image is replaced by one line with its format, dimensions (from the PNG, "
                        + "JPEG, GIF, BMP, ICO, TIFF or WebP header) and size, and other binary bodies (a binary "
                        + "media type, or a NUL byte in text) by a notice, as HTTPie does; a pipe or file gets the "
                        + "bytes. Text in another charset (`Content-Type: text/plain; charset=GBK`) is converted to "
                        + "UTF-8 for a terminal only. `--stream` writes the body as it arrives and formats JSON one "
                        + "value per line; server-sent events and JSON lines are streamed on their own (see "
                        + "STREAMING RESPONSES)."),
            ]),
        ManualSection(
            "JSONPATH",
            [
                .paragraph(
                    "`--jsonpath QUERY` prints only what an RFC 9535 JSONPath query selects from a JSON response "
                        + "body: each match as compact JSON on a line of its own, coloured on a terminal, without the "
                        + "response head unless `--print` asks for it. Each value of an NDJSON or JSON-sequence body is "
                        + "queried on its own. The whole RFC is supported: names, `*`, indexes and slices, `..`, filters "
                        + "with comparisons, `&&`, `||`, `!`, existence tests and the functions `length`, `count`, "
                        + "`value`, `match` and `search`, whose patterns are RFC 9485 I-Regexps run by a lazily built "
                        + "DFA (no backtracking). A pattern written in the query with a repetition count over 1000, or "
                        + "that expands to more than 20000 instructions, is refused with the query (exit status 2); "
                        + "the matcher's work counts in the query's evaluation steps, and Ctrl-C stops it. "
                        + "afcli passes all 703 cases of the RFC 9535 compliance test suite."),
                .paragraph(
                    "The body is read as it arrives: parts the query cannot select are skipped, a match that ends "
                        + "the query is copied out as it arrives, and only a node a filter tests is held, so memory "
                        + "stays flat however large the body. A query that needs an array's length or the whole "
                        + "document (a negative index, a slice with a negative bound or step, several selectors in "
                        + "one bracket, `$` inside a filter) holds each top-level value instead, up to 16 MiB (exit "
                        + "status 12 beyond). With `..`, matches come in document order. A query that does not parse "
                        + "exits with 2 before anything is sent, naming the character and what is wrong there; a "
                        + "body that is not JSON, or not valid JSON, exits with 11 after the matches found before it. "
                        + "A body nested deeper than the limit (512 levels, or `--max-depth N`) exits with 12, "
                        + "whatever the query: `the body is nested deeper than the limit (512 levels; --max-depth "
                        + "raises it) at offset N`. A query may be at most 8192 characters long and nest 64 levels; "
                        + "inside a held node, a nodelist holds at most 1,000,000 nodes and an evaluation takes at "
                        + "most 50,000,000 steps."),
            ]),
        ManualSection(
            "VALIDATION AND THE REQUEST LOG",
            [
                .paragraph(
                    "`--accept-status` and `--accept-type` validate the final response as AFNetworking's response "
                        + "serializers do: the status code must be in the list (200-299 by default), and a non-empty "
                        + "body must have one of the media types, compared without parameters. A failure prints "
                        + "AFNetworking's message on standard error after the body, such as "
                        + "`Request failed: not found (404)` or `Request failed: unacceptable content-type: "
                        + "text/html`; when both fail, the status comes first and the content type under it. A status "
                        + "refused by the codes `--accept-status` gave is named with them (`Request failed: status 200 "
                        + "is not one of --accept-status 201`), since AFNetworking's text for a refused 200, "
                        + "`no error (200)`, would read as a success. The exit "
                        + "status is 3, 4 or 5 for a 3xx, 4xx or 5xx status and 11 otherwise."),
                .paragraph(
                    "`--log=cj` writes CJNetwork's log block for the request to standard error (`--log-file` "
                        + "appends it to a file, created 0600 and never through a symbolic link; `--log-file -` "
                        + "writes it to standard output, refused while standard output carries the response, so "
                        + "give `-o FILE` or `--quiet`), byte for byte "
                        + "with its Chinese labels: the address without the query items (and with a password in the "
                        + "URL shown as user:***, a user name alone as ***); the original parameters as compact JSON (query items first, then data "
                        + "fields), or (null); the final parameters, the body sent when it was built in memory as "
                        + "UTF-8 text, else CJNetwork's fallback text; and the result, the response as compact JSON, "
                        + "or CJNetwork's text for the failure (its own text for no response at all, for 400, 401, "
                        + "403, 404 and 500 to 504, and for anything else). A response fails when its status is "
                        + "outside 200-299 or the validation options reject it."),
            ]),
    ]
}

/// A top-level section of the manual (`.SH` in roff).
package struct ManualSection: Sendable {
    /// The heading, in capitals.
    package let title: String
    /// The content, in order.
    package let blocks: [ManualBlock]

    package init(_ title: String, _ blocks: [ManualBlock]) {
        self.title = title
        self.blocks = blocks
    }
}

/// One piece of a manual section.
package enum ManualBlock: Sendable {
    /// A paragraph of prose, with `literal` spans.
    case paragraph(String)
    /// A list of terms (shown literally) and their explanations.
    case definitions([(term: String, text: String)])
    /// A caption and the lines of an example (a shell command, continued with a backslash, with
    /// its output, or a file it reads), split at `\n`; an empty line is kept.
    case example(String, String)
    /// The generated option list, grouped.
    case options
    /// The generated exit status table.
    case exitStatuses
}

/// A run of manual prose, either plain or `literal`.
package struct InlineSpan: Equatable, Sendable {
    /// The text without backticks.
    package let text: String
    /// Whether the text was between backticks.
    package let isLiteral: Bool

    /// Splits prose at backticks; odd-numbered pieces are literal.
    package static func parse(_ prose: String) -> [InlineSpan] {
        prose.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { index, piece in
            piece.isEmpty ? nil : InlineSpan(text: String(piece), isLiteral: index % 2 == 1)
        }
    }

    /// The prose with the backticks removed, for plain text.
    package static func plain(_ prose: String) -> String {
        parse(prose).map(\.text).joined()
    }
}
