import AFKit
import Glibc

/// The directory of `--output-dir`, where each request's final body is saved as `NAME.body`.
///
/// File names are chosen once, in the order the requests are written, so they do not depend on
/// which request finishes first: the name made safe (anything but letters, digits, `.`, `-` and
/// `_` becomes `_`, no leading dot, at most 100 bytes), then `-2`, `-3`… for a name already taken.
/// Files are created 0600 (bodies can hold secrets), replaced when they exist, and never opened
/// through a symbolic link or when they belong to another user.
struct BatchOutputDirectory {
    /// The directory as given.
    let path: String
    /// The file name of each request, by its index.
    let fileNames: [String]

    /// Uses `path` (creating it 0700 when missing) for requests named `names`.
    init(path: String, names: [String]) throws {
        var info = stat()
        if stat(path, &info) != 0 {
            guard errno == ENOENT else {
                throw BatchFileError.badDirectory(path: path, reason: SystemError.message(errno))
            }
            guard mkdir(path, 0o700) == 0 else {
                throw BatchFileError.badDirectory(path: path, reason: SystemError.message(errno))
            }
        } else if info.st_mode & S_IFMT != S_IFDIR {
            throw BatchFileError.badDirectory(path: path, reason: "not a directory")
        }
        self.path = path
        fileNames = BatchOutputDirectory.fileNames(for: names)
    }

    /// Unique, safe `NAME.body` file names for `names`, in order.
    static func fileNames(for names: [String]) -> [String] {
        var taken: Set<String> = []
        return names.map { name in
            let base = safeName(name)
            var candidate = base + ".body"
            var counter = 2
            while taken.contains(candidate) {
                candidate = "\(base)-\(counter).body"
                counter += 1
            }
            taken.insert(candidate)
            return candidate
        }
    }

    /// `name` with every byte outside `[A-Za-z0-9._-]` replaced by `_`, leading dots dropped,
    /// cut to 100 bytes; `request` when nothing is left.
    static func safeName(_ name: String) -> String {
        var bytes: [UInt8] = []
        for byte in name.utf8 {
            let safe =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            bytes.append(safe ? byte : UInt8(ascii: "_"))
        }
        let trimmed = bytes.drop { $0 == UInt8(ascii: ".") }.prefix(100)
        return trimmed.isEmpty ? "request" : String(decoding: trimmed, as: UTF8.self)
    }

    /// Creates (or empties) the body file of request `index`; returns its path and descriptor.
    func create(index: Int) throws -> (String, Int32) {
        let file = FileIO.join(path, fileNames[index])
        // Truncated only once the open file is known to be the user's own regular file.
        let descriptor = try FileIO.openOwnedRegularFile(file, flags: O_WRONLY | O_CREAT, mode: 0o600)
        guard ftruncate(descriptor, 0) == 0 else {
            let code = errno
            close(descriptor)
            throw BatchFileError.cannotWrite(path: file, code: code)
        }
        return (file, descriptor)
    }
}
