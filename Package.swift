// swift-tools-version:6.0
import PackageDescription

// Layers depend only downward: afcli → AFCLI → AFKit → AFCurl → CCurlShim, and AFKit → CXMLShim.
let package = Package(
    name: "afcli",
    products: [
        .executable(name: "afcli", targets: ["afcli"])
    ],
    targets: [
        .target(
            name: "CCurlShim",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        .target(
            name: "CXMLShim",
            cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])],
            linkerSettings: [.linkedLibrary("xml2")]
        ),
        .target(name: "AFCurl", dependencies: ["CCurlShim"]),
        .target(name: "AFKit", dependencies: ["AFCurl", "CXMLShim"]),
        .target(name: "AFCLI", dependencies: ["AFKit"]),
        .executableTarget(name: "afcli", dependencies: ["AFCLI"]),
        .testTarget(name: "AFKitTests", dependencies: ["AFKit"]),
        .testTarget(name: "AFCLITests", dependencies: ["AFCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
