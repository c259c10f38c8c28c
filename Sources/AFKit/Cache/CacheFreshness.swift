import AFCurl

/// RFC 9111's rules for a private cache, as pure functions of a response head, the request and
/// the time: whether a response may be stored, how long it stays fresh, and how old it is.
package enum CacheFreshness {
    /// Status codes that may be cached with heuristic freshness (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]
    /// The longest heuristic lifetime: one day, however old Last-Modified is.
    package static let heuristicCap: Double = 86_400

    /// Whether an HTTP response to `method` may be stored (RFC 9111 §3) by a private cache.
    package static func isStorable(
        method: String, head: ResponseHead, requestControl: CacheControl, responseTime: Double
    ) -> Bool {
        guard method == "GET" || method == "HEAD" else { return false }
        let control = CacheControl(head.values(for: "Cache-Control"))
        if control.noStore || requestControl.noStore { return false }
        if head.values(for: "Vary").contains(where: { $0.cacheTrimmed == "*" }) { return false }
        guard (200...599).contains(head.statusCode), head.statusCode != 206 else { return false }
        // A status without heuristic freshness needs an explicit lifetime or permission.
        let explicit =
            control.maxAge != nil || head.value(for: "Expires") != nil || control.isPublic || control.isPrivate
        guard explicit || heuristicallyCacheable.contains(head.statusCode) else { return false }
        // A response that is never fresh and cannot be revalidated would only take room.
        let validators = head.value(for: "ETag") != nil || head.value(for: "Last-Modified") != nil
        return validators || lifetime(head, responseTime: responseTime) > 0
    }

    /// How long the response stays fresh after it was generated (RFC 9111 §4.2.1): max-age, else
    /// Expires − Date, else 10% of the time since Last-Modified (capped) for a status that allows
    /// heuristics; `s-maxage` is for shared caches and ignored here.
    package static func lifetime(_ head: ResponseHead, responseTime: Double) -> Double {
        let control = CacheControl(head.values(for: "Cache-Control"))
        if control.invalidMaxAge { return 0 }
        if let maxAge = control.maxAge { return Double(maxAge) }
        let date = head.value(for: "Date").flatMap(HTTPDate.parse) ?? responseTime
        if let expires = head.value(for: "Expires") {
            // An invalid Expires (often "0") means already expired.
            guard let time = HTTPDate.parse(expires) else { return 0 }
            return max(0, time - date)
        }
        if heuristicallyCacheable.contains(head.statusCode),
            let modified = head.value(for: "Last-Modified").flatMap(HTTPDate.parse), modified < date
        {
            return min((date - modified) / 10, heuristicCap)
        }
        return 0
    }

    /// The response's current age (RFC 9111 §4.2.3) at `now`.
    package static func age(_ head: ResponseHead, requestTime: Double, responseTime: Double, now: Double) -> Double {
        let date = head.value(for: "Date").flatMap(HTTPDate.parse) ?? responseTime
        let apparentAge = max(0, responseTime - date)
        // Age is delta-seconds; anything else (`1e400`, `inf`, `-5`) is ignored, as an absent Age.
        let ageValue =
            head.value(for: "Age").flatMap { CacheControl.deltaSeconds($0.cacheTrimmed) }.map(Double.init) ?? 0
        let correctedAge = ageValue + max(0, responseTime - requestTime)
        return max(apparentAge, correctedAge) + max(0, now - responseTime)
    }

    /// Whether a stored response may answer without revalidation: fresh, and not `no-cache`.
    package static func isFresh(_ entry: CacheEntry, now: Double) -> Bool {
        let head = entry.head
        if CacheControl(head.values(for: "Cache-Control")).noCache { return false }
        let age = age(head, requestTime: entry.requestTime, responseTime: entry.responseTime, now: now)
        return age < lifetime(head, responseTime: entry.responseTime)
    }

    /// Whether a stale response may still answer `--cache=only` (HTTP's only-if-cached): not when
    /// the server said `must-revalidate` or `no-cache`.
    package static func mayServeStale(_ entry: CacheEntry) -> Bool {
        let control = CacheControl(entry.head.values(for: "Cache-Control"))
        return !control.mustRevalidate && !control.noCache
    }

    /// When a response received at `responseTime` stops being fresh, for `cache ls` and pruning.
    package static func expiry(_ head: ResponseHead, requestTime: Double, responseTime: Double) -> Double {
        let age = age(head, requestTime: requestTime, responseTime: responseTime, now: responseTime)
        return responseTime + lifetime(head, responseTime: responseTime) - age
    }

    /// Whether a 304 carries a strong entity tag that is not the stored response's (RFC 9111
    /// §4.3.4): it then selects another representation, and must not refresh this one.
    package static func namesOtherRepresentation(notModified: ResponseHead, stored: ResponseHead) -> Bool {
        guard let received = notModified.value(for: "ETag")?.cacheTrimmed, !received.hasPrefix("W/") else {
            return false
        }
        return stored.value(for: "ETag")?.cacheTrimmed != received
    }

    /// The head of a stored response updated by a 304 (RFC 9111 §4.3.4): fields in the 304
    /// replace stored fields of the same name, except those that describe the stored body.
    package static func merge(stored: [(name: String, value: String)], notModified: ResponseHead)
        -> [(name: String, value: String)]
    {
        let kept: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "content-range"]
        let incoming = notModified.headers.filter { !kept.contains(ASCIICase.lowercased($0.name)) }
        let replaced = Set(incoming.map { ASCIICase.lowercased($0.name) })
        return stored.filter { !replaced.contains(ASCIICase.lowercased($0.name)) } + incoming
    }
}
