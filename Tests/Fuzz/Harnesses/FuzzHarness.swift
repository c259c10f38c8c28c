/// The parsers and decoders that read what users and servers send, each as a function of one
/// input that libFuzzer drives (`make fuzz`) and the seed corpus replays in the unit tests.
///
/// A harness returns normally for every input; a crash, an assertion, a sanitizer report or a
/// broken invariant (`FuzzInvariant.check`) is a finding. Inputs from the fuzzer are arbitrary
/// bytes; harnesses that take text decode them as UTF-8 with replacement, as the CLI receives it.
package enum FuzzHarness: String, CaseIterable, Sendable {
    case requestItem = "request-item"
    case nestedKey = "nested-key"
    case url
    case json
    case xml
    case binaryPlist = "binary-plist"
    case multipart
    case contentDisposition = "content-disposition"
    case contentRange = "content-range"
    case downloadState = "download-state"
    case responseHead = "response-head"
    case httpFile = "http-file"
    case commandLine = "command-line"
    case lineReader = "line-reader"
    case configFile = "config-file"
    case environmentURL = "environment-url"
    case writeOut = "write-out"
    case cacheControl = "cache-control"
    case cacheHead = "cache-head"
    case envelope
    case jsonpath
    case eventStream = "event-stream"
    case xpath
    case regex

    /// Runs the harness on one input.
    package func run(_ input: UnsafeRawBufferPointer) {
        switch self {
        case .requestItem: ItemHarnesses.requestItems(input)
        case .nestedKey: ItemHarnesses.nestedKey(input)
        case .url: URLHarness.run(input)
        case .json: FormatterHarnesses.json(input)
        case .xml: FormatterHarnesses.xml(input)
        case .binaryPlist: FormatterHarnesses.binaryPropertyList(input)
        case .multipart: MultipartHarness.run(input)
        case .contentDisposition: DownloadHarnesses.contentDisposition(input)
        case .contentRange: DownloadHarnesses.contentRange(input)
        case .downloadState: DownloadHarnesses.downloadState(input)
        case .responseHead: ResponseHeadHarness.run(input)
        case .httpFile: BatchHarnesses.httpFile(input)
        case .commandLine: BatchHarnesses.commandLine(input)
        case .lineReader: BatchHarnesses.lineReader(input)
        case .configFile: ConfigHarnesses.configFile(input)
        case .environmentURL: ConfigHarnesses.environmentURL(input)
        case .writeOut: MetricsHarness.writeOut(input)
        case .cacheControl: CacheHarnesses.cacheControl(input)
        case .cacheHead: CacheHarnesses.cacheHead(input)
        case .envelope: EnvelopeHarness.run(input)
        case .jsonpath: JSONPathHarness.run(input)
        case .eventStream: EventStreamHarness.run(input)
        case .xpath: XPathHarness.run(input)
        case .regex: RegexHarness.run(input)
        }
    }

    /// Runs the harness on bytes held in an array (corpus replay).
    package func run(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { run($0) }
    }
}

/// Input helpers shared by the harnesses.
enum FuzzInput {
    /// The input as text, invalid UTF-8 replaced as the CLI's argv decoding does.
    static func text(_ input: UnsafeRawBufferPointer) -> String {
        String(decoding: input, as: UTF8.self)
    }

    /// The input split at NUL bytes into several strings (several arguments, several fields).
    static func fields(_ input: UnsafeRawBufferPointer) -> [String] {
        input.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Properties that must hold for every input; a violation stops the fuzzer like a crash does.
enum FuzzInvariant {
    /// Stops the process with `message` when `condition` is false (libFuzzer records the input).
    static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError("fuzz invariant broken: \(message())") }
    }
}
