/// ANSI colours for the parts of an exchange; every string is empty when colour is off.
struct Palette {
    var requestMethod = ""
    var requestTarget = ""
    var protocolVersion = ""
    var headerName = ""
    var headerValue = ""
    var success = ""
    var redirect = ""
    var failure = ""
    var reset = ""

    /// The palette for a terminal that takes colour, or a colourless one.
    init(enabled: Bool) {
        guard enabled else { return }
        requestMethod = "\u{1B}[1;32m"
        requestTarget = "\u{1B}[36m"
        protocolVersion = "\u{1B}[34m"
        headerName = "\u{1B}[36m"
        headerValue = "\u{1B}[0m"
        success = "\u{1B}[1;32m"
        redirect = "\u{1B}[1;33m"
        failure = "\u{1B}[1;31m"
        reset = "\u{1B}[0m"
    }

    /// The colour of a status code's class.
    func status(_ code: Int) -> String {
        switch code {
        case 200..<300: return success
        case 300..<400: return redirect
        default: return failure
        }
    }
}
