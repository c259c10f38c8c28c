import AFCurl
import AFKit

#if canImport(Glibc)
    import Glibc
#endif

/// The response cache's readers of what servers send: Cache-Control, HTTP dates, freshness on
/// arbitrary heads, and the stored form of header fields.
enum CacheHarnesses {
    /// When the fuzzed response was received (seconds since the epoch), and requested.
    private static let responseTime: Double = 1_700_000_000
    private static let requestTime: Double = responseTime - 2
    /// 10000-01-01T00:00:00Z: the first instant an HTTP-date (four-digit years) cannot name.
    private static let endOfYear9999: Double = 253_402_300_800

    /// Input: NUL-separated field values. Cache-Control's max-age is a delta-seconds within RFC
    /// 9111's cap; each value read as an HTTP-date gives a finite time that, written back as an
    /// IMF-fixdate, reads as the same time.
    static func cacheControl(_ input: UnsafeRawBufferPointer) {
        let fields = FuzzInput.fields(input)
        let control = CacheControl(fields)
        if let maxAge = control.maxAge {
            FuzzInvariant.check((0...2_147_483_648).contains(maxAge), "max-age \(maxAge) within the cap")
            FuzzInvariant.check(!control.invalidMaxAge || maxAge >= 0, "max-age")
        }
        for field in fields {
            guard let time = HTTPDate.parse(field) else { continue }
            FuzzInvariant.check(
                time.isFinite && time == time.rounded(), "date \(field.debugDescription) is whole seconds")
            guard time < endOfYear9999 else { continue }
            let written = imfFixdate(time)
            FuzzInvariant.check(
                HTTPDate.parse(written) == time, "\(field.debugDescription) → \(written) reads as \(time)")
        }
    }

    /// Input: a status code on the first line, then header lines in the cache's stored form
    /// (`Name: value`), read with the cache's own decoder.
    ///
    /// Encoding what decodes and decoding it again gives the same fields; freshness lifetime and
    /// age are never negative and fit an integer (they are printed as whole seconds and sent as
    /// `Age`); the expiry is a finite time; a 304's merge keeps no stored field it replaces; no
    /// hop-by-hop field or field named in Connection is stored.
    static func cacheHead(_ input: UnsafeRawBufferPointer) {
        let bytes = Array(input)
        let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let status = Int(String(decoding: bytes[..<newline].prefix(3), as: UTF8.self)) ?? 200
        let headers = CacheEntry.decode(Array(bytes[min(newline + 1, bytes.count)...]))
        let again = CacheEntry.decode(CacheEntry.encode(headers))
        FuzzInvariant.check(
            again.map(\.name) == headers.map(\.name) && again.map(\.value) == headers.map(\.value),
            "stored fields survive encoding")
        let stored = CacheEntry.storable(headers)
        let connectionNamed = Set(
            headers.filter { ASCIICase.lowercased($0.name) == "connection" }.flatMap { $0.value.split(separator: ",") }
                .map { name in
                    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
                    return ASCIICase.lowercased(String(name.drop(while: blank).reversed().drop(while: blank).reversed()))
                })
        FuzzInvariant.check(
            !stored.contains {
                let name = ASCIICase.lowercased($0.name)
                return ["connection", "keep-alive", "transfer-encoding", "upgrade", "te"].contains(name)
                    || connectionNamed.contains(name)
            },
            "no hop-by-hop field is stored")
        let head = ResponseHead(statusCode: status, reasonPhrase: "", httpVersion: "HTTP/1.1", headers: stored)
        let control = CacheControl(head.values(for: "Cache-Control"))
        for method in ["GET", "POST"] {
            _ = CacheFreshness.isStorable(
                method: method, head: head, requestControl: control, responseTime: responseTime)
        }
        let lifetime = CacheFreshness.lifetime(head, responseTime: responseTime)
        FuzzInvariant.check(lifetime >= 0 && lifetime < Double(Int.max), "lifetime \(lifetime)")
        for now in [responseTime, responseTime + 3_600] {
            let age = CacheFreshness.age(head, requestTime: requestTime, responseTime: responseTime, now: now)
            FuzzInvariant.check(age >= 0 && age < Double(Int.max), "age \(age)")
        }
        let expiry = CacheFreshness.expiry(head, requestTime: requestTime, responseTime: responseTime)
        FuzzInvariant.check(expiry.isFinite, "expiry \(expiry)")
        let notModified = ResponseHead(
            statusCode: 304, reasonPhrase: "", httpVersion: "HTTP/1.1", headers: Array(stored.prefix(4)))
        let merged = CacheFreshness.merge(stored: stored, notModified: notModified)
        FuzzInvariant.check(merged.count <= stored.count + notModified.headers.count, "merge adds only the 304's")
    }

    /// `time` as an IMF-fixdate (`Thu, 01 Jan 1970 00:00:00 GMT`; the weekday is not checked).
    private static func imfFixdate(_ time: Double) -> String {
        var seconds = time_t(time)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "" }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func padded(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "Thu, \(padded(parts.tm_mday, 2)) \(months[Int(parts.tm_mon)]) \(padded(parts.tm_year + 1900, 4)) "
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)) GMT"
    }
}
