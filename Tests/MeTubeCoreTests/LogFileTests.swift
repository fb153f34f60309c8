import Foundation
import Logging
import Testing
import TestSupport
@testable import MeTubeCore

/// The log file: swift-log events as lines, rotation by size, tokens never written.
@Suite struct LogFileTests {
    @Test func eventsAreWrittenOneSafeLineEachWithTokensMasked() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = RotatingLogFile(url: directory.url.appendingPathComponent("state/metube.log"))
        file.redact("hunter2-token")
        let logger = Logger(label: "metube.test") { FileLogHandler(label: $0, file: file) }
        logger.info("GET /records?ckAPIToken=abc123&ckWebAuthToken=xyz789 failed", metadata: ["body": "hunter2-token\u{1B}[2J"])
        logger.debug("not written at info")
        let text = try String(contentsOf: file.url, encoding: .utf8)
        #expect(text.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1)
        #expect(text.contains("info metube.test: GET /records?ckAPIToken=<redacted>&ckWebAuthToken=<redacted> failed body=<redacted>[2J"))
        #expect(!text.contains("abc123") && !text.contains("xyz789") && !text.contains("hunter2") && !text.contains("\u{1B}"))
        let mode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aWiderFileAndFolderThatExistAreNarrowedAtTheFirstWrite() throws {
        // Given a log folder of mode 0755 holding a log file of mode 0644
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url.appendingPathComponent("metube")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let url = folder.appendingPathComponent("metube.log")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data("old line\n".utf8), attributes: [.posixPermissions: 0o644]))

        // When metube logs a line
        RotatingLogFile(url: url).append("new line")

        // Then both are private to the user, and the old lines are kept
        let fileMode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
        #expect(try String(contentsOf: url, encoding: .utf8) == "old line\nnew line\n")
    }

    @Test func theFileRotatesBySizeAndKeepsAFew() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = RotatingLogFile(url: directory.url.appendingPathComponent("metube.log"), maximumBytes: 1_024, keep: 2)
        for index in 0..<100 { file.append("line \(index) " + String(repeating: "x", count: 90)) }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(names == ["metube.log", "metube.log.1", "metube.log.2"])
        for name in names {
            let size = try FileManager.default.attributesOfItem(atPath: directory.path(name))[.size] as? Int ?? 0
            #expect(size <= 1_024)
        }
        #expect(try String(contentsOfFile: directory.path("metube.log"), encoding: .utf8).contains("line 99 "))
    }

    @Test func redactionMasksValuesAfterEveryMarker() {
        #expect(LogRedaction.redact("Authorization: Bearer abc.def") == "Authorization: <redacted> <redacted>")
        #expect(LogRedaction.redact("url?token=t1&x=2") == "url?token=<redacted>&x=2")
        #expect(LogRedaction.redact("no secrets here") == "no secrets here")
        let once = LogRedaction.redact("GET /x?ckAPIToken=abc&token=def")
        #expect(once == "GET /x?ckAPIToken=<redacted>&token=<redacted>")
        #expect(LogRedaction.redact(once) == once, "masking twice keeps the mask")
    }
}
