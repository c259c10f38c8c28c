import CCurlShim

/// libcurl's cookie engine and netrc lookup on the handle.
///
/// The cookies live in the easy handle and survive `curl_easy_reset`, so cookies loaded before
/// the first hop and those set by any hop are all in the engine for every later hop and are read
/// back once the exchange is over. Each cookie is sent only to the domain and path it belongs to:
/// libcurl decides, afcli never builds a `Cookie` header from stored cookies itself.
extension EasyHandle {
    /// Turns the engine on and loads the Netscape cookie file at `file`, if any (a missing file
    /// is no error, as with curl's `-b`).
    package func loadCookies(file: String?) throws(CurlError) {
        try setString(CURLOPT_COOKIEFILE, file ?? "", "cookie file")
        if file != nil {
            try setString(CURLOPT_COOKIELIST, "RELOAD", "cookie file")
        }
    }

    /// Adds cookies in libcurl's Netscape syntax (`domain TAB tailmatch TAB path TAB secure TAB
    /// expires TAB name TAB value`); expired ones are dropped by libcurl as they are added.
    package func addCookies(_ lines: [String]) throws(CurlError) {
        for line in lines {
            try setString(CURLOPT_COOKIELIST, line, "cookie")
        }
    }

    /// Every cookie the engine holds, as Netscape lines (`#HttpOnly_` before the domain of an
    /// HttpOnly cookie); empty when the engine never ran.
    package func cookieLines() -> [String] {
        var list: UnsafeMutablePointer<curl_slist>?
        guard afcurl_getinfo_slist(rawHandle, CURLINFO_COOKIELIST, &list) == CURLE_OK, let first = list else {
            return []
        }
        defer { afcurl_slist_free_all(first) }
        var lines: [String] = []
        var node: UnsafeMutablePointer<curl_slist>? = first
        while let current = node {
            if let data = current.pointee.data { lines.append(String(cString: data)) }
            node = current.pointee.next
        }
        return lines
    }

    /// Attaches the handle to `share`, whose cookies its next transfers send and update instead
    /// of the handle's own, or detaches it (nil): a detached handle has no cookies. The
    /// attachment outlives `curl_easy_reset`, so it is changed only when it differs; the
    /// handle keeps the share alive while attached, and each of its transfers turns the engine
    /// on (`configureCookiesAndNetrc`).
    package func useCookies(_ share: TransferShare?) throws(CurlError) {
        guard share !== cookieShare else { return }
        try check(afcurl_setopt_share(rawHandle, share?.share), "the cookie share")
        // Attaching to a share's HSTS cache frees the handle's own; detaching leaves it none.
        if share?.sharesHSTS == true || cookieShare?.sharesHSTS == true { transferResources.loadedHSTSFile = nil }
        cookieShare = share
    }

    /// Turns the cookie engine on for this transfer (the empty file name loads nothing) and
    /// points libcurl at the netrc file when one applies.
    func configureCookiesAndNetrc(_ options: TransferOptions) throws(CurlError) {
        // A handle attached to a run's shared cookie engine (`useCookies`) uses it for every
        // transfer, whatever its options say.
        if options.cookieEngine || cookieShare != nil {
            try setString(CURLOPT_COOKIEFILE, "", "cookie engine")
        }
        if let netrc = options.netrcFile {
            try setLong(CURLOPT_NETRC, AFCURL_NETRC_OPTIONAL)
            try setString(CURLOPT_NETRC_FILE, netrc, "netrc file")
        }
    }
}
