extension ManualText {
    /// The option list, exit statuses, environment, files and examples.
    static let referenceSections: [ManualSection] = [
        ManualSection(
            "OPTIONS",
            [
                .paragraph(
                    "Options may appear anywhere on the command line, and `--` ends them. A value follows its "
                        + "option as `--timeout 5`, `--timeout=5`, `-o out.json` or `-oout.json`; flags combine, as in "
                        + "`-vF`. When an option is repeated the last one wins, and every option has a `--no-X` "
                        + "form that makes it as if the option had not been given (`--no-check-status` turns the "
                        + "status check off). An option typed for a command it would do nothing for is refused "
                        + "with exit status 2 before anything is sent (`afcli run - --pretty=all`, `afcli pin URL "
                        + "--follow`); the same option among the config's default_options is passed over there. An "
                        + "unknown option is answered with the closest known one, and an HTTPie or curl spelling "
                        + "afcli does not take with afcli's own (`-L` is `--follow`, `--download` is `afcli download "
                        + "URL`)."),
                .options,
            ]),
        ManualSection(
            "EXIT STATUS",
            [
                .paragraph("afcli exits with one of these statuses:"),
                .exitStatuses,
            ]),
        ManualSection(
            "ENVIRONMENT",
            [
                .definitions([
                    (
                        "NO_COLOR",
                        "When set and not empty, output is not coloured unless `--pretty=all` or `--pretty=colors` "
                            + "asks for colour (a command-line option wins, as no-color.org says)."
                    ),
                    (
                        "FORCE_COLOR, CLICOLOR_FORCE",
                        "When either is set, not empty and not `0`, output that is not a terminal (a pipe, a file, "
                            + "a CI log) is coloured too, its layout left alone as with `--pretty=colors`, and a "
                            + "terminal with TERM=dumb is coloured. `NO_COLOR` outranks them, and an explicit "
                            + "`--pretty` outranks everything."
                    ),
                    ("TERM", "When `dumb`, output is not coloured unless FORCE_COLOR or CLICOLOR_FORCE asks."),
                    (
                        "http_proxy, https_proxy, all_proxy, no_proxy",
                        "The proxy for http, https or all URLs, and the hosts reached without one, as libcurl reads "
                            + "them: http_proxy only in lower case (a CGI program gets a request's Proxy header as "
                            + "HTTP_PROXY, so libcurl ignores that name), the others in either case, the lower-case "
                            + "name first. `--proxy` and `--noproxy` override them."
                    ),
                    (
                        "HOME",
                        "The home directory that `~` stands for below. When HOME is unset (or not an absolute "
                            + "path) afcli takes the home directory from the password database, as curl and HTTPie "
                            + "do; it never uses a relative path, so the working directory's .config is never read "
                            + "as the user's. A relative XDG_CONFIG_HOME, XDG_STATE_HOME or XDG_CACHE_HOME is "
                            + "ignored, as the XDG Base Directory specification says."
                    ),
                    (
                        "XDG_STATE_HOME, HOME",
                        "Where the HSTS cache is kept: `$XDG_STATE_HOME/afcli/hsts.txt`, else "
                            + "`~/.local/state/afcli/hsts.txt`; and `-A oauth2`'s tokens without a session: "
                            + "`$XDG_STATE_HOME/afcli/tokens/`."
                    ),
                    (
                        "AFCLI_CONFIG_DIR, XDG_CONFIG_HOME, HOME",
                        "Where the config file and named sessions live: $AFCLI_CONFIG_DIR, else "
                            + "$XDG_CONFIG_HOME/afcli, else ~/.config/afcli (config.json, and sessions/ only with "
                            + "`--session`)."
                    ),
                    ("AFCLI_ENV", "The config environment to use when `--env` is not given."),
                    ("NETRC", "The netrc file to use instead of ~/.netrc."),
                    (
                        "AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN",
                        "The keys `--aws-sigv4` signs with when `-a` gives none; read only with `--aws-sigv4`."
                    ),
                    ("KRB5CCNAME", "The Kerberos credential cache `-A negotiate` checks for a ticket."),
                    (
                        "LANGUAGE, LC_ALL, LC_MESSAGES, LANG",
                        "Consulted in this order to choose the Accept-Language header afcli sends by default."
                    ),
                ])
            ]),
        ManualSection(
            "FILES",
            [
                .paragraph(
                    "afcli reads its config file (see CONFIG FILE AND ENVIRONMENTS) unless `--no-config` is "
                        + "given, ~/.netrc (or $NETRC) for requests without credentials, and session files only "
                        + "with `--session`. The completion scripts printed by `afcli completions` are usually "
                        + "installed as:"),
                .definitions([
                    (
                        "~/.config/afcli/config.json",
                        "default options and environments (or $AFCLI_CONFIG_DIR/config.json)"
                    ),
                    ("/usr/share/bash-completion/completions/afcli", "bash"),
                    ("/usr/share/zsh/vendor-completions/_afcli", "zsh (or any directory in fpath)"),
                    ("/usr/share/fish/vendor_completions.d/afcli.fish", "fish"),
                ]),
                .definitions([
                    ("$XDG_CACHE_HOME/afcli, else ~/.cache/afcli",
                     "The response cache (--cache): cache.db and bodies/, 0600 files in 0700 directories."),
                    ("$XDG_STATE_HOME/afcli/tokens, else ~/.local/state/afcli/tokens",
                     "-A oauth2's tokens without --session, until they expire: 0600 files in a 0700 directory."),
                ]),
            ]),
        ManualSection(
            "EXAMPLES",
            [
                .example("Query parameters and a header:", "afcli get :8080/get page==2 'q==hello world' X-Trace:abc"),
                .example(
                    "A JSON body with a number, an array and a nested object:",
                    "afcli post api.example.com/users name=José age:=41 \\\n"
                        + "    'tags[]=a' 'tags[]=b' 'address[city]=Oslo'"
                ),
                .example(
                    "A urlencoded form; the JSON value is sent as meta[a][]=1&meta[a][]=2:",
                    "afcli post --form :8080/post user=ann 'meta:={\"a\":[1,2]}'"),
                .example("A property list body:", "afcli put --plist :8080/put key=value"),
                .example("A DELETE whose data field goes into the query string:", "afcli delete :8080/delete id=7"),
                .example("A JSON body from standard input:", "echo '{\"a\":1}' | afcli post :8080/anything"),
                .example("A body from a file:", "afcli post :8080/post @body.json"),
                .example("Print the request without sending it:", "afcli get --offline example.org/x a==1"),
                .example("Print a curl command that sends the same request:", "afcli --curl post :8080/post a=1 X-Y:z"),
                .example(
                    "A multipart upload of a field and two files under one name:",
                    "afcli post --form :8080/post title=Beach files@a.jpg files@b.jpg"),
                .example(
                    "A file part with its own type and name, and a part read from standard input:",
                    "cat data.csv | afcli post --form :8080/post \\\n"
                        + "    'doc@report.bin;type=application/pdf;filename=q3.pdf' upload@-"),
                .example(
                    "Write a multipart body to a file instead of sending it:",
                    "afcli post --offline --boundary 'Boundary+0123456789ABCDEF' :8080/post \\\n"
                        + "    foo=bar --print=B > body.bin"),
                .example(
                    "Upload at AFNetworking's 3G pace with percent lines for a script:",
                    "afcli post --form :8080/post big@disk.iso \\\n    --throttle 3g --progress=percent"),
                .example(
                    "The pins of a server's chain, leaf first, then a request that accepts only one of them:",
                    "afcli pin https://example.com\n"
                        + "afcli get https://example.com/ \\\n"
                        + "    --pin-key sha256//YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="),
                .example(
                    "A server with a certificate from a private CA, reached by name at a local address:",
                    "afcli get https://api.test:8443/ --verify=ca.pem \\\n    --resolve api.test:8443:127.0.0.1"),
                .example(
                    "Could this machine reach example.com, and through which interface? Then connect to be sure:",
                    "afcli reachability example.com\nafcli reachability example.com:443 --probe"),
                .example("Print a line whenever the network changes:", "afcli reachability --watch"),
                .example("Formatted JSON into a file:", "afcli get --pretty=format :8080/json > out.json"),
                .example(
                    "Sorted keys without nulls, and a property list as JSON:",
                    "afcli get --sorted --drop-nulls :8080/json\nafcli get --plist-as=json :8080/x.plist"),
                .example(
                    "Validate as AFNetworking would:",
                    "afcli get --accept-status 200-299,304 --accept-type json :8080/json"),
                .example("Print the id of every item of a JSON body:", "afcli get :8080/items --jsonpath '$.items[*].id'"),
                .example("Log the request in CJNetwork's format:", "afcli post --log=cj :8080/post q=toy"),
                .example(
                    "Download a file, then continue it after an interruption:",
                    "afcli download https://example.com/big.iso\n"
                        + "afcli download --resume https://example.com/big.iso"),
                .example(
                    "Continue a partial file another tool left, retry failures and check the digest:",
                    "afcli download -o big.iso --resume --retry 5 \\\n"
                        + "    --sha256 \"$(cut -c1-64 big.iso.sha256)\" \\\n    https://example.com/big.iso"),
                .example(
                    "Stream a download into another program:",
                    "afcli download -o - https://example.com/src.tar | tar x"),
            ]),
    ]
}
