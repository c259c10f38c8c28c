import AFCurl

/// The request stages that authenticate a request for its URL (`--auth-cmd`, then
/// `--aws-sigv4`), kept with the request: a redirect to the same origin runs them again for the
/// new URL (a fresh signature, the command asked again), and one to another origin drops the
/// headers they set (`RedirectPolicy.follow`). What they set are credentials, hidden wherever
/// afcli shows a request (`HeaderRedaction`).
package struct RequestAuthentication: Sendable {
    /// `--auth-cmd`, when given.
    package var command: AuthCommand?
    /// `--aws-sigv4`, when given.
    package var signer: AWSSigV4Stage?
    /// The lower-cased names of the header fields the stages set on their last run.
    package private(set) var headerNames: Set<String> = []

    package init(command: AuthCommand?, signer: AWSSigV4Stage?) {
        self.command = command
        self.signer = signer
    }

    /// Runs the stages for `request` (the command first, so that the signature covers its
    /// headers) and keeps them, with the names of what they set, on it.
    package static func apply(_ stages: RequestAuthentication, to request: inout PreparedRequest) throws {
        var stages = stages
        let before = request.headers
        if let command = stages.command { try command.apply(to: &request) }
        if let signer = stages.signer { try signer.apply(to: &request) }
        stages.headerNames = Set(
            request.headers.filter { field in !before.contains(field) }.map { ASCIICase.lowercased($0.name) })
        request.authentication = stages
    }

    /// Signs `request` with `signer` after the stages it already ran (a .http file's
    /// `Authorization: AWS …`, in place of `--aws-sigv4`), and keeps the signer with them, so that
    /// a redirect signs again or drops the signature as it does `--aws-sigv4`'s.
    package static func sign(_ request: inout PreparedRequest, with signer: AWSSigV4Stage) throws {
        var stages = request.authentication ?? RequestAuthentication(command: nil, signer: nil)
        let before = request.headers
        try signer.apply(to: &request)
        stages.signer = signer
        stages.headerNames.formUnion(
            request.headers.filter { field in !before.contains(field) }.map { ASCIICase.lowercased($0.name) })
        request.authentication = stages
    }

    /// `request` without the header fields the stages set, which belong to the URL they ran for.
    package func removingHeaders(from request: inout PreparedRequest) {
        request.headers.removeAll { headerNames.contains(ASCIICase.lowercased($0.name)) }
    }
}
