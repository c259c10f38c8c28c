import AFFuzzHarnesses
import Glibc

// libFuzzer's entry point for the harness named by AFCLI_FUZZ_HARNESS (scripts/fuzz sets it).
// This file is compiled only by scripts/fuzz, with -sanitize=fuzzer, which brings libFuzzer's main.

/// The harness this process runs, chosen once from the environment.
private let harness: FuzzHarness = {
    let name = getenv("AFCLI_FUZZ_HARNESS").map { String(cString: $0) } ?? ""
    guard let harness = FuzzHarness(rawValue: name) else {
        let names = FuzzHarness.allCases.map(\.rawValue).joined(separator: " ")
        let message = "afcli-fuzz: set AFCLI_FUZZ_HARNESS to one of: \(names)\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        exit(2)
    }
    return harness
}()

/// Runs the harness on one input from libFuzzer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    harness.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
