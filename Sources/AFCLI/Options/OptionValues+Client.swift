import AFKit

extension OptionValues {
    /// The transfer settings every command takes from the command line: redirects, timeouts,
    /// HTTP version and proxy. Commands add their own (verbosity, decoding, following).
    var clientOptions: ClientOptions {
        var client = ClientOptions()
        client.follow = follow
        client.maxRedirects = maxRedirects
        client.timeout = timeout
        client.connectTimeout = connectTimeout
        switch httpVersion {
        case .http1_1: client.httpVersion = .http1_1
        case .http2: client.httpVersion = .http2
        case nil: client.httpVersion = .automatic
        }
        if let proxy {
            client.proxy = ProxySetting(url: proxy.url, scope: proxy.scope.rawValue)
        }
        return client
    }
}
