// swift-tools-version:6.0
import PackageDescription

// Layers depend only downward: afcli → AFCLI → AFKit → AFCurl → CCurlShim, and AFKit → CXMLShim,
// CFileShim, CDeflateShim, CSQLiteShim, CDigestShim. A file may import only the modules its
// target lists here (scripts/check-layers, the first step of `make test`).
// The executable alone also links CProcessArguments.
let package = Package(
    name: "afcli",
    products: [
        .executable(name: "afcli", targets: ["afcli"])
    ],
    targets: [
        .target(
            name: "CCurlShim",
            // libcurl is opened with dlopen on first use (ccurl_dyn.c): an answer from the cache
            // never loads its dependency tree. libssl/libcrypto are the ones libcurl loads too
            // (ccurl_tls.c: chain-wide pinning). libidn2 (ccurl_idna.c) is opened on first use.
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        .target(
            name: "CXMLShim",
            // libxml2 is opened with dlopen on first use (see cxml_shim.c): headers only here.
            cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])]
        ),
        // zlib's deflate for --compress request bodies (libz is already loaded by libcurl).
        // zlib for --compress, opened on first use (cdeflate_shim.c), not linked.
        .target(name: "CDeflateShim"),
        // O_DIRECT and fallocate for downloads (Linux calls behind _GNU_SOURCE).
        .target(name: "CFileShim"),
        // SQLite for the response cache, opened with dlopen on first use (csqlite_shim.c): headers only.
        .target(name: "CSQLiteShim"),
        // SHA-256 of cached bodies from libcrypto (already loaded for libcurl), found with dlopen.
        .target(name: "CDigestShim"),
        // Hands argv to the Swift runtime so it need not parse /proc/self/maps (executable only).
        .target(name: "CProcessArguments"),
        .target(name: "AFCurl", dependencies: ["CCurlShim"]),
        .target(
            name: "AFKit",
            dependencies: [
                "AFCurl", "CXMLShim", "CFileShim", "CDeflateShim", "CSQLiteShim", "CDigestShim",
            ]),
        .target(name: "AFCLI", dependencies: ["AFKit"]),
        .executableTarget(name: "afcli", dependencies: ["AFCLI", "CProcessArguments"]),
        // The fuzz harnesses are plain functions, built with everything else so they keep
        // compiling; only `make fuzz` (scripts/fuzz) links them into libFuzzer executables.
        .target(name: "AFFuzzHarnesses", dependencies: ["AFCLI", "AFKit", "AFCurl"], path: "Tests/Fuzz/Harnesses"),
        .testTarget(name: "AFCurlTests", dependencies: ["AFCurl", "CCurlShim"]),
        // Fixtures/ holds data the tests read by path (the AWS SigV4 vectors botocore computed).
        .testTarget(
            name: "AFKitTests", dependencies: ["AFKit", "AFCurl", "CCurlShim"], exclude: ["Fixtures"]),
        .testTarget(name: "AFCLITests", dependencies: ["AFCLI", "AFKit"]),
        // Replays the committed seed corpus through every harness (Tests/Fuzz/corpus/<harness>/).
        .testTarget(name: "AFFuzzTests", dependencies: ["AFFuzzHarnesses"], path: "Tests/Fuzz/CorpusTests"),
    ],
    swiftLanguageModes: [.v6]
)
