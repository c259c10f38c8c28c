import AFKit

/// Turns a request spec into the request sent, with the options that shape the body: the one
/// path a command line and every line or entry of `afcli run` share.
enum RequestPreparation {
    /// The encodings this libcurl decodes, asked of it once: they do not change while afcli runs.
    static let acceptEncoding = HTTPClient.supportedAcceptEncoding

    /// Serializes `spec` through the request stages: the config environment of `settings`, the
    /// serializer (the boundary applied), the encryption hook, then compression, so that
    /// Content-Encoding describes the bytes on the wire. `spec` keeps the encoding actually used,
    /// for `--curl` and the request log. `acceptEncoding`: when the caller knows it without asking
    /// libcurl (`CacheStage.acceptEncoding`); `acceptLanguage`: see `RequestSerializer.prepare`;
    /// `crypto`: the caller's stages when it uses them after sending too, else made here.
    static func serialize(
        _ spec: inout RequestSpec, settings: ResolvedSettings, environment: [String: String],
        standardInput: StandardInputBodySource?, acceptLanguage: String? = nil, crypto: CryptoStages? = nil,
        acceptEncoding: String? = nil
    ) throws -> PreparedRequest {
        let options = settings.options
        // A boundary only means something in a multipart body: --boundary implies --multipart
        // over the default JSON and over --form (the issue's `--form --boundary B` gives M1).
        if options.request.boundary != nil, options.request.encoding != .json, options.request.encoding != .plist {
            spec.encoding = .multipart
        }
        if let profile = settings.profile { try EnvironmentStage(profile: profile).apply(to: &spec) }
        var prepared = try RequestSerializer.prepare(
            spec, environment: environment, acceptEncoding: acceptEncoding ?? Self.acceptEncoding,
            standardInput: standardInput, boundary: options.request.boundary, acceptLanguage: acceptLanguage)
        try encode(&prepared, settings: settings, crypto: crypto)
        return prepared
    }

    /// The stages after serialization, in pipeline order: the encryption hook, compression, then
    /// the authentication stages that sign what is sent (`AuthStages`). A `.http` file's requests,
    /// serialized as the file writes them, pass here too, so that `--encrypt-cmd`, `--compress`,
    /// `--auth-cmd` and `--aws-sigv4` act on every request of a run.
    static func encode(
        _ prepared: inout PreparedRequest, settings: ResolvedSettings, crypto: CryptoStages? = nil
    ) throws {
        let options = settings.options
        if let crypto {
            try crypto.encrypt(&prepared)
        } else if settings.encryptCommand != nil {
            // Stages are made only when they have something to encrypt (most requests have not).
            try CryptoStages(settings).encrypt(&prepared)
        }
        if options.request.compress { try RequestCompression.apply(to: &prepared) }
        if !options.request.authStages.isEmpty || options.request.authType == .oauth2 {
            try AuthStages.apply(to: &prepared, options: options)
        }
    }
}
