import AFKit
import Glibc

/// A cache option that cannot work as given (a CJ strategy without `--cache-ttl`, a bad policy
/// in the environment); nothing is sent.
struct CacheUsageError: ClassifiedError, CustomStringConvertible {
    var description: String
    var failureClass: FailureClass { .badInput }
}

/// The response cache the options or the environment ask for, which `EngineStack` puts in front
/// of a request's transport.
enum CacheStage {
    /// Refuses a CJ strategy with no lifetime from `--cache-ttl` or the environment's
    /// `cache_ttl`: checked once the environment is known, before a log file is opened or anything
    /// is sent.
    static func checkLifetime(_ settings: ResolvedSettings) throws {
        let mode = try settings.cacheMode()
        guard mode.isCJStrategy else { return }
        _ = try lifetime(mode, settings: settings)
    }

    /// The stored answers' lifetime: `--cache-ttl`, else the environment's `cache_ttl`
    /// (`ResolvedSettings` decides); a CJ strategy with neither is refused.
    static func lifetime(_ mode: CacheMode, settings: ResolvedSettings) throws -> CacheLifetime? {
        let lifetime = try settings.cacheLifetime()
        if lifetime == nil, mode.isCJStrategy {
            throw CacheUsageError(
                description: "--cache=\(mode.rawValue) needs --cache-ttl (a duration such as 10m, or forever)")
        }
        return lifetime
    }

    /// The cache stage the options and the environment ask for, warning once on standard error
    /// when the store cannot be used; nil when caching is off, or (after a warning) when there is
    /// no directory to keep it in.
    static func responseCache(
        _ settings: ResolvedSettings, environment: [String: String]
    ) throws -> ResponseCache? {
        let mode = try settings.cacheMode()
        guard mode != .off else { return nil }
        let lifetime = try lifetime(mode, settings: settings)
        guard let directory = CacheDirectory.path(environment: environment) else {
            ErrorReporter.warn(
                "no cache directory (no absolute XDG_CACHE_HOME, and no home directory in HOME or the password "
                    + "database): the response cache is bypassed")
            return nil
        }
        let configuration = ResponseCache.Configuration(
            mode: mode, lifetime: lifetime, namespace: settings.cacheNamespace,
            directory: directory, now: CacheClock.clock(environment: environment))
        let cache = ResponseCache(configuration: configuration)
        var warned = false
        cache.warn = { message in
            if !warned { ErrorReporter.warn(message) }
            warned = true
        }
        return cache
    }

    /// The Accept-Encoding requests are prepared with: with the cache on, the cache's constant
    /// one, so an answer from the cache does not load libcurl to learn it; else libcurl's.
    static func acceptEncoding(
        _ settings: ResolvedSettings, environment: [String: String]
    ) throws -> String {
        let options = settings.options
        guard !options.request.offline, !options.request.curl, try settings.cacheMode() != .off,
            CacheDirectory.path(environment: environment) != nil
        else { return RequestPreparation.acceptEncoding }
        return ResponseCache.acceptEncoding
    }
}
