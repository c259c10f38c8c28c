import Glibc

/// The parts of one progress bar line, and how they are fitted into the terminal's width.
///
/// A line that is wider than the terminal wraps, and every `\r` redraw then starts a new line
/// (in a 40-column pane the bar scrolls the screen). So the line is fitted before it is drawn:
/// the bar gets narrower, then the least useful parts are left out, one after another (time
/// left, rate, bar, label, byte count), until what remains fits; the percent (or, without a
/// total, the byte count) is kept longest.
struct ProgressLine: Equatable {
    /// The label (a file name, `upload`), already cut to `ProgressMeter.labelWidth`.
    var label: String
    /// The part done between 0 and 1, when the total is known.
    var fraction: Double?
    /// `12.3 MiB`.
    var size: String
    /// `1.2 MiB/s`.
    var rate: String
    /// `ETA 0:12`, `in 0:03` or the elapsed time; nil when there is nothing to show.
    var time: String?

    /// The widest the bar's inside gets, and the narrowest it is drawn before it is left out.
    static let widestBar = 20
    static let narrowestBar = 5
    /// The separator between parts.
    static let separator = "  "

    /// The line at its fullest.
    var full: String { render(Layout()) }

    /// The fullest line of at most `width` terminal cells.
    func fitted(to width: Int) -> String {
        var layout = Layout()
        while true {
            let text = render(layout)
            if Self.cells(text) <= width { return text }
            guard layout.reduce() else { break }
        }
        // Not even the percent fits: cut it (a terminal a few cells wide).
        return String(render(layout).prefix(max(width, 0)))
    }

    /// Which parts a rendering shows, from everything down to the percent alone.
    private struct Layout {
        var barWidth = ProgressLine.widestBar
        var showsTime = true
        var showsRate = true
        var showsBar = true
        var showsLabel = true
        var showsSize = true

        /// Takes one step down; false when nothing is left to take away. The bar narrows to
        /// half its width first, then the time and the rate go, then the rest of the bar.
        mutating func reduce() -> Bool {
            if showsBar && barWidth > ProgressLine.widestBar / 2 {
                barWidth -= 1
            } else if showsTime {
                showsTime = false
            } else if showsRate {
                showsRate = false
            } else if showsBar && barWidth > ProgressLine.narrowestBar {
                barWidth -= 1
            } else if showsBar {
                showsBar = false
            } else if showsLabel {
                showsLabel = false
            } else if showsSize {
                showsSize = false
            } else {
                return false
            }
            return true
        }
    }

    /// The text for one layout; a part that is not shown takes no separator either.
    private func render(_ layout: Layout) -> String {
        var parts: [String] = []
        if layout.showsLabel, !label.isEmpty { parts.append(label) }
        if let fraction {
            let percent = String(Int(fraction * 100))
            parts.append(String(repeating: " ", count: 3 - percent.count) + percent + "%")
            if layout.showsBar {
                let filled = Int(fraction * Double(layout.barWidth))
                parts.append(
                    "[" + String(repeating: "#", count: filled)
                        + String(repeating: " ", count: layout.barWidth - filled) + "]")
            }
        }
        // Without a total the byte count is all there is to say: it stays.
        if layout.showsSize || fraction == nil { parts.append(size) }
        if layout.showsRate { parts.append(rate) }
        if layout.showsTime, let time { parts.append(time) }
        return parts.joined(separator: Self.separator)
    }

    /// The number of terminal cells `text` takes: East Asian wide characters and emoji take
    /// two, combining marks none, everything else one.
    static func cells(_ text: String) -> Int {
        var count = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: break
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
                0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
                count += 2
            default: count += 1
            }
        }
        return count
    }
}

/// The width of the terminal standard error is on.
enum TerminalWidth {
    /// The width assumed when it cannot be learnt (a bar forced onto a pipe).
    static let fallback = 80

    /// The columns of the terminal on standard error (TIOCGWINSZ, asked at every redraw so a
    /// resized window is followed), else `COLUMNS`, else nil.
    static func standardError() -> Int? {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let text = getenv("COLUMNS"), let columns = Int(String(cString: text)), columns > 0 { return columns }
        return nil
    }
}
