#!/usr/bin/env python3
"""Checks that every target of a package imports only what it declares as a direct dependency.

SwiftPM's `--explicit-target-dependency-import-check` accepts a module that arrives through another dependency; this
does not. For each target of `swift package dump-package`, every `import M` in its Swift files must name the target
itself, a target it depends on by name, a module of a product it depends on (read from that package's own manifest
in .build/checkouts), or a module of the toolchain. It also refuses dependency products whose name starts with an
underscore (a package's private module), except those listed in ALLOWED_UNDERSCORED with the one file that may
import them.

Usage: scripts/ci/check-imports.py [--package-path DIR]   (default: the repository; Benchmarks and Fuzz are packages
of their own and can be checked the same way). Exit status 0 when every import is declared, 1 otherwise, 64 for a
bad argument. Needs a resolved package (`swift package resolve`, or any build).
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# Modules of the toolchain and the platform: they need no declared dependency.
TOOLCHAIN_MODULES = {
    "Swift", "_Concurrency", "_StringProcessing", "Foundation", "FoundationEssentials", "FoundationInternationalization",
    "FoundationNetworking", "FoundationXML", "CoreFoundation", "Dispatch", "Glibc", "Musl", "Darwin", "WinSDK", "ucrt",
    "Android", "Synchronization", "Observation", "RegexBuilder", "Distributed", "Testing", "XCTest", "os", "SwiftShims",
}

# An underscored product that a target may depend on, and the one file allowed to import its module (which says why).
ALLOWED_UNDERSCORED: dict[str, str] = {
    "_ConnectionPoolModule": "Sources/PostStorePostgres/PostgresPoolFailure.swift",
}

REPOSITORY = Path(__file__).resolve().parents[2]  # this file is scripts/ci/check-imports.py

IMPORT = re.compile(
    r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][\w]*)"
)


def dump_package(path: Path) -> dict:
    # A scratch folder of its own: the package's .build may be locked by a build running beside this check.
    with tempfile.TemporaryDirectory() as scratch:
        output = subprocess.run(
            ["swift", "package", "--package-path", str(path), "--scratch-path", scratch, "dump-package"],
            check=True, capture_output=True, text=True,
        ).stdout
    return json.loads(output)


def product_modules(package_path: Path, manifest: dict) -> dict[tuple[str, str], set[str]]:
    """Maps (package identity, product name) to the modules the product's targets define."""
    modules: dict[tuple[str, str], set[str]] = {}
    for dependency in manifest.get("dependencies", []):
        if "fileSystem" in dependency:
            entry = dependency["fileSystem"][0]
            identity, checkout = entry["identity"], Path(entry["path"])
        else:
            entry = dependency["sourceControl"][0]
            identity = entry["identity"]
            remote = entry.get("location", {}).get("remote") or [{}]
            names = [Path(remote[0].get("urlString", identity)).stem, identity]
            # The package's own checkouts, else the repository's (Benchmarks resolves the same versions).
            folders = [package_path / ".build" / "checkouts", REPOSITORY / ".build" / "checkouts"]
            candidates = [folder / name for folder in folders for name in names]
            checkout = next((candidate for candidate in candidates if candidate.exists()), candidates[0])
        if not checkout.exists():
            raise SystemExit(f"check-imports: {checkout} is missing: resolve the package first (swift package resolve)")
        theirs = dump_package(checkout)
        for product in theirs.get("products", []):
            modules[(identity, product["name"])] = set(product["targets"])
    return modules


def target_folder(package_path: Path, target: dict) -> Path:
    if target.get("path"):
        return package_path / target["path"]
    base = "Tests" if target["type"] == "test" else "Sources"
    return package_path / base / target["name"]


def imports_of(folder: Path) -> dict[str, list[str]]:
    """Each imported module with the files (and lines) that import it."""
    found: dict[str, list[str]] = {}
    for file in sorted(folder.rglob("*.swift")):
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
            match = IMPORT.match(line)
            if match:
                found.setdefault(match.group(1), []).append(f"{file}:{number}")
    return found


def check(package_path: Path) -> list[str]:
    manifest = dump_package(package_path)
    products = product_modules(package_path, manifest)
    local_targets = {target["name"] for target in manifest["targets"]}
    problems = []
    for target in manifest["targets"]:
        if target["type"] in ("system", "binary", "plugin"):
            continue
        declared = {target["name"]}
        for dependency in target.get("dependencies", []):
            if "byName" in dependency:
                declared.add(dependency["byName"][0])
            elif "target" in dependency:
                declared.add(dependency["target"][0])
            elif "product" in dependency:
                name, package = dependency["product"][0], dependency["product"][1]
                if name.startswith("_") and name not in ALLOWED_UNDERSCORED:
                    problems.append(f"{target['name']}: depends on the underscored product {name} of {package}, "
                                    "a package's private module")
                declared |= products.get((package.lower(), name), {name})
        folder = target_folder(package_path, target)
        for module, places in sorted(imports_of(folder).items()):
            if module in ALLOWED_UNDERSCORED:
                allowed = str(package_path / ALLOWED_UNDERSCORED[module])
                problems += [f"{place}: only {ALLOWED_UNDERSCORED[module]} may import {module}"
                             for place in places if place.rsplit(":", 1)[0] != allowed]
            if module in declared or module in TOOLCHAIN_MODULES:
                continue
            if module in local_targets:
                fix = f"add \"{module}\" to {target['name']}'s dependencies"
            else:
                fix = f"add the product that provides {module} to {target['name']}'s dependencies"
            problems.append(f"{places[0]}: {target['name']} imports {module} but does not declare it "
                            f"(it arrives through another dependency); {fix} in Package.swift")
    return problems


class UsageError(argparse.ArgumentParser):
    """argparse, exiting 64 on a bad argument as the other scripts of this folder do."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"check-imports: {message}", file=sys.stderr)
        sys.exit(64)


def main() -> int:
    parser = UsageError(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package-path", default=str(REPOSITORY))
    arguments = parser.parse_args()
    package_path = Path(arguments.package_path).resolve()
    if not (package_path / "Package.swift").is_file():
        print(f"check-imports: {arguments.package_path} is not a Swift package (no Package.swift there)", file=sys.stderr)
        return 64
    try:
        problems = check(package_path)
    except subprocess.CalledProcessError as error:
        detail = (error.stderr or "").strip().splitlines()
        print(f"check-imports: swift package dump-package failed in {error.cmd[3]}: "
              f"{detail[-1] if detail else 'exit ' + str(error.returncode)}", file=sys.stderr)
        return 1
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        print(f"check-imports: {len(problems)} undeclared import(s) in {package_path}", file=sys.stderr)
        return 1
    print(f"check-imports: every import of {package_path.name} is a declared dependency")
    return 0


if __name__ == "__main__":
    sys.exit(main())
