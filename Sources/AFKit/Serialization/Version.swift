/// The version afcli reports in its `User-Agent` and `--version`.
package enum AFKitVersion {
    /// The release this tree builds, as `MAJOR.MINOR.PATCH`.
    package static let current = "0.1.0"

    /// The default `User-Agent` value: AF has no Linux form, so afcli names itself.
    package static let userAgent = "afcli/" + current
}
