"""scripts/check-layers: a Swift file may import only the package modules its target declares."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check-layers"

MANIFEST = """// swift-tools-version:6.0
import PackageDescription
// A comment naming "Top" must not count as a declaration.
let package = Package(
    name: "p",
    targets: [
        .target(name: "Bottom"),
        .target(name: "Middle", dependencies: ["Bottom"]),
        .target(name: "Top", dependencies: ["Middle"]),
        .target(name: "Elsewhere", dependencies: ["Top"], path: "Other/Place"),
        .testTarget(name: "TopTests", dependencies: ["Top"]),
    ]
)
"""


def check(package):
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(package)], capture_output=True, text=True, timeout=30
    )


def make_package(tmp_path, files):
    (tmp_path / "Package.swift").write_text(MANIFEST)
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_the_project_itself_is_layered():
    result = check(ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_declared_and_foreign_imports_pass(tmp_path):
    package = make_package(
        tmp_path,
        {
            "Sources/Top/A.swift": "import Middle\nimport Glibc\n@testable import Foundation\n",
            "Sources/Middle/B.swift": "import Bottom\n",
            "Other/Place/C.swift": "import Top\n",
            "Tests/TopTests/T.swift": "@testable import Top\nimport XCTest\n",
        },
    )
    result = check(package)
    assert result.returncode == 0, result.stderr


def test_an_import_that_skips_a_layer_fails(tmp_path):
    package = make_package(
        tmp_path,
        {
            "Sources/Top/A.swift": "import Middle\n\nimport Bottom\n",
            "Other/Place/C.swift": "@_exported import Middle\n",
            "Tests/TopTests/T.swift": "@testable import Middle\n",
        },
    )
    result = check(package)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "check-layers: Other/Place/C.swift:1: imports Middle, which target Elsewhere does not depend on"
        " (it declares: Top)",
        "check-layers: Sources/Top/A.swift:3: imports Bottom, which target Top does not depend on"
        " (it declares: Middle)",
        "check-layers: Tests/TopTests/T.swift:1: imports Middle, which target TopTests does not depend on"
        " (it declares: Top)",
    ]
