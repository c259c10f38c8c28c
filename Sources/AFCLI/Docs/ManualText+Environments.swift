extension ManualText {
    /// The config file and its environments: default options, base URLs, common parameters and
    /// headers, simulation and local answers, and the `env` and `config` commands.
    static let environmentSections: [ManualSection] = [
        ManualSection(
            "CONFIG FILE AND ENVIRONMENTS",
            [
                .paragraph(
                    "afcli reads CONFIG/config.json, with CONFIG $AFCLI_CONFIG_DIR, else $XDG_CONFIG_HOME/afcli, "
                        + "else ~/.config/afcli (the directory sessions live in; `afcli config path` prints it). A "
                        + "missing file is fine. `--no-config`, anywhere on the command line, skips it. The file is "
                        + "a JSON object of at most 1 MiB with two keys, `default_options` and `environments`:"),
                .example(
                    "A config with two environments:",
                    "{\"default_options\": [\"--follow\"],\n"
                        + " \"environments\": {\n"
                        + "   \"dev\": {\"base_url\": \"http://127.0.0.1:8080/api/\",\n"
                        + "           \"params\": {\"appVersion\": \"1200\", \"imei\": \"x\"},\n"
                        + "           \"headers\": {\"X-Client\": \"afcli\"},\n"
                        + "           \"simulate_domain\": \"http://127.0.0.1:9000/mock/\",\n"
                        + "           \"local_dir\": \"./mocks\"},\n"
                        + "   \"prod\": {\"base_url\": \"https://api.example.com/v2/\"}}}"),
                .paragraph(
                    "`default_options` are put before the command line and read by the same parser, so a later "
                        + "option wins and `--no-X` undoes one (`--no-follow`, `--no-env`). A default option applies "
                        + "to the commands it means something for and is passed over by the others (`--pretty=all` "
                        + "by `afcli run`), where the same option typed on the command line is refused. A setting "
                        + "that an option and the environment can both give (the cache mode, cache_ttl and namespace, "
                        + "the encryption commands, the envelope's status lists) comes from the option typed, else "
                        + "from `default_options`, else from the environment, else afcli's default. A default "
                        + "option afcli "
                        + "refuses, or a word that is no option, is an error naming the file. A file that is not "
                        + "JSON is an error naming the file, line and column; a value of the wrong kind names its "
                        + "key; both exit with status 2 before anything is sent. A key afcli does not know gives a "
                        + "warning. A file that group or others may read and that holds an Authorization (or other "
                        + "secret-looking) header, a `password` or `token` parameter, a base URL or simulated domain "
                        + "with a password (`user:PASSWORD@`) or an encryption command gives one warning per run. "
                        + "`--help`, "
                        + "`--version`, `help`, `man`, `completions` and `config path` work even with a broken file."),
                .paragraph(
                    "`--env NAME` (else $AFCLI_ENV) picks an environment; an unknown NAME is an error listing "
                        + "the known ones. Its fields: `base_url`; `params`, the common parameters (strings are "
                        + "sent as typed with `=`, other JSON values as with `:=`); `headers`, the common headers; "
                        + "`envelope` (`status`, `message`, `result`, `success`, `common_failure`), `encrypt` and "
                        + "`decrypt` for the response envelope and the encryption commands; `simulate_domain` and "
                        + "`local_dir` for `--simulate` and `--local`; `cache` (a --cache mode), `cache_ttl` (a "
                        + "--cache-ttl duration) and `cache_namespace` for the response cache. `local_dir` is relative to the config file's directory (`~/` is the "
                        + "home directory), so the same config works from any working directory."),
                .paragraph(
                    "A relative URL (`/users`, `users?page=2`) is joined to `base_url` with exactly one `/` "
                        + "between them; the base's query is kept and the URL's follows it. Only characters that "
                        + "cannot appear in a URL are percent-encoded, so `%20` stays `%20`; `.` and `..` segments "
                        + "are then removed, as libcurl would (`..` may climb above the base's path). An absolute "
                        + "URL (`https://…`, `:8080/x`) ignores the base. `--base-url`, given on the command line "
                        + "or in `default_options`, replaces the environment's base and keeps its own RFC 3986 "
                        + "rules (`/x` goes to the base's root). To reach another host with an environment, write "
                        + "the URL with its scheme."),
                .paragraph(
                    "Common parameters and headers are merged into every request, and the request's own win: a "
                        + "data field, `==` item or URL query parameter of the same name drops the common "
                        + "parameter, a header item of the same name (even `Name:`, which removes it) drops the "
                        + "common header, and `--auth` drops a common Authorization. Parameters go where the "
                        + "request's own would: into the query for GET, HEAD and DELETE (after the URL's query, "
                        + "before `==` items), into the JSON, form or property-list body otherwise, and into a "
                        + "multipart upload as form fields before the files (CJNetwork skips uploads; afcli does "
                        + "not). A raw body (`--raw`, `@file`, standard input) is sent as it is and the common "
                        + "parameters go into the query. `afcli download` uses the base URL and the common headers. "
                        + "`--offline` prints the request with all of this applied."),
                .paragraph(
                    "`--simulate` sends the request to the environment's `simulate_domain` (default "
                        + "http://localhost/), `--simulate=URL` to URL, joined with the same rules, with the same "
                        + "parameters, headers and checks as a real request. An absolute request URL is refused "
                        + "with `--simulate`, so that a request meant for a mock never reaches a real server."),
                .paragraph(
                    "`--local` answers from `local_dir` with no network at all. The URL's path as typed, without "
                        + "its leading `/` and with every `/` written `:`, names the file: `/api/card/list` reads "
                        + "api:card:list, else api:card:list.json. It is answered as `200 OK` with a Content-Type "
                        + "from its extension, else from its first bytes (JSON, UTF-8 text or binary). A missing "
                        + "file answers CJNetwork's JSON message (`status` \"0\", a `message` naming the path "
                        + "without its leading `/`, an empty `result`) with exit status 0 and a warning on stderr. A path with a `.` or `..` segment, and an "
                        + "answer file that is a symbolic link or not a regular file, are refused with exit status "
                        + "2, so nothing outside `local_dir` is read. `-v` shows the request as it would have "
                        + "gone out."),
                .paragraph(
                    "`afcli env` lists the environments, one per line: the name and the base URL. `afcli env "
                        + "show NAME` prints one environment, with Authorization, Cookie and token-looking header "
                        + "values, parameters named like secrets (password, token, key…) and the passwords in "
                        + "encryption commands (`pass:…`, `-k`, `-K`) shown as <redacted>, and the user information "
                        + "of base_url and simulate_domain as the request log shows it (`user:***@`), unless "
                        + "`--show-secrets` is given. `afcli config path` prints the config "
                        + "file's path, with a note on stderr when it does not exist."),
            ])
    ]
}
