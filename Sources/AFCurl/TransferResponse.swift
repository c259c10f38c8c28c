/// The status line and header fields of one final (non-1xx) response, exactly as received.
/// Parsed once and only read after that, so an immutable object handed on by reference (a head
/// goes into results, outcomes and reports).
package final class ResponseHead: Sendable {
    /// The status code, e.g. 200.
    package let statusCode: Int
    /// The reason phrase as sent ("OK"); empty for HTTP/2 and HTTP/3, which have none.
    package let reasonPhrase: String
    /// The protocol token of the status line: `HTTP/1.0`, `HTTP/1.1`, `HTTP/2`, `HTTP/3`.
    package let httpVersion: String
    /// The header fields, decoded when read.
    package let fields: HeaderFields
    /// A content or transfer coding libcurl could not decode, so the body is as received (the
    /// transport sets it; nil for every other head).
    package let keptCoding: KeptCoding?

    package convenience init(
        statusCode: Int, reasonPhrase: String, httpVersion: String,
        headers: [(name: String, value: String)], keptCoding: KeptCoding? = nil
    ) {
        self.init(
            statusCode: statusCode, reasonPhrase: reasonPhrase, httpVersion: httpVersion,
            fields: HeaderFields(headers), keptCoding: keptCoding)
    }

    package init(
        statusCode: Int, reasonPhrase: String, httpVersion: String, fields: HeaderFields,
        keptCoding: KeptCoding? = nil
    ) {
        self.statusCode = statusCode
        self.reasonPhrase = reasonPhrase
        self.httpVersion = httpVersion
        self.fields = fields
        self.keptCoding = keptCoding
    }

    /// Header fields in the order received; repeated names stay separate. Each read decodes them
    /// all: look one up with `value(for:)`.
    package var headers: [(name: String, value: String)] { fields.decoded }

    /// The same head with other header fields (a replay's `Age`, redacted values).
    package func replacingHeaders(_ headers: [(name: String, value: String)]) -> ResponseHead {
        ResponseHead(
            statusCode: statusCode, reasonPhrase: reasonPhrase, httpVersion: httpVersion,
            fields: HeaderFields(headers), keptCoding: keptCoding)
    }

    /// The same head with `coding` as the coding its body kept (nil for none).
    package func keeping(_ coding: KeptCoding?) -> ResponseHead {
        ResponseHead(
            statusCode: statusCode, reasonPhrase: reasonPhrase, httpVersion: httpVersion, fields: fields,
            keptCoding: coding)
    }

    /// The first value of the named header, compared case-insensitively.
    package func value(for name: String) -> String? {
        fields.firstValue(named: name)
    }

    /// Every value of the named header in order, compared case-insensitively.
    package func values(for name: String) -> [String] {
        fields.values(named: name)
    }
}

/// What libcurl reports about a finished transfer: built once when the transfer ends and only
/// read after that, so it is an immutable object handed on by reference (an outcome travels
/// through the client, the exchange, its result and every report).
package final class TransferOutcome: Sendable {
    /// The final response's status code (0 when none arrived).
    package let statusCode: Int
    /// The URL libcurl last used.
    package let effectiveURL: String
    /// The absolute target of a 3xx response's `Location`, resolved by libcurl; nil otherwise.
    package let redirectURL: String?
    /// The HTTP version used: `HTTP/1.0`, `HTTP/1.1`, `HTTP/2`, `HTTP/3`, or "" when unknown.
    package let httpVersion: String
    /// The IP address connected to, when there was a connection.
    package let primaryIP: String?
    /// The port connected to, when there was a connection.
    package let primaryPort: Int?
    /// Body bytes received, as they came over the wire (before decoding).
    package let bytesDownloaded: Int64
    /// Body bytes sent.
    package let bytesUploaded: Int64
    /// Seconds from start to finish of the transfer.
    package let totalTime: Double
    /// The head of the final response, as given to `TransferEvents.responseHead`.
    package let head: ResponseHead?
    /// The transfer's phase timings and connection facts.
    package let metrics: TransferMetrics

    package init(
        statusCode: Int, effectiveURL: String, redirectURL: String? = nil, httpVersion: String = "",
        primaryIP: String? = nil, primaryPort: Int? = nil, bytesDownloaded: Int64 = 0,
        bytesUploaded: Int64 = 0, totalTime: Double = 0, head: ResponseHead? = nil,
        metrics: TransferMetrics = TransferMetrics()
    ) {
        self.statusCode = statusCode
        self.effectiveURL = effectiveURL
        self.redirectURL = redirectURL
        self.httpVersion = httpVersion
        self.primaryIP = primaryIP
        self.primaryPort = primaryPort
        self.bytesDownloaded = bytesDownloaded
        self.bytesUploaded = bytesUploaded
        self.totalTime = totalTime
        self.head = head
        self.metrics = metrics
    }

    /// The same outcome with other metrics (the queue time a batch adds once the transfer ends).
    package convenience init(_ outcome: TransferOutcome, metrics: TransferMetrics) {
        self.init(
            statusCode: outcome.statusCode, effectiveURL: outcome.effectiveURL, redirectURL: outcome.redirectURL,
            httpVersion: outcome.httpVersion, primaryIP: outcome.primaryIP, primaryPort: outcome.primaryPort,
            bytesDownloaded: outcome.bytesDownloaded, bytesUploaded: outcome.bytesUploaded,
            totalTime: outcome.totalTime, head: outcome.head, metrics: metrics)
    }
}

/// Receives a transfer's events as libcurl produces them; errors thrown here stop the transfer
/// and come back from `EasyHandle.perform` as `CurlError` of kind `.responseHandlerFailed`.
package protocol TransferEvents: AnyObject {
    /// The request head exactly as written to the wire (only when `reportsRequestHeads` is on);
    /// called again if libcurl resends (a digest round trip, a retry on a stale connection).
    /// An error thrown here stops the transfer at libcurl's next callback.
    func requestHeadSent(_ text: String) throws
    /// The head of the response whose body follows; never a 1xx or a digest challenge that
    /// libcurl answers itself.
    func responseHead(_ head: ResponseHead) throws
    /// One chunk of the (decoded) response body; valid only during the call.
    func responseBody(_ chunk: UnsafeRawBufferPointer) throws
    /// Asked after the head and after each body chunk; false ends the transfer there, cleanly,
    /// as if the response were complete (nothing more of the body would be used).
    func wantsMoreBody() -> Bool
    /// Polled while the transfer runs; true stops it with `.interrupted`.
    func shouldAbort() -> Bool
    /// Progress of the current transfer: body bytes so far and expected (0 when unknown).
    func transferProgress(downloaded: Int64, expectedDownload: Int64, uploaded: Int64, expectedUpload: Int64)
}

extension TransferEvents {
    /// Ignores request heads by default.
    package func requestHeadSent(_ text: String) throws {}
    /// Reads every body to its end by default.
    package func wantsMoreBody() -> Bool { true }
    /// Never aborts by default (the process interrupt flag is checked regardless).
    package func shouldAbort() -> Bool { false }
    /// Ignores progress by default.
    package func transferProgress(
        downloaded: Int64, expectedDownload: Int64, uploaded: Int64, expectedUpload: Int64
    ) {}
}

/// ASCII-only case folding for header names, which are tokens (RFC 9110 §5.1).
package enum ASCIICase {
    /// Lower-cases A–Z and leaves every other byte alone.
    package static func lowercased(_ text: String) -> String {
        // Text without an upper-case letter (most names compared) is returned without a copy.
        guard text.utf8.contains(where: isUpper) else { return text }
        return String(decoding: text.utf8.map(lower), as: UTF8.self)
    }

    /// Whether two header names are equal ignoring ASCII case; compared byte by byte, without
    /// lower-cased copies.
    package static func equal(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // Native strings (nearly all) are compared in their own UTF-8 buffers, without iterators.
        let fast = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                equal(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right))
            }
        }
        if let fast, let result = fast { return result }
        return zip(lhs.utf8, rhs.utf8).allSatisfy { lower($0) == lower($1) }
    }

    /// Whether two byte strings are equal ignoring ASCII case.
    static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count where lower(lhs[index]) != lower(rhs[index]) {
            return false
        }
        return true
    }

    /// Whether `byte` is A–Z.
    private static func isUpper(_ byte: UInt8) -> Bool {
        byte >= 0x41 && byte <= 0x5A
    }

    /// `byte` with A–Z lower-cased.
    private static func lower(_ byte: UInt8) -> UInt8 {
        isUpper(byte) ? byte + 0x20 : byte
    }
}

/// How one transfer ended: its outcome, or why it failed.
///
/// A concrete enum rather than `Result<TransferOutcome, CurlError>`: the first use of a generic
/// type whose parameters must conform to a protocol makes the Swift runtime search every
/// protocol conformance in the executable (~100,000 instructions and their page faults, at every
/// start of a single request).
package enum TransferResult {
    case success(TransferOutcome)
    case failure(CurlError)
}
