import AFCurl

/// One stored response: its head, where its body is, and when it was requested and received.
package struct CacheEntry: Sendable {
    /// Where the body is: in the database (small bodies) or in a file named by its SHA-256.
    package enum Body: Equatable, Sendable {
        case inline([UInt8])
        case file(digest: String)
    }

    package var namespace: String
    package var method: String
    package var url: String
    /// The request header names the response's `Vary` nominated, lower case, sorted.
    package var varyNames: [String]
    package var statusCode: Int
    package var reasonPhrase: String
    package var httpVersion: String
    /// The response's header fields as stored (never a hop-by-hop field; `Set-Cookie` is kept,
    /// shown on a hit as received and never applied to a cookie jar or session).
    package var headers: [(name: String, value: String)]
    package var body: Body
    package var bodySize: Int64
    /// When the request was sent and the response received (seconds since the epoch).
    package var requestTime: Double
    package var responseTime: Double
    /// When the entry is no longer fresh for `cache ls` and `cache prune`; nil for never.
    package var expires: Double?
    /// When the entry was last used.
    package var lastUsed: Double

    /// The stored head, as a transport would report it.
    package var head: ResponseHead {
        ResponseHead(statusCode: statusCode, reasonPhrase: reasonPhrase, httpVersion: httpVersion, headers: headers)
    }

    /// The header fields as stored: one `name: value` line each.
    package static func encode(_ headers: [(name: String, value: String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in headers {
            bytes += Array(field.name.utf8) + [0x3A, 0x20] + Array(field.value.utf8) + [0x0A]
        }
        return bytes
    }

    /// Header fields from `encode`'s form.
    package static func decode(_ bytes: [UInt8]) -> [(name: String, value: String)] {
        bytes.split(separator: 0x0A).compactMap { line in
            guard let colon = line.firstIndex(of: 0x3A) else { return nil }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            var valueStart = line.index(after: colon)
            if valueStart < line.endIndex, line[valueStart] == 0x20 { valueStart = line.index(after: valueStart) }
            return (name, String(decoding: line[valueStart...], as: UTF8.self))
        }
    }

    /// Fields that describe one connection, never the response (RFC 9110 §7.6.1, RFC 9111 §3.1).
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "proxy-authenticate",
        "proxy-authentication-info", "proxy-authorization",
    ]

    /// The header fields a cache may store and replay: all but the hop-by-hop fields, those a
    /// `Connection` field names (RFC 9111 §3.1) and those a qualified `no-cache="…"` names (§5.2.2.4).
    package static func storable(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var dropped = hopByHop
        var control: [String] = []
        for field in headers {
            switch ASCIICase.lowercased(field.name) {
            case "connection":
                for name in field.value.split(separator: ",") { dropped.insert(ASCIICase.lowercased(name.cacheTrimmed)) }
            case "cache-control": control.append(field.value)
            default: continue
            }
        }
        dropped.formUnion(CacheControl(control).noCacheFields)
        return headers.filter { !dropped.contains(ASCIICase.lowercased($0.name)) }
    }
}
