/// Metrics: the options that show a request's timings and connection facts, as a table
/// (`--print=m`, `--verbose`), as JSON with AFNetworking's names (`--meta=json`) or through
/// curl's `--write-out` language.
extension OptionTable {
    static let metrics: [OptionSpec] = [
        OptionSpec(
            long: "write-out", scope: .request, short: "w", valueName: "FORMAT", group: .output,
            help: "print FORMAT after the response, as curl -w",
            description: "After the response, print FORMAT to standard output as curl's --write-out does: "
                + "%{variable} takes curl's variables (time_namelookup, time_connect, time_appconnect, "
                + "time_pretransfer, time_starttransfer, time_total, time_redirect, http_code, size_download, "
                + "size_upload, size_header, size_request, speed_download, speed_upload, remote_ip, remote_port, "
                + "local_ip, local_port, num_connects, num_redirects, num_headers, url, url_effective, "
                + "redirect_url, content_type, http_version, scheme, method, exitcode, errormsg), %{json} all of "
                + "them as one JSON object, %header{NAME} a response header, %{stderr} and %{stdout} switch "
                + "streams, %{onerror} prints the rest only for a failed transfer, \\n, \\r and \\t are escapes and %% is a percent sign. @FILE reads FORMAT from a "
                + "file, @- from standard input (at most 64 KiB). Also printed when the transfer fails.",
            apply: { values, text in values.output.writeOut = text ?? "" },
            reset: { $0.output.writeOut = nil }),
        OptionSpec(
            long: "meta", scope: .request, valueName: "FORMAT", group: .output,
            help: "metrics as a table (default) or json",
            description: "How the metrics are shown: table (the default) prints the phase table with the m "
                + "part of --print and with --verbose; json prints them as one line of JSON with AFNetworking's "
                + "NSURLSessionTaskMetrics names, in place of the table when m is printed, else on standard "
                + "error, so that standard output keeps the body.",
            completion: .words(Settings.MetaFormat.allCases.map(\.rawValue)),
            apply: { values, text in
                guard let format = Settings.MetaFormat(rawValue: text ?? "") else {
                    throw OptionValueError("is not table or json")
                }
                values.output.metaFormat = format
            },
            reset: { $0.output.metaFormat = .table }),
    ]
}

extension Settings {
    /// `--meta`: how the metrics are printed.
    package enum MetaFormat: String, CaseIterable, Equatable, Sendable {
        /// The phase table (`--print=m`, `--verbose`).
        case table
        /// One JSON object with AFNetworking's names.
        case json
    }
}
