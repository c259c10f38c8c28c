/// A signing or authentication stage that could not make the request (`--aws-sigv4`,
/// `--auth-cmd`): the request is not sent.
package enum AuthStageError: ClassifiedError, Equatable, CustomStringConvertible {
    /// `--aws-sigv4`'s value is not `aws:amz:REGION:SERVICE` (or a shorter form curl accepts).
    case badSigV4Scope(String, reason: String)
    /// `--aws-sigv4` without keys: neither `-a KEY:SECRET` nor `AWS_ACCESS_KEY_ID` and
    /// `AWS_SECRET_ACCESS_KEY`.
    case missingAWSKeys
    /// The body's SHA-256 is needed (a signature, `AFCLI_BODY_SHA256`) but the body cannot be
    /// read twice: standard input longer than afcli keeps.
    case bodyNotReplayable(option: String)
    /// `--auth-cmd` printed a line that is not a `Name: value` header.
    case badHeaderLine(line: Int, text: String)
    /// `--auth-cmd` printed more than afcli reads of it.
    case tooMuchOutput(limit: Int)
    /// The libcurl afcli loaded was built without the scheme `-A` asks for.
    case schemeUnsupported(String)
    /// `-A negotiate` without a Kerberos ticket in the credential cache.
    case noKerberosTicket(cache: String)

    package var failureClass: FailureClass { .badInput }

    package var description: String {
        switch self {
        case .badSigV4Scope(let value, let reason):
            return "--aws-sigv4 '\(value)': \(reason) (expected aws:amz:REGION:SERVICE)"
        case .missingAWSKeys:
            return "--aws-sigv4 needs keys: -a ACCESS_KEY:SECRET_KEY, or AWS_ACCESS_KEY_ID and "
                + "AWS_SECRET_ACCESS_KEY in the environment"
        case .bodyNotReplayable(let option):
            return "\(option) needs the body's SHA-256, and a long body from standard input cannot be read "
                + "twice: save it to a file and send it with @FILE"
        case .badHeaderLine(let line, let text):
            return "--auth-cmd printed a line that is not a header (Name: value) on line \(line): '\(text)'"
        case .tooMuchOutput(let limit):
            return "--auth-cmd printed more than \(limit) bytes of headers"
        case .schemeUnsupported(let scheme):
            return "-A \(scheme): the libcurl afcli uses was built without it ("
                + (scheme == "ntlm" ? "NTLM" : "SPNEGO over GSS-API") + " is not among its features)"
        case .noKerberosTicket(let cache):
            return "-A negotiate needs a Kerberos ticket, and there is none in \(cache): get one with kinit"
        }
    }
}
