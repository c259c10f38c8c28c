import AFKit

/// The envelope stage's reader of response bodies (`{status, message, result}`).
enum EnvelopeHarness {
    /// Input: a response body, read with the default keys and with `code`/`msg`/`data`.
    /// A success's result is exactly the text of the body's result member (the value the JSON
    /// parser keeps for that key), or `null` when there is none.
    static func run(_ input: UnsafeRawBufferPointer) {
        let body = Array(input)
        var custom = EnvelopeSpec()
        custom.statusKey = "code"
        custom.messageKey = "msg"
        custom.resultKey = "data"
        custom.success = ["1", "ok"]
        custom.commonFailure = ["401"]
        for spec in [EnvelopeSpec(), custom] {
            guard case .success(let result)? = try? ResponseEnvelope.evaluate(body, spec: spec) else { continue }
            guard case .object(let members)? = try? JSONParser.parse(bytes: body) else {
                FuzzInvariant.check(false, "a success comes from a JSON object")
                return
            }
            let expected = members.last { $0.key == spec.resultKey }?.value ?? .null
            let actual = try? JSONParser.parse(bytes: result)
            FuzzInvariant.check(
                actual == expected,
                "result \(String(decoding: result, as: UTF8.self).debugDescription) is the \(spec.resultKey) member")
        }
    }
}
