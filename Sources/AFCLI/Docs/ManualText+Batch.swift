extension ManualText {
    /// What `afcli run` reads: the `.http` file grammar and the command lines of `afcli run -`.
    /// Kept apart so that the section on running batches can place it.
    static let batchInputSections: [ManualSection] = [
        ManualSection(
            "REQUEST FILES (.HTTP)",
            [
                .paragraph(
                    "`afcli run FILE` reads the requests of a JetBrains HTTP Client or VS Code REST Client file; "
                        + "FILE may be a pipe or a device (`afcli run <(envsubst < api.http)`, `/dev/stdin`), read "
                        + "once; a terminal is refused (exit status 2), as no file is waiting there. The whole file (at most 16 MiB, 100000 requests and 1000 headers a request) is read "
                        + "and checked first, and every request is built once (variables substituted, headers "
                        + "checked, `< PATH` files opened), so a mistake in any request stops the run before anything "
                        + "is sent, with `afcli: error: FILE:LINE: …` and exit status 2. Requests are separated by a line starting with `###`; the text after it names the "
                        + "request. Before the request line, lines starting with `#` or `//` are comments, and "
                        + "`@NAME = VALUE` defines a file variable. The request line is `[METHOD] URL [HTTP/VERSION]` "
                        + "(GET when the method is left out; the version is ignored); lines after it that start with "
                        + "white space continue the URL (`    ?page=2`, `    &size=10`). `Name: value` headers follow, "
                        + "then a blank line and the body, which runs to the next `###` (blank lines before and after "
                        + "it are dropped). A body line `< PATH` inserts the file PATH, relative to the .http file (to "
                        + "the working directory when FILE is a pipe), streamed from disk when the request is sent; "
                        + "with `--ignore-stdin`, a PATH that is standard input (`< /dev/stdin`, `< /dev/fd/0`) is "
                        + "refused before anything is sent. A body line `<@ PATH` inserts the text of PATH with its "
                        + "variables substituted, read whole (at most 16 MiB, a regular file) when the request is "
                        + "built; `<@latin1 PATH` (also `binary`, `ascii`, `utf16le`, `ucs2`; `utf8` is the default) "
                        + "names its encoding, as REST Client does. Files are read only under the file root, as "
                        + "Hurl bounds them: the .http file's own directory (the working directory when FILE is a "
                        + "pipe or a device), or `--file-root DIR`; a `< PATH`, `<@ PATH`, `.env` or environment file outside it, once "
                        + "`..` and symbolic links are resolved, is refused with its line before anything is sent "
                        + "(`< /dev/stdin` is standard input, no file, and is not bounded). A "
                        + "URL starting with `/` takes its host from a `Host:` header (which may name the scheme, "
                        + "`Host: https://example.com`), and `OPTIONS *` is sent as `OPTIONS *` to the server that "
                        + "header or `--base-url` names; its report's `url` is that server's origin with no path "
                        + "(`http://host:port`, the target URI RFC 9110 gives `*`), never `…/` or `…/*`, which are "
                        + "requests for the paths `/` and `/*`."),
                .paragraph(
                    "Headers and the body are sent as written: afcli adds no Content-Type (write one), its "
                        + "User-Agent, Accept (`*/*`), Accept-Encoding and Accept-Language unless the file writes "
                        + "them, and Authorization from `--auth`. Body lines are joined with LF, or CRLF when the "
                        + "Content-Type is multipart. With an `application/x-www-form-urlencoded` Content-Type, a body "
                        + "line starting with `&` continues the line before it (`name=foo` then `&password=bar` sends "
                        + "`name=foo&password=bar`; values go as written, `{{%name}}` percent-encodes one). "
                        + "`Authorization: Basic USER:PASSWORD` and `Authorization: Basic USER PASSWORD` are sent "
                        + "base64-encoded (a header already encoded goes as written), and `Authorization: Digest USER "
                        + "PASSWORD` is HTTP Digest, negotiated as `-A digest` does; either wins over `--auth`. "
                        + "`Authorization: AWS ACCESS_KEY SECRET_KEY [token:SESSION_TOKEN] [region:REGION] "
                        + "[service:SERVICE]` signs the request with AWS Signature Version 4 as `--aws-sigv4` does (last, "
                        + "over the headers and body sent; the region and service read from an AWS host name when not "
                        + "given), with these keys and in place of the run's `--aws-sigv4`. What needs a sign-in to a "
                        + "cloud account is refused with its line before anything is sent: `Authorization: COGNITO …` "
                        + "(AWS Cognito), `{{$aadToken}}`, `{{$aadV2Token}}` (Azure AD) and `{{$oidcAccessToken}}`. A request "
                        + "with the header `X-Request-Type: GraphQL` is a GraphQL request: its body is the query, then "
                        + "after a blank line an optional JSON object of variables, sent as "
                        + "`{\"query\":…,\"operationName\":…,\"variables\":…}` (the operation name when the query names "
                        + "one, `{}` for no variables) with `Content-Type: application/json` unless the file writes "
                        + "one; the X-Request-Type header is not sent, as REST Client removes it. Whatever the file does not say comes from the options of "
                        + "`afcli run` (`--follow`, `--verify`, `--timeout`, `--base-url`, `--compress`…), and "
                        + "`--encrypt-cmd` encrypts every body (its Content-Type becomes the encrypted type). The "
                        + "options that make a body from items or set the method (`--json`, `--form`, `--multipart`, "
                        + "`--plist`, `--raw`, `--boundary`, `--method`) are refused with a .http file, which writes "
                        + "each request's method and body itself, and so is `--simulate`: the file's URLs are its "
                        + "own (`--base-url` joins the paths it writes)."),
                .definitions([
                    (
                        term: "# @name NAME",
                        text:
                            "Names the request (wins over the text after `###`). Unnamed requests are `request-N`, N counting from 1 in file order."
                    ),
                    (term: "# @no-redirect", text: "Does not follow redirects, even with `--follow`."),
                    (
                        term: "# @timeout N",
                        text: "The idle timeout (`--timeout`) of this request; N in seconds, or `N ms`, `N s`, `N m`."
                    ),
                    (
                        term: "# @connection-timeout N",
                        text: "The connection timeout (`--connect-timeout`) of this request."
                    ),
                    (
                        term: "# @first",
                        text: "Makes the request a keeper: it completes before any other request starts."
                    ),
                    (
                        term: "# @no-cookie-jar",
                        text: "Keeps the request out of the run's cookie engine: it neither sends the run's cookies "
                            + "nor stores those its responses set."
                    ),
                    (
                        term: "# @prompt NAME [DESCRIPTION]",
                        text: "REST Client's prompt variable: `{{NAME}}` of this request is asked when the file is "
                            + "read, before anything is sent, on the terminal (`afcli: NAME (DESCRIPTION): `, with echo "
                            + "off for a name that looks secret: one holding pass, pwd, secret, token, key, otp or "
                            + "credential), once for every request that prompts for it, and holds over every other "
                            + "value of NAME for these requests alone. `--variable NAME=VALUE` answers it without "
                            + "asking; with no terminal to ask on, the prompts left unanswered are named in an error "
                            + "(exit status 2)."
                    ),
                ]),
                .paragraph(
                    "`{{NAME}}` in the URL, headers, body and `< PATH` is replaced by the value `--variable "
                        + "NAME=VALUE` gives, else by the file variable NAME, else "
                        + "by NAME of the environment `--env ENV` picks from `http-client.env.json` and "
                        + "`http-client.private.env.json` beside the file (without `--env`, `$AFCLI_ENV` picks it when "
                        + "those files exist; the private file's values win over the "
                        + "public file's, and the environment `$shared` gives every environment its values, under the "
                        + "environment's own). Values may refer to other variables, up to 16 levels deep, 16 MiB of "
                        + "text and 100000 references in one text. A variable defined nowhere is an error at the line that uses it; an unknown `--env` "
                        + "is an error listing the known environments. `{{%NAME}}` is the value of NAME "
                        + "percent-encoded (every byte but letters, digits and `-_.!~*'()`). The system variables take "
                        + "a new value for every request: `{{$uuid}}` (also `$random.uuid`, `$guid`); `{{$timestamp}}` "
                        + "(seconds since the epoch); `{{$isoTimestamp}}`; `{{$datetime FORMAT}}` in UTC and "
                        + "`{{$localDatetime FORMAT}}` in the local zone (`TZ`), FORMAT being `rfc1123`, `iso8601` or "
                        + "a quoted Day.js format (`'YYYY-MM-DD'`: YY YYYY M MM MMM MMMM D DD d dd ddd dddd H HH h hh m "
                        + "mm s ss SSS A a Z ZZ, `[text]` literal); `$timestamp`, `$datetime` and `$localDatetime` "
                        + "take an offset after them, a whole number and a unit of y, Q, M, w, d, h, m, s, ms "
                        + "(`{{$datetime iso8601 -1 d}}`); `{{$randomInt}}` and `{{$random.integer}}` (0 to 999; "
                        + "`{{$randomInt MIN MAX}}`, `{{$random.integer(MIN, MAX)}}`: MIN included, MAX not); "
                        + "`{{$random.float(FROM, TO)}}` (0 to 1000 without them); `{{$random.alphabetic(N)}}`, "
                        + "`{{$random.alphanumeric(N)}}` (letters, digits, `_`), `{{$random.hexadecimal(N)}}`; "
                        + "`{{$random.email}}` (an address at example.com); `{{$processEnv NAME}}` (afcli's own "
                        + "environment, read only for the names `--allow-env NAME` allows, exact or a glob such as "
                        + "`API_*`: a file someone else wrote reads no secret of yours by default, and a name not "
                        + "allowed is refused with its line, naming the option; unset is an error) and "
                        + "`{{$dotenv NAME}}` (the `.env` file beside the .http file, which the file root bounds); with `%NAME` these look up the name that the --env variable NAME holds (NAME itself when "
                        + "there is none). Other `$` "
                        + "variables are refused, naming them. Spaces inside the braces are allowed, on the request line too "
                        + "(`GET {{ host }}/users/{{ id }}`)."),
                .paragraph(
                    "afcli runs no JavaScript. A response handler (`> {% … %}`, `> script.js`) and a response "
                        + "redirect (`>> FILE`, use `--output-dir`) only act on the response, so they are skipped, "
                        + "each with a warning naming its line, and the request is still sent. A pre-request script "
                        + "(`< {% … %}`) would change the request, so it is refused. A response "
                        + "reference (`<> previous-response.json`, after the body or a handler) changes nothing that "
                        + "is sent and is skipped. Other "
                        + "directives (`# @no-log`) are ignored with a warning. A request line whose method names another "
                        + "protocol (httpyac's `SSE`, `WS`, `MQTT`, `AMQP`, `KAFKA`, `GRPC`; JetBrains' `WEBSOCKET` and "
                        + "`GRAPHQL`) is refused with its line, never sent as an HTTP method. Values from an "
                        + "earlier request (REST Client's request variables) are described below."),
                .example(
                    "A file, api.http, with a variable, a keeper that logs in, a request continued on indented lines, and a body from a file:",
                    "@api = http://127.0.0.1:8080\n"
                        + "\n"
                        + "### Log in\n"
                        + "# @first\n"
                        + "# @name login\n"
                        + "POST {{api}}/login\n"
                        + "Content-Type: application/json\n"
                        + "\n"
                        + "{\"user\": \"ann\", \"password\": \"{{password}}\"}\n"
                        + "\n"
                        + "### List users, page 2\n"
                        + "# @timeout 5\n"
                        + "GET {{api}}/users\n"
                        + "    ?page=2\n"
                        + "    &size=50\n"
                        + "Authorization: Bearer {{login.response.body.$.token}}\n"
                        + "\n"
                        + "###\n"
                        + "POST {{api}}/upload\n"
                        + "Content-Type: application/octet-stream\n"
                        + "\n"
                        + "< ./photo.jpg"),
                .example(
                    "Run it with {{password}} from the dev environment of http-client.env.json (or http-client.private.env.json) beside it:",
                    "afcli run api.http --env dev"),
            ]),
        ManualSection(
            "VALUES FROM EARLIER RESPONSES",
            [
                .paragraph(
                    "`{{NAME.response.body.PATH}}`, `{{NAME.response.headers.FIELD}}`, `{{NAME.request.body.PATH}}` "
                        + "and `{{NAME.request.headers.FIELD}}` take a value from the exchange of the earlier request "
                        + "named NAME (`# @name NAME` in a `.http` file or before a line of `afcli run -`), in the URL, headers and body, and in file variables "
                        + "(`@token = {{login.response.body.$.token}}`). PATH is a JSONPath (`$.token`: a string's "
                        + "text, other JSON compact), an XPath (`//item[1]/title`: the first node's string value) or "
                        + "`*` (the whole body, up to 16 MiB). A request that takes a value waits until NAME has "
                        + "ended; requests that take none still run in parallel under `--parallel`. NAME must be "
                        + "written before the request that refers to it (else the source is refused, exit status 2). "
                        + "Any response NAME received serves, a failed one too (a 500's body may name the incident a "
                        + "later request reports). When NAME got no response (its transfer failed, or it did not "
                        + "run), or the path selects nothing, the request that needed the value fails alone with a "
                        + "message naming both (and NAME's status when it was a failure), and is not sent (exit "
                        + "status 2); its line names the method and URL as written. Before the run, such a "
                        + "request is checked only up to which earlier request it names; it is built whole, and a "
                        + "mistake of its own found, when its turn comes.")
            ]),
        ManualSection(
            "REQUESTS ON STANDARD INPUT",
            [
                .paragraph(
                    "`afcli run -` reads one request per line of standard input, written as afcli's own command "
                        + "line after the program name: `[METHOD] URL [ITEM…] [OPTION…]`. A line is split into words as "
                        + "a shell would split it, with single quotes, double quotes and backslashes, but nothing is "
                        + "expanded (`$HOME`, `~` and `*` stay as written). Blank lines are skipped, and so is "
                        + "everything from a `#` that starts a word, and a UTF-8 byte order mark before the first "
                        + "line. Standard input that is a terminal is refused (exit status 2): pipe the lines in. A line's options apply over the options given "
                        + "to `afcli run` for that request only. The comment lines `# @name NAME`, `# @first` and "
                        + "`# @no-cookie-jar` name the next request, make it a keeper or keep it out of the run's "
                        + "cookies (no option does that last); an unnamed request is `line-N`, N being its line."),
                .paragraph(
                    "Options that belong to the whole run are refused on a line, naming it (`afcli: error: "
                        + "stdin:3: --offline applies to the whole run…`, exit status 2): the output options "
                        + "(`--print`, `--verbose`, `--output`, `--pretty`…), `--offline`, `--curl`, `--env`, "
                        + "`--session`, `--cookie-jar` (one cookie engine serves the whole run), `--help` and the "
                        + "options of `afcli run` itself. Standard "
                        + "input carries the requests, so a line cannot use it as a body (`@-`). Every line is read "
                        + "and its words, options, METHOD, URL and the syntax of its items checked before the "
                        + "first request is sent (a line without a URL, with a URL or an item that is none, is "
                        + "`stdin:LINE: …`, exit status 2); a line may be at "
                        + "most 64 KiB and must be UTF-8, and a run takes at most 100000 lines with requests. "
                        + "Items are read, and files named by items opened, only when the line's request is sent."),
                .example(
                    "Lines with their own items and options:",
                    "printf 'get :8080/u/1\\npost :8080/u name=ann --form\\n' | afcli run -"),
            ]),
    ]
}
