import CCurlShim

/// The Swift owner of one libcurl share handle that shares the cookie engine: every transfer
/// attached to it (`EasyHandle.useCookies`) sends the cookies it holds and stores those the
/// servers set, so a cookie set by one transfer is sent by the next.
///
/// libcurl's engine does all the cookie rules (domains, paths, expiry, `Secure`, `HttpOnly`);
/// afcli never builds a `Cookie` header from these cookies itself. The cookies are seeded and
/// read back through a handle of the share's own that never transfers anything.
///
/// It has no lock callbacks: every transfer attached to it, its seeding and its reading happen on
/// the run's one thread.
package final class CookieShare {
    /// The `CURLSH *` this object owns.
    let share: UnsafeMutableRawPointer
    /// The handle that loads and lists the shared cookies.
    private let reader: EasyHandle

    /// Creates an empty cookie engine shared by the transfers attached to it.
    package init() throws(CurlError) {
        reader = try EasyHandle()
        guard let share = afcurl_cookie_share_init() else {
            throw CurlError(kind: .other, description: "could not create a libcurl cookie share")
        }
        self.share = share
        try reader.check(afcurl_setopt_share(reader.rawHandle, share), "the cookie share")
    }

    deinit {
        // Attached handles keep this object alive, so only the reader is attached now.
        _ = afcurl_setopt_share(reader.rawHandle, nil)
        afcurl_cookie_share_cleanup(share)
    }

    /// Loads the Netscape cookie file at `file` (a missing file is no error, as with curl's
    /// `-b`) and adds `lines`, in libcurl's Netscape syntax.
    package func seed(file: String?, lines: [String]) throws(CurlError) {
        if let file { try reader.loadCookies(file: file) }
        try reader.addCookies(lines)
    }

    /// Every cookie the engine holds, as Netscape lines (`#HttpOnly_` before the domain of an
    /// HttpOnly cookie).
    package func lines() -> [String] {
        reader.cookieLines()
    }
}
