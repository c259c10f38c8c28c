/// Sessions, cookie jars, netrc and trusted redirects: the options that make credentials and
/// cookies outlive one request, and the one that lets them cross origins.
extension OptionTable {
    static let sessions: [OptionSpec] = [
        OptionSpec(
            long: "session", scope: [.request, .run], valueName: "NAME", group: .authentication,
            help: "keep headers, auth and cookies in a session",
            description: "Use and update a session (NAME may be a path): headers and auth given with it are stored and "
                + "sent again, cookies the server sets are kept (through libcurl's cookie engine) and sent back to "
                + "the host they belong to. A NAME lives in CONFIG/sessions/HOST_PORT/NAME.json, HTTPie 3.2's "
                + "layout, with CONFIG $AFCLI_CONFIG_DIR, else $XDG_CONFIG_HOME/afcli, else ~/.config/afcli; a "
                + "value with a / is a path (the names . and .. are refused). HTTPie's session files work as they "
                + "are. Files are 0600 in 0700 directories, replaced atomically; a symbolic link, a file that is "
                + "not regular or another user's file is refused. In afcli run it is the run's cookie store: its "
                + "cookies seed the run's cookie engine and the engine's are written back when the run ends; a "
                + "session that stores headers or auth is refused there, and a NAME is looked up under the host "
                + "of the run's first request.",
            completion: .file,
            apply: { values, text in
                values.session.name = try OptionValueParser.nonEmpty(text ?? "", what: "a session name or path")
                values.session.readOnly = false
            },
            reset: { values in
                values.session.name = nil
                values.session.readOnly = false
            }),
        OptionSpec(
            long: "session-read-only", scope: [.request, .run], valueName: "NAME", group: .authentication,
            help: "use a session without updating it",
            description: "As --session, but the session file is only read: nothing the request or the response "
                + "changes is written back.",
            completion: .file,
            apply: { values, text in
                values.session.name = try OptionValueParser.nonEmpty(text ?? "", what: "a session name or path")
                values.session.readOnly = true
            },
            reset: { values in
                if values.session.readOnly {
                    values.session.name = nil
                    values.session.readOnly = false
                }
            }),
        OptionSpec(
            long: "session-store-auth", scope: .request, valueName: "BOOL", group: .authentication,
            help: "yes (default): keep -a credentials in it",
            description:
                "yes or no (also true or false). With no, credentials given with --auth are used for this request "
                + "but not written into the session (credentials already in it stay). Credentials from netrc are "
                + "never written.",
            completion: .words(["yes", "no"]),
            apply: { values, text in
                switch text ?? "" {
                case "yes", "true": values.session.storesAuth = true
                case "no", "false": values.session.storesAuth = false
                default: throw OptionValueError("is not yes or no")
                }
            },
            reset: { $0.session.storesAuth = true }),
        OptionSpec(
            long: "cookie-jar", scope: [.request, .run], valueName: "FILE", group: .authentication,
            help: "read and write cookies in a cookies.txt",
            description: "Load cookies from FILE, a Netscape cookies.txt as curl and browsers write it, send each "
                + "to the host it belongs to, and write every cookie back to FILE (0600, replaced atomically) "
                + "after the response (in afcli run, when the run ends: every request of the run shares its "
                + "cookies). A missing FILE starts empty; a FILE that is a symbolic link, not a regular "
                + "file or another user's is refused, as a session file is.",
            completion: .file,
            apply: { values, text in
                values.session.cookieJar = try OptionValueParser.nonEmpty(text ?? "", what: "a file name")
            },
            reset: { $0.session.cookieJar = nil }),
        OptionSpec(
            long: "ignore-netrc", scope: .sending, group: .authentication, help: "never take credentials from netrc",
            description: "Without --auth, URL credentials, session auth or an Authorization header, afcli lets "
                + "libcurl look the request's host up in $NETRC, else ~/.netrc (as curl --netrc-optional). "
                + "This turns that off. A netrc with passwords that others can read draws a warning.",
            apply: { values, _ in values.session.ignoreNetrc = true },
            reset: { $0.session.ignoreNetrc = false }),
        OptionSpec(
            long: "location-trusted", scope: .sending, group: .network, help: "send credentials to redirect targets",
            description: "With --follow, keep Authorization and Cookie headers and digest credentials when a "
                + "redirect leads to another host, port or scheme; by default they are dropped there. Session "
                + "and cookie-jar cookies always go only to their own domain, and netrc is looked up for "
                + "each host.",
            apply: { values, _ in values.session.locationTrusted = true },
            reset: { $0.session.locationTrusted = false }),
    ]
}
