// swift-tools-version:6.0
import PackageDescription

// Layers depend only downward: afcli → AFCLI → AFKit → AFCurl → CCurlShim, and AFKit → CXMLShim,
// CFileShim, CDeflateShim.
// The executable alone also links CProcessArguments.
let package = Package(
    name: "afcli",
    products: [
        .executable(name: "afcli", targets: ["afcli"])
    ],
    targets: [
        .target(
            name: "CCurlShim",
            // libssl/libcrypto are the ones libcurl already loads (ccurl_tls.c: chain-wide pinning),
            // and so is libidn2 (ccurl_idna.c: IDN host names).
            linkerSettings: [
                .linkedLibrary("curl"), .linkedLibrary("ssl"), .linkedLibrary("crypto"), .linkedLibrary("idn2"),
            ]
        ),
        .target(
            name: "CXMLShim",
            // libxml2 is opened with dlopen on first use (see cxml_shim.c): headers only here.
            cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])]
        ),
        // zlib's deflate for --compress request bodies (libz is already loaded by libcurl).
        .target(name: "CDeflateShim", linkerSettings: [.linkedLibrary("z")]),
        // O_DIRECT and fallocate for downloads (Linux calls behind _GNU_SOURCE).
        .target(name: "CFileShim"),
        // Hands argv to the Swift runtime so it need not parse /proc/self/maps (executable only).
        .target(name: "CProcessArguments"),
        .target(name: "AFCurl", dependencies: ["CCurlShim"]),
        .target(name: "AFKit", dependencies: ["AFCurl", "CXMLShim", "CFileShim", "CDeflateShim"]),
        .target(name: "AFCLI", dependencies: ["AFKit"]),
        .executableTarget(name: "afcli", dependencies: ["AFCLI", "CProcessArguments"]),
        .testTarget(name: "AFKitTests", dependencies: ["AFKit"]),
        .testTarget(name: "AFCLITests", dependencies: ["AFCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
