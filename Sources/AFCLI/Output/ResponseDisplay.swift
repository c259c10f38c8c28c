import AFKit

extension Settings {
    /// `--pretty`: what is done to a response body, HTTPie's values.
    package enum PrettyMode: String, CaseIterable, Equatable, Sendable {
        /// Formatted and coloured.
        case all
        /// Coloured, laid out as received.
        case colors
        /// Formatted, without colour.
        case format
        /// The exact bytes.
        case none
    }

    /// `--style`: the colour scheme.
    package enum ColorStyle: String, CaseIterable, Equatable, Sendable {
        /// The terminal's own 16 colours, so light and dark themes both read well.
        case auto
        /// Bold and dim only, no hues.
        case mono
        /// Monokai in 256 colours.
        case monokai
        /// Solarized in 256 colours.
        case solarized
    }

    /// `--events`: how server-sent events and JSON lines are written.
    package enum EventsMode: String, CaseIterable, Equatable, Sendable {
        /// Laid out for reading where bodies are formatted (a terminal, `--pretty`), else as received.
        case auto
        /// One compact JSON object or value a line, flushed each: for `jq`.
        case json
    }

    /// `--log`: the request log format.
    package enum RequestLogFormat: String, CaseIterable, Equatable, Sendable {
        /// CJNetwork's log block (spec/CJNETWORK.md §1).
        case cj
        /// No log.
        case none
    }
}

/// Checks the values of the response options as the parser reads them.
enum ResponseOptionParser {
    /// `--indent`: 0 to 16 spaces.
    static func indent(_ text: String) throws(OptionValueError) -> Int {
        guard !text.isEmpty, text.count <= 2, text.allSatisfy({ ("0"..."9").contains($0) }), let width = Int(text),
            width <= 16
        else { throw OptionValueError("is not a number of spaces from 0 to 16") }
        return width
    }

    /// `--max-depth`: a number of levels from 1 to `FormattingLimits.hardMaximumDepth`.
    static func depth(_ text: String) throws(OptionValueError) -> Int {
        let most = FormattingLimits.hardMaximumDepth
        guard let levels = try? OptionValueParser.positiveInteger(text), levels <= most else {
            throw OptionValueError("is not a number of levels from 1 to \(most)")
        }
        return levels
    }

    /// `--accept-status`: codes and ranges from 100 to 599, comma-separated.
    static func statusCodes(_ text: String) throws(OptionValueError) -> StatusCodeSet {
        guard let codes = StatusCodeSet(parsing: text) else {
            throw OptionValueError("is not a list of status codes and ranges such as 200-299,304")
        }
        return codes
    }

    /// `--accept-type`: media types and the keywords json, xml, plist and image, comma-separated.
    static func contentTypes(_ text: String) throws(OptionValueError) -> Set<String> {
        guard let types = AcceptableContentTypes.parse(text) else {
            throw OptionValueError("is not a list of media types (type/subtype) or json, xml, plist, image")
        }
        return types
    }

    /// `--jsonpath`: an RFC 9535 query.
    static func jsonPath(_ text: String) throws(OptionValueError) -> JSONPathQuery {
        do {
            return try JSONPathQuery(parsing: text)
        } catch {
            throw OptionValueError("is not a JSONPath query: \(error.description)")
        }
    }
}

/// How response bodies are shown, settled once from the options and the terminal (HTTPie's
/// `--pretty` rules): a terminal gets formatted, coloured output; a pipe or file the exact bytes
/// unless `--pretty` asks for more. Colour given by `--pretty=all|colors` is written even into a
/// pipe or file, and even under `NO_COLOR` (no-color.org: a command-line option overrides it); the
/// default colour on a terminal is off under `NO_COLOR` and `TERM=dumb`, and `FORCE_COLOR` or
/// `CLICOLOR_FORCE` colour a pipe or file (not under `NO_COLOR`).
struct ResponseDisplay {
    /// Reformat bodies (indentation, sorting, null removal).
    var formats = false
    /// Colour bodies and heads.
    var colors = false
    /// Output goes to a terminal (binary notices, image summaries, charset conversion).
    var isTerminal = false
    var style = Settings.ColorStyle.auto
    /// `--indent`, else 4 for JSON and 2 for XML.
    var indent: Int?
    var sortsKeys = false
    var dropsNulls = false
    var plistDisplay = PropertyListDisplay.xml
    /// Flush after every chunk, and read JSON as a sequence of values (`--stream`).
    var streams = false
    /// `--quiet`: formatter warnings are not shown.
    var quiet = false
    /// `--jsonpath`: print what this query selects from a JSON body instead of the body.
    var jsonPath: JSONPathQuery?
    /// `--events=json`: each server-sent event or JSON-lines value as one compact JSON line.
    var eventsAsJSON = false
    /// `--max-depth`: the deepest nesting any formatter or `--jsonpath` reads.
    var maximumDepth = FormattingLimits.maximumDepth

    /// The display for the options, where output goes and whether it takes colour by default
    /// (`Terminal`: a terminal's colour, or the environment's FORCE_COLOR for anything else).
    init(options: Settings, toTerminal: Bool, terminal: Terminal) {
        isTerminal = toTerminal
        switch options.output.pretty {
        case .all?: (formats, colors) = (true, true)
        case .colors?: (formats, colors) = (false, true)
        case .format?: (formats, colors) = (true, false)
        case .none?: (formats, colors) = (false, false)
        // Forced colour leaves the layout alone, as --pretty=colors does.
        case nil: (formats, colors) = (toTerminal, toTerminal ? terminal.colorsStdout : terminal.forcesColor)
        }
        style = options.output.style
        indent = options.output.indent
        sortsKeys = options.output.sorted
        dropsNulls = options.output.dropNulls
        plistDisplay = options.output.plistAs
        streams = options.output.stream
        eventsAsJSON = options.output.events == .json
        quiet = options.output.quiet
        jsonPath = options.output.jsonPath
        maximumDepth = options.output.maximumDepth
    }

    /// A display that prints bodies as received.
    init() {}

    /// Whether bodies need a formatter at all.
    var transforms: Bool { formats || colors }

    /// The token colours for the style, or none.
    var syntaxColors: SyntaxColors {
        colors ? Palette.syntaxColors(for: style) : .none
    }

    /// JSON options for a body; `sniffed` when the media type did not say JSON. A body may hold
    /// several values one after another (NDJSON, httpbin's /stream/N), each shown on its own.
    func jsonOptions(sniffed: Bool) -> JSONFormatOptions {
        var options = JSONFormatOptions(
            layout: formats ? .indented(indent ?? 4) : .preserved, colors: syntaxColors,
            sortsKeys: formats && sortsKeys, dropsNulls: formats && dropsNulls, allowsSequence: true,
            reportsErrors: !sniffed, escapesControls: isTerminal)
        options.maximumDepth = maximumDepth
        return options
    }

    /// The bounds of `--jsonpath`.
    var jsonPathLimits: JSONPathStreamLimits { JSONPathStreamLimits(maximumDepth: maximumDepth) }

    /// XML options.
    var xmlOptions: XMLFormatOptions {
        XMLFormatOptions(
            indent: indent ?? 2, colors: syntaxColors, preservesLayout: !formats, maximumDepth: maximumDepth,
            escapesControls: isTerminal)
    }
}
