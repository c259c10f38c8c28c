import CCurlShim

/// The Swift owner of one libcurl share handle that shares the cookie engine and the HSTS cache:
/// every transfer attached to it (`EasyHandle.useCookies`) sends the cookies it holds and stores
/// those the servers set, so a cookie set by one transfer is sent by the next; and an HSTS policy
/// one transfer learns upgrades the next one's `http://` URL.
///
/// libcurl's engines do all the cookie and HSTS rules (domains, paths, expiry, `Secure`,
/// `HttpOnly`, `includeSubDomains`); afcli never builds a `Cookie` header from these cookies
/// itself. The cookies are seeded and read back through a handle of the share's own that never
/// transfers anything.
///
/// The HSTS file is read once, by the first transfer that uses it (`EasyHandle.configureHSTS`),
/// and written once, when the share goes away: libcurl reads the file at the start of every
/// transfer it is named for and writes it whenever a handle that uses it is closed, which made a
/// run of 2,000 requests read the file 2,000 times (and, over HTTP/2, write it 1,200 times).
///
/// It has no lock callbacks: every transfer attached to it, its seeding and its reading happen on
/// the run's one thread.
package final class TransferShare {
    /// The `CURLSH *` this object owns.
    let share: UnsafeMutableRawPointer
    /// Whether the HSTS cache is the share's (libcurl 7.88 and later), not each handle's own.
    let sharesHSTS: Bool
    /// The HSTS file the shared cache was loaded from, once a transfer has named it.
    var hstsFile: String?
    /// The handle that loads and lists the shared cookies, and that saves the shared HSTS cache
    /// when it is closed; nil once closed.
    private var reader: EasyHandle?

    /// Creates an empty cookie engine and HSTS cache shared by the transfers attached to it.
    package init() throws(CurlError) {
        let reader = try EasyHandle()
        var sharesHSTS: Int32 = 0
        guard let share = afcurl_transfer_share_init(&sharesHSTS) else {
            throw CurlError(kind: .other, description: "could not create a libcurl share handle")
        }
        self.share = share
        self.sharesHSTS = sharesHSTS != 0
        self.reader = reader
        try reader.check(afcurl_setopt_share(reader.rawHandle, share), "the cookie share")
    }

    deinit {
        // Attached handles keep this object alive, so only the reader is attached now. Closing it
        // attached saves the shared HSTS cache to the file it was loaded from (if any), once.
        reader = nil
        afcurl_transfer_share_cleanup(share)
    }

    /// Loads the Netscape cookie file at `file` (a missing file is no error, as with curl's
    /// `-b`) and adds `lines`, in libcurl's Netscape syntax.
    package func seed(file: String?, lines: [String]) throws(CurlError) {
        if let file { try reader?.loadCookies(file: file) }
        try reader?.addCookies(lines)
    }

    /// Every cookie the engine holds, as Netscape lines (`#HttpOnly_` before the domain of an
    /// HttpOnly cookie).
    package func lines() -> [String] {
        reader?.cookieLines() ?? []
    }
}
