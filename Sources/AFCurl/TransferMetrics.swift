import CCurlShim
import Glibc

/// The phase timings and connection facts of one finished transfer, as libcurl measured them
/// (AFNetworking's `NSURLSessionTaskMetrics` in libcurl's terms).
///
/// Times are seconds from the start of the transfer, cumulative as curl's `--write-out` reports
/// them: `nameLookup ≤ connect ≤ appConnect ≤ preTransfer ≤ startTransfer ≤ total`. A phase that
/// did not happen (no TLS, a reused connection) is 0, as in curl.
package struct TransferMetrics: Equatable, Sendable {
    /// Name resolution finished (`time_namelookup`).
    package var nameLookup: Double = 0
    /// The TCP (or QUIC) connection was up (`time_connect`).
    package var connect: Double = 0
    /// The TLS handshake finished (`time_appconnect`); 0 without TLS.
    package var appConnect: Double = 0
    /// Everything was ready for the request to be sent (`time_pretransfer`).
    package var preTransfer: Double = 0
    /// The first response byte arrived (`time_starttransfer`).
    package var startTransfer: Double = 0
    /// The transfer ended (`time_total`).
    package var total: Double = 0
    /// Time spent on redirects libcurl followed itself (`time_redirect`; afcli follows them in
    /// Swift, so this is 0 unless libcurl did).
    package var redirect: Double = 0
    /// Seconds the request waited before its transfer started, measured by afcli (a batch's
    /// queue; libcurl restarts its own timers for queued transfers, so it cannot say).
    package var queue: Double = 0
    /// New connections this transfer had to open (`num_connects`); 0 means a reused connection.
    package var newConnections: Int = 0
    /// The remote address and port (`remote_ip`, `remote_port`), when connected.
    package var remoteAddress: String? = nil
    package var remotePort: Int? = nil
    /// The local address and port (`local_ip`, `local_port`), when connected.
    package var localAddress: String? = nil
    package var localPort: Int? = nil
    /// Bytes of response headers received (`size_header`) and of the request sent (`size_request`).
    package var headerBytes: Int64 = 0
    package var requestBytes: Int64 = 0
    /// Body bytes received and sent (`size_download`, `size_upload`).
    package var bodyBytesReceived: Int64 = 0
    package var bodyBytesSent: Int64 = 0
    /// Average body bytes per second received and sent (`speed_download`, `speed_upload`).
    package var downloadSpeed: Int64 = 0
    package var uploadSpeed: Int64 = 0
    /// When the transfer started, in seconds since 1970 (wall clock): the anchor that turns the
    /// relative phase times into AFNetworking's dates.
    package var startDate: Double = 0
    /// The HTTP version libcurl used, as a `CURL_HTTP_VERSION_*` value (0 when unknown).
    package var httpVersionCode: Int = 0
    /// The URL scheme as libcurl spells it (`HTTP`, `HTTPS`), when known.
    package var scheme: String? = nil
    /// The response's Content-Type, when it had one (`content_type`).
    package var contentType: String? = nil
    /// The URL the transfer went to (`url_effective`).
    package var effectiveURL: String? = nil
    /// The request method sent (`method`).
    package var method: String? = nil
    /// The response's status code (`response_code`), 0 when none arrived.
    package var responseCode: Int = 0
    /// Whether the response came from afcli's cache, not the network (AFNetworking's
    /// `resourceFetchType` `localCache`).
    package var answeredFromCache: Bool = false

    package init() {}

    /// The ALPN spelling of the protocol (`http/1.1`, `h2`, `h3`), AFNetworking's
    /// `networkProtocolName`; nil when unknown.
    package var protocolName: String? {
        switch httpVersionCode {
        case CURL_HTTP_VERSION_1_0: return "http/1.0"
        case CURL_HTTP_VERSION_1_1: return "http/1.1"
        case CURL_HTTP_VERSION_2_0: return "h2"
        case CURL_HTTP_VERSION_3: return "h3"
        default: return nil
        }
    }

    /// The version as curl's `%{http_version}` prints it: `1`, `1.1`, `2`, `3`, or `0`.
    package var curlVersionNumber: String {
        switch httpVersionCode {
        case CURL_HTTP_VERSION_1_0: return "1"
        case CURL_HTTP_VERSION_1_1: return "1.1"
        case CURL_HTTP_VERSION_2_0: return "2"
        case CURL_HTTP_VERSION_3: return "3"
        default: return "0"
        }
    }

    /// Whether the transfer went over a connection an earlier transfer opened.
    package var reusedConnection: Bool { newConnections == 0 && remoteAddress != nil }

    /// Reads the metrics of the transfer that just ended on `handle`; `requestURL` (the URL the
    /// transfer was given) is reused as the effective URL when libcurl's has the same bytes.
    static func read(from handle: UnsafeMutableRawPointer, requestURL: String? = nil) -> TransferMetrics {
        var metrics = TransferMetrics()
        func seconds(_ info: CURLINFO) -> Double {
            var microseconds: curl_off_t = 0
            guard afcurl_getinfo_off(handle, info, &microseconds) == CURLE_OK else { return 0 }
            return Double(microseconds) / 1_000_000
        }
        func integer(_ info: CURLINFO) -> Int {
            var value = 0
            _ = afcurl_getinfo_long(handle, info, &value)
            return value
        }
        func size(_ info: CURLINFO) -> Int64 {
            var value: curl_off_t = 0
            _ = afcurl_getinfo_off(handle, info, &value)
            return Int64(value)
        }
        func text(_ info: CURLINFO, reusing known: String? = nil) -> String? {
            var pointer: UnsafePointer<CChar>?
            guard afcurl_getinfo_string(handle, info, &pointer) == CURLE_OK, let pointer, pointer.pointee != 0 else {
                return nil
            }
            if let known, TransferMetrics.same(pointer, as: known) { return known }
            return String(cString: pointer)
        }
        metrics.nameLookup = seconds(CURLINFO_NAMELOOKUP_TIME_T)
        metrics.connect = seconds(CURLINFO_CONNECT_TIME_T)
        metrics.appConnect = seconds(CURLINFO_APPCONNECT_TIME_T)
        metrics.preTransfer = seconds(CURLINFO_PRETRANSFER_TIME_T)
        metrics.startTransfer = seconds(CURLINFO_STARTTRANSFER_TIME_T)
        metrics.total = seconds(CURLINFO_TOTAL_TIME_T)
        metrics.redirect = seconds(CURLINFO_REDIRECT_TIME_T)
        metrics.newConnections = integer(CURLINFO_NUM_CONNECTS)
        metrics.remoteAddress = text(CURLINFO_PRIMARY_IP)
        let remotePort = integer(CURLINFO_PRIMARY_PORT)
        metrics.remotePort = remotePort > 0 ? remotePort : nil
        metrics.localAddress = text(CURLINFO_LOCAL_IP)
        let localPort = integer(CURLINFO_LOCAL_PORT)
        metrics.localPort = localPort > 0 ? localPort : nil
        metrics.headerBytes = Int64(integer(CURLINFO_HEADER_SIZE))
        metrics.requestBytes = Int64(integer(CURLINFO_REQUEST_SIZE))
        metrics.bodyBytesReceived = size(CURLINFO_SIZE_DOWNLOAD_T)
        metrics.bodyBytesSent = size(CURLINFO_SIZE_UPLOAD_T)
        metrics.downloadSpeed = size(CURLINFO_SPEED_DOWNLOAD_T)
        metrics.uploadSpeed = size(CURLINFO_SPEED_UPLOAD_T)
        metrics.httpVersionCode = integer(CURLINFO_HTTP_VERSION)
        metrics.scheme = text(CURLINFO_SCHEME)
        metrics.contentType = text(CURLINFO_CONTENT_TYPE)
        metrics.effectiveURL = text(CURLINFO_EFFECTIVE_URL, reusing: requestURL)
        metrics.method = text(CURLINFO_EFFECTIVE_METHOD)
        metrics.responseCode = integer(CURLINFO_RESPONSE_CODE)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        metrics.startDate = Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000 - metrics.total
        return metrics
    }

    /// Whether the C string at `pointer` has the bytes of `text` (what `String(cString:)` would
    /// make of it, when `text` is valid UTF-8, as every Swift String is).
    private static func same(_ pointer: UnsafePointer<CChar>, as text: String) -> Bool {
        let length = strlen(pointer)
        guard length == text.utf8.count else { return false }
        let fast = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return length == 0 }
            return memcmp(base, pointer, length) == 0
        }
        return fast ?? false
    }
}
