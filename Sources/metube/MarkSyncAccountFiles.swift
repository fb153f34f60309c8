import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeSync

/// The mark-sync account saved by `metube login`, read so that damage is reported, never ignored.
enum MarkSyncAccountFiles {
    /// Whether an account is saved.
    static func exist() -> Bool {
        FileManager.default.fileExists(atPath: MarkSyncAccount.defaultDirectory().appendingPathComponent("status.json").path)
    }

    /// The saved account, `nil` when none is; a damaged `status.json` or `status-token` ends the
    /// command with 65 and says how to repair it.
    static func load() throws -> MarkSyncAccount? {
        let directory = MarkSyncAccount.defaultDirectory()
        let account: MarkSyncAccount?
        do {
            account = try MarkSyncAccount.load(from: directory)
        } catch {
            throw damaged(directory, reason: Self.reason(error))
        }
        guard let account else { return nil }
        guard !account.userToken.isEmpty else { throw damaged(directory, reason: "status-token is empty") }
        MeTubeLog.file.redact(account.userToken)
        return account
    }

    private static func damaged(_ directory: URL, reason: String) -> ExitCode {
        fail("the status account in \(DisplayText.line(directory.path)) is damaged (\(reason)); run `metube login` again, or remove status.json to sync no marks", code: ExitStatus.badInput)
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case is DecodingError: "status.json is not a valid account"
        case let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile: "status-token is missing"
        default: DisplayText.line(String(describing: error), limit: 200)
        }
    }
}
