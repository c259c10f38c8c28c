import AFCurl

/// Chooses the file name of a download that was not given `-o` (DESIGN §2, downloads).
///
/// The order is HTTPie's: the `Content-Disposition` name (`filename*` first), else the request
/// URL's last path segment, else `index`. Whatever the server or URL says is reduced to a plain
/// base name, so a download can never land outside the directory it was started in, and never
/// takes the name of one of afcli's working files (`NAME.part`, `NAME.part.state`).
package enum DownloadName {
    /// The name used when neither the header nor the URL yields one (HTTPie and wget's choice).
    package static let fallback = "index"

    /// The longest name in UTF-8 bytes: leaves room for `-NNNN` and `.part.state` within the
    /// usual 255-byte limit of Linux file systems.
    package static let maximumLength = 200

    /// The name for a response: from `contentDisposition`, else from `url`, else `index`; then,
    /// when the name has no extension, one from `contentType` (browsers do the same for a header
    /// name without one).
    package static func choose(contentDisposition: String?, url: String, contentType: String?) -> String {
        let suggested = contentDisposition.flatMap(ContentDisposition.filename(from:)).flatMap(sanitize)
        var name = suggested ?? lastPathSegment(of: url).flatMap(sanitize) ?? fallback
        if !hasExtension(name), let contentType,
            let ext = MediaTypeExtensions.fileExtension(forContentType: contentType)
        {
            name = truncated(name + "." + ext)
        }
        return avoidingWorkingNames(name)
    }

    /// The suffixes of afcli's own working files beside a download: the partial file, its state
    /// and the state's temporary files.
    private static let workingSuffixes = [".part", ".part.state", ".part.state.tmp"]

    /// A name from the network that looks like one of afcli's working files (`x.part`,
    /// `x.part.state`, `x.part.state.tmp`, `x.part.state.tmp-123`) gets a `_` appended, so one
    /// download can never plant a partial file or state that a later `--resume` continues.
    package static func avoidingWorkingNames(_ name: String) -> String {
        isWorkingName(name) ? truncated(name, limit: maximumLength - 1) + "_" : name
    }

    /// Whether `name` ends like one of afcli's working files.
    package static func isWorkingName(_ name: String) -> Bool {
        if workingSuffixes.contains(where: { name.hasSuffix($0) }) { return true }
        // `x.part.state.tmp-PID`, the claim files of `DownloadStateFile.create`.
        guard let dash = name.lastIndex(of: "-") else { return false }
        let digits = name[name.index(after: dash)...]
        return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
            && name[..<dash].hasSuffix(".part.state.tmp")
    }

    /// A safe base name from untrusted text, or nil when nothing is left: only what follows the
    /// last `/` or `\`; control characters and bidirectional overrides removed (they disguise
    /// names on a terminal); leading dots and surrounding spaces removed (no hidden files, no
    /// `..`); cut to `maximumLength` bytes, keeping the extension.
    package static func sanitize(_ text: String) -> String? {
        var base = Substring(text)
        if let separator = base.lastIndex(where: { $0 == "/" || $0 == "\\" }) {
            base = base[base.index(after: separator)...]
        }
        var scalars = String.UnicodeScalarView()
        for scalar in base.unicodeScalars where !isRemoved(scalar) {
            scalars.append(scalar)
        }
        var name = String(scalars)
        while let first = name.first, first == "." || first == " " { name.removeFirst() }
        while let last = name.last, last == " " { name.removeLast() }
        guard !name.isEmpty else { return nil }
        return truncated(name)
    }

    /// Whether a scalar is dropped from names: C0 and C1 controls, DEL, and the Unicode
    /// direction marks and overrides.
    private static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `name` cut to `maximumLength` UTF-8 bytes at a character boundary, its extension kept.
    private static func truncated(_ name: String, limit: Int = maximumLength) -> String {
        guard name.utf8.count > limit else { return name }
        let (stem, ext) = split(name)
        let suffix = ext.map { "." + $0 } ?? ""
        var kept = ""
        for character in stem {
            if kept.utf8.count + String(character).utf8.count + suffix.utf8.count > limit { break }
            kept.append(character)
        }
        return kept.isEmpty ? String(name.utf8.prefix(limit)) ?? fallback : kept + suffix
    }

    /// The last segment of the URL's path, percent-decoded; nil when the path ends in `/`.
    package static func lastPathSegment(of url: String) -> String? {
        let reference = URLReference(parsing: url)
        guard let segment = reference.path.split(separator: "/", omittingEmptySubsequences: false).last,
            !segment.isEmpty
        else { return nil }
        return URLPercentEncoding.decode(segment)
    }

    /// Whether the name has an extension: a dot that is neither its first nor its last character.
    package static func hasExtension(_ name: String) -> Bool {
        split(name).ext != nil
    }

    /// The name with `-number` before its extension (`big-1.iso`, `data-2.tar.gz`), so the copy
    /// still opens with the same program.
    package static func numbered(_ name: String, _ number: Int) -> String {
        let (stem, ext) = split(name)
        return stem + "-\(number)" + (ext.map { "." + $0 } ?? "")
    }

    /// Compound extensions kept whole when numbering (`.tar.gz` rather than `.gz`).
    private static let compoundStems = ["tar"]

    /// Splits a name at its extension: `big.iso` → (`big`, `iso`), `a.tar.gz` → (`a`, `tar.gz`),
    /// `.profile` or `name.` → (name, nil).
    static func split(_ name: String) -> (stem: String, ext: String?) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex
        else { return (name, nil) }
        let stem = String(name[..<dot])
        let ext = String(name[name.index(after: dot)...])
        let inner = split(stem)
        if let innerExt = inner.ext, compoundStems.contains(ASCIICase.lowercased(innerExt)) {
            return (inner.stem, innerExt + "." + ext)
        }
        return (stem, ext)
    }
}
