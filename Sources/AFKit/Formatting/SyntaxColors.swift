/// The escape sequences a formatter writes around each kind of token, precomputed once so that
/// colour costs one `memcpy` per token; every sequence is empty when colour is off.
///
/// The CLI's `Palette` builds one from the chosen `--style`; formatters only copy the bytes.
package struct SyntaxColors: Sendable {
    /// JSON object keys and property-list `<key>` text.
    package var key = StaticBytes.empty
    /// JSON strings.
    package var string = StaticBytes.empty
    /// JSON numbers.
    package var number = StaticBytes.empty
    /// `true` and `false`.
    package var boolean = StaticBytes.empty
    /// `null`.
    package var null = StaticBytes.empty
    /// Brackets, braces, commas and colons.
    package var punctuation = StaticBytes.empty
    /// XML tag names with their angle brackets.
    package var tag = StaticBytes.empty
    /// XML attribute names.
    package var attributeName = StaticBytes.empty
    /// XML attribute values, quotes included.
    package var attributeValue = StaticBytes.empty
    /// XML comments.
    package var comment = StaticBytes.empty
    /// XML declarations, processing instructions, DOCTYPE and CDATA markers.
    package var declaration = StaticBytes.empty
    /// XML entity references (`&amp;`).
    package var entity = StaticBytes.empty
    /// Emphasis for one-line summaries (image type).
    package var emphasis = StaticBytes.empty
    /// Ends any of the above.
    package var reset = StaticBytes.empty

    /// Colours that are all off.
    package init() {}

    /// Whether any colour is on.
    package var isEnabled: Bool { !reset.isEmpty }

    /// The colourless set, shared.
    package static let none = SyntaxColors()
}
