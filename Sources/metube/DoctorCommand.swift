import ArgumentParser
import Foundation
import MeTubeStore
import MeTubeSync

/// `metube doctor`: checks the store without changing it.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the store's files and print what was found.",
        discussion: "Changes nothing. Exits 0 when the store is healthy, 1 when a file is damaged."
    )

    @OptionGroup var store: StoreAccess

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let findings = StoreDoctor.examine(store.directory)
        let suggestions = Self.syncSuggestions(store.directory)
        if json {
            try printJSON(DoctorOutput(store: store.directory.path, healthy: !findings.contains { $0.severity == .problem }, findings: findings, suggestions: suggestions))
        } else {
            print("store \(store.directory.path)")
            for finding in findings {
                print("\(finding.severity.rawValue.uppercased().padding(toLength: 8, withPad: " ", startingAt: 0)) \(finding.subject): \(finding.message)")
            }
            for suggestion in suggestions { print("SUGGEST  sync: \(suggestion)") }
        }
        if findings.contains(where: { $0.severity == .problem }) { throw ExitCode(ExitStatus.failure) }
    }
}

extension DoctorCommand {
    /// A suggestion to force a full resync for each hub watermark or mark-sync token the last
    /// sync found refused.
    static func syncSuggestions(_ directory: URL) -> [String] {
        let rejections = SyncRejections.load(from: directory)
        return [rejections.hubWatermark, rejections.markSyncToken].compactMap { $0 }.map { reason in
            "the last sync found that \(reason); if sync appears stuck, run `metube sync --full` (or press R in the TUI)"
        }
    }
}

/// `metube doctor --json`.
struct DoctorOutput: Encodable {
    var store: String
    var healthy: Bool
    var findings: [DoctorFinding]
    var suggestions: [String]
}
