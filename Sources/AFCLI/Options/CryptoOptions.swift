import AFKit

/// The values of the encryption and envelope options (`--encrypt-cmd`, `--envelope`…), kept
/// together in `Settings.pipeline.crypto`; the environment's settings fill what they leave unset
/// (`ResolvedSettings`).
package struct CryptoOptions: Equatable, Sendable {
    /// `--encrypt-cmd`: nil for the environment's command, if any.
    package var encryptCommand: String? = nil
    /// `--decrypt-cmd`: nil for the environment's command, if any.
    package var decryptCommand: String? = nil
    /// `--no-encrypt`: neither command runs for this request.
    package var disabled = false
    /// `--encrypted-type`: nil for `text/plain`.
    package var encryptedType: String? = nil
    /// `--envelope`: print only the result of an envelope.
    package var envelope = false
    /// `--envelope-success`: nil for the environment's list (or the defaults).
    package var envelopeSuccess: [String]? = nil
    /// `--common-failure`: nil for the environment's list.
    package var envelopeCommonFailure: [String]? = nil

    /// A comma-separated list of status values; empty entries are refused.
    static func statusList(_ text: String) throws(OptionValueError) -> [String] {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !values.isEmpty, !values.contains(where: \.isEmpty) else {
            throw OptionValueError("is not a comma-separated list of status values")
        }
        return values
    }
}
