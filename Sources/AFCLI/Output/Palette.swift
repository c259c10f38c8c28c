import AFKit

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

    /// The body token colours of a `--style`, built once per process: formatters copy these
    /// bytes around each token instead of building escape strings as they go.
    static func syntaxColors(for style: Settings.ColorStyle) -> SyntaxColors {
        switch style {
        case .auto: return auto
        case .mono: return mono
        case .monokai: return monokai
        case .solarized: return solarized
        }
    }

    /// SGR parameters for key, string, number, boolean, null, tag, attribute name, attribute
    /// value, comment, declaration, entity; nil leaves that token uncoloured.
    private static func colors(_ codes: [String?]) -> SyntaxColors {
        func escape(_ index: Int) -> StaticBytes {
            codes[index].map { StaticBytes("\u{1B}[\($0)m") } ?? .empty
        }
        var colors = SyntaxColors()
        colors.key = escape(0)
        colors.string = escape(1)
        colors.number = escape(2)
        colors.boolean = escape(3)
        colors.null = escape(4)
        colors.tag = escape(5)
        colors.attributeName = escape(6)
        colors.attributeValue = escape(7)
        colors.comment = escape(8)
        colors.declaration = escape(9)
        colors.entity = escape(10)
        colors.emphasis = StaticBytes("\u{1B}[1m")
        colors.reset = StaticBytes("\u{1B}[0m")
        return colors
    }

    private static let auto = colors(["1;34", "32", "36", "33", "35", "34", "36", "32", "90", "35", "33"])
    private static let mono = colors(["1", nil, nil, "1", "2", "1", nil, nil, "2", "2", nil])
    private static let monokai = colors([
        "38;5;197", "38;5;186", "38;5;141", "38;5;141", "38;5;141", "38;5;197", "38;5;148", "38;5;186", "38;5;242",
        "38;5;81", "38;5;141",
    ])
    private static let solarized = colors([
        "38;5;33", "38;5;37", "38;5;125", "38;5;136", "38;5;160", "38;5;33", "38;5;136", "38;5;37", "38;5;245",
        "38;5;61", "38;5;125",
    ])
}
