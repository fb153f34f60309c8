import Foundation
import MeTubeCore
import Testing
import TestSupport

/// `make install` and `make uninstall`, done by the same scripts with the debug binaries, into a
/// temporary DESTDIR: every file in place, man pages that render without warnings, completions
/// that complete, units systemd accepts, and an uninstall that leaves nothing behind.
@Suite(.serialized) struct InstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let prefix = "/usr/local"
    static let systemdAnalyze = "/usr/bin/systemd-analyze"

    /// A DESTDIR with everything installed, and the folders the docs were generated in.
    struct Installation {
        let work = TemporaryDirectory("metube-install")
        var destDir: String { work.path("dest") }
        var installed: URL { URL(fileURLWithPath: destDir + InstallTests.prefix) }

        func path(_ relative: String) -> String { installed.appendingPathComponent(relative).path }

        func manifest() throws -> [String] {
            try String(contentsOfFile: path("share/doc/metube/MANIFEST"), encoding: .utf8).split(separator: "\n").map(String.init)
        }
    }

    private static func script(_ name: String, _ arguments: [String], destDir: String? = nil) throws -> ProcessOutcome {
        var environment = ["PREFIX": prefix]
        if let destDir { environment["DESTDIR"] = destDir }
        let outcome = try runProcess(root.appendingPathComponent("scripts/\(name)"), arguments, environment: environment)
        #expect(outcome.status == 0, "scripts/\(name) \(arguments) failed: \(outcome.stderr)")
        return outcome
    }

    private static func install() throws -> Installation {
        let installation = Installation()
        let binaries = ProductBinary.directory.path
        try #require(FileManager.default.isExecutableFile(atPath: binaries + "/generate-manual"),
                     "build the man page generator first: swift build --product generate-manual (make test does)")
        _ = try script("generate-docs", ["man", binaries, installation.work.path("man")])
        _ = try script("generate-docs", ["completions", binaries, installation.work.path("completions")])
        _ = try script("install", [binaries, installation.work.path("man"), installation.work.path("completions")], destDir: installation.destDir)
        return installation
    }

    @Test func everyFileIsInPlaceAndListedInTheManifest() throws {
        let installation = try Self.install()
        defer { installation.work.remove() }
        let expected = [
            "bin/metube", "bin/metube-server",
            "share/man/man1/metube.1", "share/man/man1/metube.sync.1", "share/man/man1/metube-server.1", "share/man/man5/metube-config.5",
            "share/bash-completion/completions/metube", "share/bash-completion/completions/metube-server",
            "share/zsh/site-functions/_metube", "share/zsh/site-functions/_metube-server",
            "share/fish/vendor_completions.d/metube.fish", "share/fish/vendor_completions.d/metube-server.fish",
            "share/doc/metube/config.toml", "share/doc/metube/nginx/metube-server.conf",
            "lib/systemd/system/metube-server.service", "lib/systemd/user/metube-sync.service", "lib/systemd/user/metube-sync.timer",
        ]
        let manifest = try installation.manifest()
        for relative in expected {
            #expect(manifest.contains(relative), "\(relative) is not in the manifest")
            #expect(FileManager.default.fileExists(atPath: installation.path(relative)), "\(relative) is not installed")
        }
        for relative in manifest {
            #expect(FileManager.default.fileExists(atPath: installation.path(relative)), "the manifest lists \(relative), which is missing")
        }
        let unit = try String(contentsOfFile: installation.path("lib/systemd/system/metube-server.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=\(Self.prefix)/bin/metube-server "))
        #expect(!unit.contains("@BINDIR@"))
    }

    @Test func bothInstalledBinariesAreStrippedAndPrintTheOneVersion() throws {
        let installation = try Self.install()
        defer { installation.work.remove() }
        for program in ["metube", "metube-server"] {
            let outcome = try runProcess(URL(fileURLWithPath: installation.path("bin/\(program)")), ["--version"])
            #expect(outcome.status == 0)
            #expect(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == MeTubeVersion.current)
            let sections = try runProcess(URL(fileURLWithPath: "/usr/bin/readelf"), ["--section-headers", installation.path("bin/\(program)")])
            #expect(sections.status == 0, "\(sections.stderr)")
            #expect(!sections.stdout.contains(".symtab"), "bin/\(program) still has its symbol table")
        }
    }

    @Test func everyManPageRendersWithoutWarnings() throws {
        let installation = try Self.install()
        defer { installation.work.remove() }
        let pages = try installation.manifest().filter { $0.hasPrefix("share/man/") }
        #expect(pages.count >= 10)
        for page in pages {
            let outcome = try runProcess(URL(fileURLWithPath: "/usr/bin/man"), ["--warnings=w", "-l", installation.path(page)],
                                         environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
            #expect(outcome.status == 0, "\(page): \(outcome.stderr)")
            #expect(outcome.stderr.isEmpty, "\(page) renders with warnings: \(outcome.stderr)")
            #expect(outcome.stdout.count > 200, "\(page) renders almost nothing")
        }
    }

    @Test func bashCompletesSubcommandsFromTheInstalledScript() throws {
        let installation = try Self.install()
        defer { installation.work.remove() }
        let completion = installation.path("share/bash-completion/completions/metube")
        func complete(_ words: [String]) throws -> [String] {
            let script = """
                source "$1"; shift
                COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                _metube metube "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let outcome = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script, "bash", completion] + words,
                                         environment: ["PATH": installation.path("bin") + ":/usr/bin:/bin"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return outcome.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["metube", "ch"]) == ["channels"])
        let channelSubcommands = try complete(["metube", "channels", ""])
        for subcommand in ["list", "add", "remove"] { #expect(channelSubcommands.contains(subcommand)) }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: systemdAnalyze), "systemd-analyze is not installed"))
    func systemdAcceptsTheUnits() throws {
        let installation = try Self.install()
        defer { installation.work.remove() }
        let units = ["lib/systemd/system/metube-server.service", "lib/systemd/user/metube-sync.service", "lib/systemd/user/metube-sync.timer"]
        // The units name the binaries by their final path; point them at the DESTDIR copies so
        // systemd can check that the commands exist.
        let staged = installation.work.url.appendingPathComponent("units")
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
        var paths: [String] = []
        for unit in units {
            let text = try String(contentsOfFile: installation.path(unit), encoding: .utf8)
                .replacingOccurrences(of: "\(Self.prefix)/bin/", with: installation.path("bin") + "/")
            let path = staged.appendingPathComponent(URL(fileURLWithPath: unit).lastPathComponent).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        for path in paths {
            let outcome = try runProcess(URL(fileURLWithPath: Self.systemdAnalyze), ["verify", "--man=no", path])
            #expect(outcome.status == 0, "\(path): \(outcome.stderr)")
            #expect(outcome.stderr.isEmpty, "systemd-analyze has remarks on \(path): \(outcome.stderr)")
        }
    }

    @Test func uninstallRemovesExactlyWhatWasInstalled() throws {
        let installation = try Self.install()
        defer { installation.work.remove() }
        let keep = installation.path("share/man/man1/other.1")
        #expect(FileManager.default.createFile(atPath: keep, contents: Data("keep".utf8)))
        _ = try Self.script("install", ["uninstall"], destDir: installation.destDir)
        let entries = FileManager.default.enumerator(at: URL(fileURLWithPath: installation.destDir), includingPropertiesForKeys: [.isRegularFileKey])
        let files = (entries?.allObjects as? [URL] ?? []).filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        #expect(files.map(\.path) == [keep])
    }
}

/// `metube status` names the version, as `--version` does.
@Suite struct StatusVersionTests {
    @Test func statusPrintsTheVersion() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let metube = ProductBinary.url("metube")
        let text = try runProcess(metube, ["status", "--data-dir", directory.url.path])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("metube     \(MeTubeVersion.current)\n"))
        let json = try runProcess(metube, ["status", "--json", "--data-dir", directory.url.path])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["version"] as? String == MeTubeVersion.current)
    }
}
