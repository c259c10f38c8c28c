import AFKit

/// `afcli run`: the options that shape a batch of requests (how many at once, which first,
/// whether to go on after a failure, where bodies go). Every other option applies to each request.
extension OptionTable {
    static let batch: [OptionSpec] = [
        OptionSpec(
            long: "parallel", scope: .run, valueName: "N", group: .general,
            help: "run: send up to N requests at once (1)",
            description: "For afcli run: keep up to N requests in flight at once, on libcurl's multi interface "
                + "(connections are reused, HTTP/2 requests share a connection), every transfer driven from one "
                + "thread, as curl -Z drives its. The default, 1, sends the "
                + "requests one after the other in the order written. N is cut, with a warning, to what the "
                + "open-file limit (ulimit -n) allows: three files a request, four with --output-dir.",
            apply: { values, text in values.run.parallel = try OptionValueParser.positiveInteger(text ?? "") },
            reset: { $0.run.parallel = nil }),
        OptionSpec(
            long: "first", scope: .run, valueName: "NAME", group: .general,
            help: "run: finish request NAME before others",
            description: "For afcli run: make the request named NAME a keeper, like # @first in the file: every "
                + "keeper completes before any other request starts. Repeatable.",
            apply: { values, text in
                values.run.firstNames.append(try OptionValueParser.nonEmpty(text ?? "", what: "a request name"))
            },
            reset: { $0.run.firstNames = [] }),
        OptionSpec(
            long: "keep-going", scope: .run, group: .general, help: "run: go on after a request fails",
            description: "For afcli run: start the remaining requests after one has failed. Without it, the first "
                + "failure stops new requests from starting (those in flight finish).",
            apply: { values, _ in values.run.keepGoing = true },
            reset: { $0.run.keepGoing = false }),
        OptionSpec(
            long: "output-dir", scope: .run, valueName: "DIR", group: .general,
            help: "run: save each body as DIR/NAME.body",
            description: "For afcli run: save each final response body as NAME.body in DIR (created, mode 0700, if "
                + "missing). Names are made safe (characters other than letters, digits, dot, dash and underscore "
                + "become _) and unique (-2, -3…); files are created 0600 when the body begins, replaced if they "
                + "exist, and never written through a symbolic link; a request whose decryption fails writes "
                + "none. Without it, bodies are counted and discarded.",
            completion: .file,
            apply: { values, text in
                values.run.outputDirectory = try OptionValueParser.nonEmpty(text ?? "", what: "a directory")
            },
            reset: { $0.run.outputDirectory = nil }),
        OptionSpec(
            long: "test", scope: .run, group: .general, help: "run: a PASS/FAIL line per request, a summary",
            description: "For afcli run: run the requests as tests. Standard output gets one line per request (PASS "
                + "or FAIL, its name, method, URL, status, size and time, and under a failure what failed: each "
                + "assertion that did not hold with its actual value) and a summary; every request runs even "
                + "after a failure (--keep-going is implied). The exit status is the first failure's, as without "
                + "--test. On a terminal a plain afcli run shows the same lines; in a pipe or a file it writes "
                + "NDJSON unless --test is given.",
            apply: { values, _ in values.run.testMode = true },
            reset: { $0.run.testMode = false }),
        OptionSpec(
            long: "report", scope: .run, valueName: "FORMAT=FILE", group: .general,
            help: "run: write a junit|tap|json|har report",
            description: "For afcli run: write a report of the run to FILE when it ends, besides what standard "
                + "output gets. FORMAT is junit (JUnit XML as Jenkins, GitLab and GitHub test reporters read it: "
                + "a test case per request, a failure with the failed assertions, the request's curl command line "
                + "and its timings), tap (TAP version 13, which prove reads), json (every request's NDJSON record "
                + "in one document, with a summary) or har (HAR 1.2, with afcli's per-phase times, which a "
                + "browser's network panel opens). Repeatable; the file is created 0600 (a HAR file holds "
                + "headers) and replaced if it exists, never through a symbolic link. /dev/stderr and /dev/fd/N "
                + "write to that descriptor; - and /dev/stdout are refused (standard output carries the run's "
                + "lines), and so is FILE when it is the source, the --log-file, where standard output goes or "
                + "another report's file, however spelled.",
            completion: .file,
            apply: { values, text in values.run.reports.append(try RunReportRequest(parsing: text ?? "")) },
            reset: { $0.run.reports = [] }),
        OptionSpec(
            long: "retry-interval", scope: .run, valueName: "DURATION", group: .general,
            help: "run: wait between # @retry tries (1 s)",
            description: "For afcli run: how long to wait before sending again a request whose assertions failed "
                + "(# @retry N in a .http file, or --retry N for every request with assertions), as Hurl's "
                + "--retry-interval: seconds (0.5), or N ms, N s, N m. The default is 1 second.",
            apply: { values, text in
                guard let seconds = HTTPFileParser.duration(text ?? "") else {
                    throw OptionValueError("is not a duration (0.5, 500 ms, 2 s, 1 m)")
                }
                values.run.retryInterval = seconds
            },
            reset: { $0.run.retryInterval = 1 }),
        OptionSpec(
            long: "variable", scope: .run, valueName: "NAME=VALUE", group: .general,
            help: "run: set a .http file's variable NAME",
            description: "For afcli run with a .http file: give {{NAME}} the value VALUE in every request, over "
                + "the file's @NAME and the --env environment's, and answer # @prompt NAME with it, so that "
                + "nothing is asked. Repeatable; a later one of the same name wins.",
            apply: { values, text in
                let text = text ?? ""
                guard let equals = text.firstIndex(of: "="),
                    HTTPFileVariables.isValidName(String(text[..<equals]))
                else { throw OptionValueError("is not NAME=VALUE with a variable name (letters, digits, _ . -)") }
                values.run.variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            },
            reset: { $0.run.variables = [:] }),
        OptionSpec(
            long: "file-root", scope: .run, valueName: "DIR", group: .general,
            help: "run: read .http files only under DIR",
            description: "For afcli run with a .http file: the directory whose files the file may read (< PATH, "
                + "<@ PATH, the .env of {{$dotenv}}, the http-client.env.json files), as Hurl's --file-root. The default is the .http file's own "
                + "directory (the working directory for a file read from a pipe or a device). A path outside it, "
                + "after .. and symbolic links are resolved, is refused with its line before anything is sent.",
            completion: .file,
            apply: { values, text in
                values.run.fileRoot = try OptionValueParser.nonEmpty(text ?? "", what: "a directory")
            },
            reset: { $0.run.fileRoot = nil }),
        OptionSpec(
            long: "allow-env", scope: .run, valueName: "NAME", group: .general,
            help: "run: let a .http file read env variable NAME",
            description: "For afcli run with a .http file: let {{$processEnv NAME}} read the environment variable "
                + "NAME. Without it a .http file reads no environment variable: one that asks is refused with its "
                + "line before anything is sent. NAME may be a glob pattern (API_*, with * and ?; quote it for the "
                + "shell). Repeatable. ({{$dotenv NAME}} reads the .env file beside the .http file, which "
                + "--file-root bounds.)",
            apply: { values, text in
                let name = text ?? ""
                guard HTTPFileAccess.isValidPattern(name) else {
                    throw OptionValueError("is not an environment variable name or pattern (letters, digits, _, * and ?)")
                }
                values.run.allowedEnvironment.append(name)
            },
            reset: { $0.run.allowedEnvironment = [] }),
    ]
}
