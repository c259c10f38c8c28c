import AFKit

extension Settings.Transfer {
    /// The transfer settings every command takes from the command line: redirects, timeouts,
    /// response limits, HTTP version and proxy. Commands add their own (verbosity, decoding, following).
    var transferSettings: TransferSettings {
        var client = TransferSettings()
        client.follow = follow
        client.maxRedirects = maxRedirects
        client.idleTimeout = timeout
        client.totalTimeout = maxTime
        client.connectTimeout = connectTimeout
        client.limits = ResponseLimits(
            maxBodyBytes: maxFilesize, maxExpansionRatio: maxExpansion == 0 ? nil : maxExpansion)
        switch httpVersion {
        case .http1_1: client.httpVersion = .http1_1
        case .http2: client.httpVersion = .http2
        case .http2PriorKnowledge: client.httpVersion = .http2PriorKnowledge
        case .http3: client.httpVersion = .http3
        case nil: client.httpVersion = .automatic
        }
        if let proxy {
            client.proxy = ProxySetting(url: proxy.url, scope: proxy.scope.rawValue)
        }
        client.noProxy = noProxy
        client.network.connectTo = connectTo
        switch addressFamily {
        case .ipv4: client.network.addressFamily = .ipv4
        case .ipv6: client.network.addressFamily = .ipv6
        case nil: client.network.addressFamily = .any
        }
        client.network.unixSocket = unixSocket
        client.network.interface = interface
        client.network.chunked = chunked
        client.network.maxReceiveRate = limitRate
        client.network.hstsFile = hsts ? HSTSLocation.defaultFile(environment: HSTSLocation.environment()) : nil
        return client
    }
}

extension Settings {
    /// The transfer settings of the command line (`transfer.transferSettings`) with how far
    /// credentials reach: the netrc file they may come from (`netrcFile`, nil under
    /// `--ignore-netrc`) and whether they follow redirects to other hosts (`--location-trusted`).
    /// A single request, a run and a download all build on it, so none can leave these out.
    func transferSettings(netrcFile: String?) -> TransferSettings {
        var client = transfer.transferSettings
        client.netrcFile = session.ignoreNetrc ? nil : netrcFile
        client.locationTrusted = session.locationTrusted
        return client
    }
}
