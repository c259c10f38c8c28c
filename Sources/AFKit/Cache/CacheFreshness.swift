import AFCurl

/// RFC 9111's rules for a private cache, as pure functions of a response head, the request and
/// the time: whether a response may be stored, how long it stays fresh, and how old it is.
package enum CacheFreshness {
    /// Status codes that may be cached with heuristic freshness (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]
    /// Status codes whose caching rules afcli implements, for `must-understand` (RFC 9111 §5.2.2.3).
    static let understoodStatuses: Set<Int> = heuristicallyCacheable.union([302, 303, 307])
    /// The longest heuristic lifetime: one day, however old Last-Modified is.
    package static let heuristicCap: Double = 86_400

    /// Whether an HTTP response to `method` may be stored (RFC 9111 §3) by a private cache.
    package static func isStorable(
        method: String, head: ResponseHead, requestControl: CacheControl, responseTime: Double
    ) -> Bool {
        guard method == "GET" || method == "HEAD" else { return false }
        let control = CacheControl(head.values(for: "Cache-Control"))
        // must-understand: a status whose caching afcli implements is stored despite no-store
        // (which is there for caches that do not understand it); any other status is not.
        let understood = control.mustUnderstand && understoodStatuses.contains(head.statusCode)
        if (control.noStore && !understood) || requestControl.noStore { return false }
        if varyHasStar(head) { return false }
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
        let expires = head.values(for: "Expires")
        if let first = expires.first {
            // An invalid Expires (often "0") means already expired (RFC 9111 §5.3); so do
            // several, which cannot all be meant.
            guard expires.count == 1, let time = HTTPDate.parse(first.cacheTrimmed) else { return 0 }
            return max(0, time - date)
        }
        // Heuristics for a status that allows them, or any status marked public (§4.2.2).
        if heuristicallyCacheable.contains(head.statusCode) || control.isPublic,
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
        let ageValue = ageField(head) ?? 0
        let correctedAge = ageValue + max(0, responseTime - requestTime)
        return max(apparentAge, correctedAge) + max(0, now - responseTime)
    }

    /// The `Age` a response carries (RFC 9111 §5.1): the first member of the first line, which must
    /// be delta-seconds, parameters aside. `7200, 0` and `7200;foo` are 7200; anything else
    /// (`1e400`, `inf`, `-5`) is ignored, as an absent Age.
    package static func ageField(_ head: ResponseHead) -> Double? {
        guard let line = head.values(for: "Age").first else { return nil }
        let first = line.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        // A parameter after the number (`7200;foo=bar`) does not make the number unreadable.
        let number = first.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return CacheControl.deltaSeconds(number.cacheTrimmed).map(Double.init)
    }

    /// Whether any member of any `Vary` line is `*` (`*, Foo`, `Foo, *`, `, *`): the response then
    /// varies on things outside the request and is never reused (RFC 9111 §4.1).
    package static func varyHasStar(_ head: ResponseHead) -> Bool {
        head.values(for: "Vary").contains { line in line.split(separator: ",").contains { $0.cacheTrimmed == "*" } }
    }

    /// Whether a stored response may answer a request with `request`'s Cache-Control directives
    /// without revalidation (RFC 9111 §4.2, §5.2.1): fresh, not `no-cache` on either side, no older
    /// than the request's `max-age`, fresh for its `min-fresh` more, or stale by no more than its
    /// `max-stale` when the response allows serving stale.
    package static func answers(_ entry: CacheEntry, request: CacheControl, now: Double) -> Bool {
        let head = entry.head
        let control = CacheControl(head.values(for: "Cache-Control"))
        if control.noCache || request.noCache || request.noStore { return false }
        let age = age(head, requestTime: entry.requestTime, responseTime: entry.responseTime, now: now)
        let lifetime = lifetime(head, responseTime: entry.responseTime)
        if let maxAge = request.maxAge, age > Double(maxAge) { return false }
        if let minFresh = request.minFresh, lifetime - age < Double(minFresh) { return false }
        if age < lifetime { return true }
        guard let maxStale = request.maxStale, !control.mustRevalidate else { return false }
        return age - lifetime <= maxStale
    }

    /// Whether a stale stored response may answer under RFC 5861's `stale-while-revalidate` or
    /// `stale-if-error`: stale by no more than the seconds the directive gives (the response's,
    /// or for stale-if-error the request's too), and neither side forbidding stale answers.
    package static func mayAnswerStale(
        _ entry: CacheEntry, request: CacheControl, now: Double, ifError: Bool
    ) -> Bool {
        let head = entry.head
        let control = CacheControl(head.values(for: "Cache-Control"))
        guard !control.mustRevalidate, !control.noCache, !request.noCache, request.maxAge == nil,
            request.minFresh == nil
        else { return false }
        let allowance = ifError ? max(control.staleIfError ?? -1, request.staleIfError ?? -1) : control.staleWhileRevalidate ?? -1
        guard allowance >= 0 else { return false }
        let age = age(head, requestTime: entry.requestTime, responseTime: entry.responseTime, now: now)
        return age - lifetime(head, responseTime: entry.responseTime) <= Double(allowance)
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
        // The fields the stored body depends on (its length, its coding) stay the stored ones.
        let kept: Set<String> = ["content-length", "content-encoding", "transfer-encoding"]
        let incoming = CacheEntry.storable(notModified.headers).filter { !kept.contains(ASCIICase.lowercased($0.name)) }
        let replaced = Set(incoming.map { ASCIICase.lowercased($0.name) })
        return stored.filter { !replaced.contains(ASCIICase.lowercased($0.name)) } + incoming
    }
}
