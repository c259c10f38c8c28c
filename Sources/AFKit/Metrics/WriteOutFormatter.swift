/// What `--write-out` variables are made from: one finished (or failed) request.
package struct WriteOutContext: Sendable {
    /// The transfer as curl `-L` would report it (`TaskMetrics.combined`); zeros when no transfer
    /// took place.
    package var metrics: TransferMetrics
    /// Redirects followed.
    package var redirectCount: Int
    /// The URL as requested (`url`).
    package var url: String
    /// The method requested, for `method` when the transfer never started.
    package var method: String
    /// The final response's head, when one arrived.
    package var head: ResponseHead?
    /// The exit status afcli ends with (`exitcode`).
    package var exitCode: Int
    /// The error message afcli prints, without `afcli: error: ` (`errormsg`); nil when the
    /// transfer did not fail (`%{onerror}` then ends the output).
    package var errorMessage: String?
    /// Where a redirect that was not followed points (`redirect_url`).
    package var redirectURL: String?

    package init(
        metrics: TaskMetrics?, url: String, method: String, head: ResponseHead?, exitCode: Int,
        errorMessage: String? = nil, redirectURL: String? = nil
    ) {
        self.metrics = metrics?.combined ?? TransferMetrics()
        self.redirectCount = metrics?.redirectCount ?? 0
        self.url = url
        self.method = method
        self.head = head
        self.exitCode = exitCode
        self.errorMessage = errorMessage
        self.redirectURL = redirectURL
    }
}

/// Renders a `WriteOutFormat` for one request, curl's way: times as seconds with six decimals,
/// `http_code` as three digits, and `%{json}` as one object with curl's keys in curl's order.
package enum WriteOutFormatter {
    /// Bytes for one stream; a format that switches with `%{stderr}` gives several.
    package struct Chunk: Equatable, Sendable {
        /// Whether these bytes go to standard error rather than standard output.
        package var toStandardError: Bool
        package var bytes: [UInt8]

        package init(toStandardError: Bool, bytes: [UInt8]) {
            self.toStandardError = toStandardError
            self.bytes = bytes
        }
    }

    /// The output of `format` for `context`, in order. With `escapesControls` (standard output
    /// is a terminal) control characters in the values, which a server chooses, are shown as
    /// `\x1b` rather than obeyed; `escapesStandardErrorControls` does the same for what
    /// `%{stderr}` sends to standard error. The format's own text and escapes are written as given.
    package static func render(
        _ format: WriteOutFormat, _ context: WriteOutContext, escapesControls: Bool = false,
        escapesStandardErrorControls: Bool = false
    ) -> [Chunk] {
        var chunks: [Chunk] = []
        var toStandardError = false
        func append(_ bytes: [UInt8]) {
            guard !bytes.isEmpty else { return }
            if let last = chunks.last, last.toStandardError == toStandardError {
                chunks[chunks.count - 1].bytes += bytes
            } else {
                chunks.append(Chunk(toStandardError: toStandardError, bytes: bytes))
            }
        }
        func shown(_ value: String) -> [UInt8] {
            let escapes = toStandardError ? escapesStandardErrorControls : escapesControls
            return Array((escapes ? value.escapingTerminalControls : value).utf8)
        }
        for segment in format.segments {
            switch segment {
            case .literal(let bytes): append(bytes)
            case .variable(let variable): append(shown(text(variable, context)))
            case .header(let name): append(shown((context.head?.values(for: name) ?? []).joined(separator: ", ")))
            case .toStandardError: toStandardError = true
            case .toStandardOutput: toStandardError = false
            case .onError:
                // As curl: a request that did not fail ends the output here.
                guard context.errorMessage != nil else { return chunks }
            }
        }
        return chunks
    }

    /// One variable as curl prints it in text.
    package static func text(_ variable: WriteOutVariable, _ context: WriteOutContext) -> String {
        switch value(variable, context) {
        case .null: return ""
        case .string(let text): return text
        case .number(let literal):
            if variable == .httpCode || variable == .responseCode {
                return String(repeating: "0", count: max(0, 3 - literal.count)) + literal
            }
            return literal
        default:
            return jsonText(context)
        }
    }

    /// `%{json}`: every variable but `json` itself as one compact object, keys in curl's order.
    package static func jsonText(_ context: WriteOutContext) -> String {
        let members = WriteOutVariable.allCases.filter { $0 != .json }.map {
            JSONMember(key: $0.rawValue, value: value($0, context))
        }
        // Numbers come from String(Int) and DecimalText, which always write valid JSON.
        return (try? JSONWriter.encodeToString(.object(members))) ?? "{}"
    }

    /// A variable's value, typed as curl's `%{json}` types it.
    package static func value(_ variable: WriteOutVariable, _ context: WriteOutContext) -> JSONValue {
        let metrics = context.metrics
        func integer<T: BinaryInteger>(_ value: T) -> JSONValue { .number(String(value)) }
        func time(_ seconds: Double) -> JSONValue { .number(DecimalText.fixed(seconds)) }
        func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
        switch variable {
        case .contentType: return optional(metrics.contentType)
        case .errorMessage: return optional(context.errorMessage)
        case .exitCode: return integer(context.exitCode)
        case .httpCode, .responseCode: return integer(context.head?.statusCode ?? metrics.responseCode)
        case .httpVersion: return .string(metrics.curlVersionNumber)
        case .localIP: return .string(metrics.localAddress ?? "")
        case .localPort: return integer(metrics.localPort ?? 0)
        case .method: return .string(metrics.method ?? context.method)
        case .numConnects: return integer(metrics.newConnections)
        case .numHeaders: return integer(context.head?.fields.count ?? 0)
        case .numRedirects: return integer(context.redirectCount)
        case .redirectURL: return optional(context.redirectURL)
        case .remoteIP: return .string(metrics.remoteAddress ?? "")
        case .remotePort: return integer(metrics.remotePort ?? 0)
        case .scheme: return optional(metrics.scheme)
        case .sizeDownload: return integer(metrics.bodyBytesReceived)
        case .sizeHeader: return integer(metrics.headerBytes)
        case .sizeRequest: return integer(metrics.requestBytes)
        case .sizeUpload: return integer(metrics.bodyBytesSent)
        case .speedDownload: return integer(metrics.downloadSpeed)
        case .speedUpload: return integer(metrics.uploadSpeed)
        case .timeAppConnect: return time(metrics.appConnect)
        case .timeConnect: return time(metrics.connect)
        case .timeNameLookup: return time(metrics.nameLookup)
        case .timePreTransfer: return time(metrics.preTransfer)
        case .timeRedirect: return time(metrics.redirect)
        case .timeStartTransfer: return time(metrics.startTransfer)
        case .timeTotal: return time(metrics.total)
        case .url: return .string(context.url)
        case .urlEffective: return .string(metrics.effectiveURL ?? context.url)
        case .json: return .array([])
        }
    }
}
