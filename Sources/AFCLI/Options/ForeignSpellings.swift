/// Options of HTTPie and curl that afcli spells another way, with what to type instead: an
/// unknown option that is one of them gets that advice rather than a guess by edit distance
/// (`--unsorted` is not `--sorted`, and `-L` is not close to anything).
///
/// Only spellings afcli does not accept are listed: a letter afcli gives another meaning (`-s`,
/// `-x`, `-A`, `-b`, `-c` are HTTPie's) is parsed as afcli's.
enum ForeignSpellings {
    /// Spelling (as typed, without `=value`), then what afcli takes instead, as a noun phrase for
    /// "did you mean …?".
    static let advice: [String: String] = [
        // HTTPie
        "--download": "afcli download URL",
        "-d": "afcli download URL, or data items name=value",
        "--continue": "afcli download --resume URL",
        "--unsorted": "--no-sorted",
        "--format-options": "--indent N or --sorted",
        "--ssl": "--tls-min 1.2 or 1.3",
        // curl
        "-L": "--follow",
        "--location": "--follow",
        "-H": "a header item Name:value",
        "--header": "a header item Name:value",
        "--data": "data items name=value, or --raw TEXT",
        "--data-raw": "--raw TEXT",
        "--data-binary": "a body item @FILE, or --raw TEXT",
        "--data-urlencode": "--form with data items name=value",
        "-u": "-a USER:PASSWORD",
        "--user": "-a USER:PASSWORD",
        "-m": "--max-time SECONDS",
        "--cacert": "--verify FILE",
        "--key": "--cert-key FILE",
        "--user-agent": "a header item User-Agent:VALUE",
        "--cookie": "a header item Cookie:NAME=VALUE, or --cookie-jar FILE",
        "-i": "--print=hb",
        "--include": "--print=hb",
        "--silent": "-q",
        "--request": "--method NAME",
        "-e": "a header item Referer:URL",
        "--referer": "a header item Referer:URL",
        "--retry-connrefused": "--retry, which retries a refused connection already",
    ]

    /// Letters afcli takes from HTTPie where curl means something else, with a note added to
    /// the error when the value afcli's option was given does not fit (`-sSL` gives --style "SL").
    static let sharedLetters: [String: String] = [
        "-s": "-s is --style; curl's silent -s is -q here"
    ]
}
