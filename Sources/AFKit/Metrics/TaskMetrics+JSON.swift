/// `--meta=json`: the metrics as JSON with AFNetworking's names (`NSURLSessionTaskMetrics` and
/// `NSURLSessionTaskTransactionMetrics`).
///
/// Dates are numbers of seconds since 1970 with six decimals (`NSDate`'s
/// `timeIntervalSince1970`), so `jq` can subtract them. A date AF would leave nil is `null`: the
/// lookup and connect dates of a reused connection, the TLS dates without TLS. libcurl 7.88 does
/// not say when the request's last byte went out, so `requestEndDate` is `requestStartDate` for
/// a request without a body and `responseStartDate` (an upper bound) for one with a body.
extension TaskMetrics {
    /// The metrics as one JSON object: `taskInterval`, `redirectCount`, `transactionMetrics`.
    package var jsonValue: JSONValue {
        .object([
            JSONMember(
                key: "taskInterval",
                value: .object([
                    JSONMember(key: "start", value: Self.date(startDate)),
                    JSONMember(key: "duration", value: Self.seconds(duration)),
                ])),
            JSONMember(key: "redirectCount", value: .number(String(redirectCount))),
            JSONMember(key: "transactionMetrics", value: .array(transactions.map(Self.transactionValue))),
        ])
    }

    /// The compact JSON text of `jsonValue`, without a final line feed.
    package var jsonText: String {
        // Every number here is written by DecimalText or String(Int), so it is valid JSON.
        (try? JSONWriter.encodeToString(jsonValue)) ?? "{}"
    }

    /// One hop as AF's transaction metrics.
    static func transactionValue(_ hop: TransferMetrics) -> JSONValue {
        let start = hop.startDate
        let reused = hop.reusedConnection
        func at(_ offset: Double) -> JSONValue { date(start + offset) }
        func optionalAt(_ offset: Double, when present: Bool) -> JSONValue { present ? at(offset) : .null }
        let secure = hop.appConnect > 0 && !reused
        let connectEnd = max(hop.connect, hop.appConnect)
        let requestEnd = hop.bodyBytesSent > 0 ? hop.startTransfer : hop.preTransfer
        var members: [JSONMember] = [
            JSONMember(
                key: "request",
                value: .object([
                    JSONMember(key: "HTTPMethod", value: text(hop.method)),
                    JSONMember(key: "URL", value: text(hop.effectiveURL)),
                ])),
            JSONMember(
                key: "response",
                value: hop.responseCode > 0
                    ? .object([JSONMember(key: "statusCode", value: .number(String(hop.responseCode)))]) : .null),
            JSONMember(key: "fetchStartDate", value: at(0)),
            JSONMember(key: "domainLookupStartDate", value: optionalAt(0, when: !reused)),
            JSONMember(key: "domainLookupEndDate", value: optionalAt(hop.nameLookup, when: !reused)),
            JSONMember(key: "connectStartDate", value: optionalAt(hop.nameLookup, when: !reused)),
            JSONMember(key: "connectEndDate", value: optionalAt(connectEnd, when: !reused)),
            JSONMember(key: "secureConnectionStartDate", value: optionalAt(hop.connect, when: secure)),
            JSONMember(key: "secureConnectionEndDate", value: optionalAt(hop.appConnect, when: secure)),
            JSONMember(key: "requestStartDate", value: at(hop.preTransfer)),
            JSONMember(key: "requestEndDate", value: at(requestEnd)),
            JSONMember(key: "responseStartDate", value: at(hop.startTransfer)),
            JSONMember(key: "responseEndDate", value: at(hop.total)),
            JSONMember(key: "networkProtocolName", value: text(hop.protocolName)),
            JSONMember(key: "isProxyConnection", value: .bool(false)),
            JSONMember(key: "isReusedConnection", value: .bool(reused)),
            JSONMember(
                key: "resourceFetchType", value: .string(hop.answeredFromCache ? "localCache" : "networkLoad")),
            JSONMember(key: "remoteAddress", value: text(hop.remoteAddress)),
            JSONMember(key: "remotePort", value: hop.remotePort.map { .number(String($0)) } ?? .null),
            JSONMember(key: "localAddress", value: text(hop.localAddress)),
            JSONMember(key: "localPort", value: hop.localPort.map { .number(String($0)) } ?? .null),
            JSONMember(key: "countOfRequestHeaderBytesSent", value: .number(String(hop.requestBytes))),
            JSONMember(key: "countOfRequestBodyBytesSent", value: .number(String(hop.bodyBytesSent))),
            JSONMember(key: "countOfResponseHeaderBytesReceived", value: .number(String(hop.headerBytes))),
            JSONMember(key: "countOfResponseBodyBytesReceived", value: .number(String(hop.bodyBytesReceived))),
        ]
        // Not one of AF's names: the time afcli held the request before starting it (a batch).
        members.append(JSONMember(key: "queueDuration", value: seconds(hop.queue)))
        return .object(members)
    }

    /// A date as seconds since 1970 with six decimals.
    static func date(_ seconds: Double) -> JSONValue { .number(DecimalText.fixed(seconds)) }

    /// A duration in seconds with six decimals.
    static func seconds(_ value: Double) -> JSONValue { .number(DecimalText.fixed(value)) }

    /// A string, or null when there is none.
    static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
}
