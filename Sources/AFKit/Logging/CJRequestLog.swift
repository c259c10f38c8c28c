/// CJNetwork's request log block (spec/CJNETWORK.md §1), byte for byte: one block per request,
/// with the address, the parameters before and after serialization, and the result.
package struct CJRequestLog: Equatable, Sendable {
    /// 地址: the URL before query parameters from items are appended.
    package var address: String
    /// 原始参数: the parameters as compact JSON, or `(null)`.
    package var originalParameters: String
    /// 最终参数: the body sent, as UTF-8 text, or the fallback text.
    package var finalParameters: String
    /// 结果: the response as compact JSON on success, else a message from the failure table.
    package var result: String

    package init(address: String, originalParameters: String, finalParameters: String, result: String) {
        self.address = address
        self.originalParameters = originalParameters
        self.finalParameters = finalParameters
        self.result = result
    }

    /// The block as CJNetwork prints it: two line feeds, the start line, one line per field (each
    /// ending in a space), a blank line, the end line and three line feeds. Labels use the
    /// full-width colon U+FF1A.
    package var text: String {
        "\n\n  >>>>>>>>>>>>  网络请求Start  >>>>>>>>>>>>  \n"
            + "地址：\(address) \n"
            + "原始参数：\(originalParameters) \n"
            + "最终参数：\(finalParameters) \n"
            + "结果：\(result) \n"
            + "\n  <<<<<<<<<<<<<  网络请求End  <<<<<<<<<<<<<  \n\n\n"
    }

    /// 地址 for a URL: the URL with the password of its user information replaced by `***`
    /// (`https://ann:***@host/`), and user information without a password (often a token, as
    /// in `https://TOKEN@host/`) replaced whole; the log may be kept or shared, the URL's
    /// credentials must not be in it. Everything else is left as it is.
    package static func address(_ url: String) -> String {
        SecretRedaction.url(url)
    }

    /// 最终参数 when the body is not available as text: none, streamed (multipart, a file,
    /// standard input), or not UTF-8. Full-width comma, three ASCII dots.
    package static let finalParametersFallback = "未获取到，请以原始参数为准..."

    /// `(null)`: what CJNetwork prints for parameters that are nil (Foundation's `%@` of nil).
    package static let none = "(null)"

    /// 原始参数 for a request: the data items' parameter tree as compact JSON; `==` query items,
    /// which CJNetwork would have passed as GET parameters too, come first as string members.
    /// `(null)` when there are neither. A data field given twice shows its last value, as the
    /// `NSDictionary` CJNetwork logs would hold.
    package static func originalParameters(_ parameters: JSONValue?, queryItems: [QueryItem]) -> String {
        let parameters = parameters?.lastValueWins
        var value = parameters
        if !queryItems.isEmpty {
            switch parameters {
            case nil:
                value = .object(queryMembers(queryItems))
            case .object(let members)?:
                value = .object(queryMembers(queryItems) + members)
            default:
                break
            }
        }
        guard let value, let text = try? JSONWriter.encodeToString(value) else { return none }
        return text
    }

    /// Query items as members; a repeated name becomes an array of its values.
    private static func queryMembers(_ items: [QueryItem]) -> [JSONMember] {
        var members: [JSONMember] = []
        for item in items {
            if let index = members.firstIndex(where: { $0.key == item.name }) {
                switch members[index].value {
                case .array(let values): members[index].value = .array(values + [.string(item.value)])
                case let existing: members[index].value = .array([existing, .string(item.value)])
                }
            } else {
                members.append(JSONMember(key: item.name, value: .string(item.value)))
            }
        }
        return members
    }

    /// 最终参数 for a body: the bytes as text when they were built in memory and are valid UTF-8,
    /// else the fallback.
    package static func finalParameters(bodyBytes: [UInt8]?) -> String {
        guard let bytes = bodyBytes, !bytes.isEmpty, let text = String(validating: bytes, as: UTF8.self) else {
            return finalParametersFallback
        }
        return text
    }

    /// 结果 for a failure: CJNetwork's text for the status code, or for no HTTP response at all
    /// (`nil`: DNS, refused, timeout, offline).
    package static func failureText(statusCode: Int?) -> String {
        guard let code = statusCode else { return "无法连接服务器" }
        switch code {
        case 400: return "语法错误"
        case 401: return "未通过验证"
        case 403: return "拒绝请求"
        case 404: return "找不到请求的页面"
        case 500: return "服务不可用(500 Internal Server Error)，服务器内部错误"
        case 501: return "服务不可用(501)，服务器不具有请求功能"
        // CJNetwork's own text has a typo (错误忘关); afcli prints the intended 错误网关.
        case 502: return "服务不可用(502 Bad Gateway)，错误网关"
        case 503: return "服务不可用(503 Service Unavailable)，可能是服务器正在维护或者暂停"
        case 504: return "服务不可用(504 Gateway Time-out)，网关超时"
        default: return "未知网络错误"
        }
    }

    /// 结果 for a successful response: its body as compact JSON when it is JSON, the text itself
    /// when it is other UTF-8 text, `(null)` when empty.
    package static func successText(body: [UInt8], truncated: Bool) -> String {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return none }
        if let compact = try? JSONStreamFormatter.format(body, options: JSONFormatOptions(layout: .compact)),
            compact.warnings.isEmpty, let text = String(validating: compact.output, as: UTF8.self)
        {
            return text + (truncated ? "…" : "")
        }
        guard let text = String(validating: body, as: UTF8.self) else { return "<\(body.count) bytes of binary data>" }
        return text + (truncated ? "…" : "")
    }
}
