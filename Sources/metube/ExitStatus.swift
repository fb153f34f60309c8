import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore

/// The exit codes of every `metube` command, for scripts.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let partial: Int32 = 2
    static let readOnly: Int32 = 3
    static let notFound: Int32 = 4
    static let usage: Int32 = 64
    static let badInput: Int32 = 65
    static let cannotOpenInput: Int32 = 66
    static let ioError: Int32 = 74
    static let storeBusy: Int32 = 75
    static let notAuthorized: Int32 = 77
    static let notConfigured: Int32 = 78

    static let help = """
        Exit codes: 0 success; 1 failure; 2 partial success (some items failed); 3 the store is \
        read-only (written by a newer metube); 4 no such video or channel; 64 usage error; 65 bad \
        input data; 66 input file missing or unreadable; 74 I/O error, nothing was changed (e.g. disk \
        full); 75 the store is busy (another process held its lock), try again; 77 the YouTube sign-in \
        was declined, expired or revoked (run `metube youtube login`); 78 no YouTube OAuth client is \
        configured, or Google refuses it.
        """
}

/// Prints `message` to stderr as metube's error and ends the command with `code`.
func fail(_ message: String, code: Int32) -> ExitCode {
    printError("error: \(message)")
    return ExitCode(code)
}

/// Prints `message` to stderr, prefixed with the program name, and logs it. Each line is made
/// safe for the terminal (``DisplayText``) and has its tokens masked: messages quote error
/// bodies and ids from outside.
func printError(_ message: String) {
    let lines = MeTubeLog.file.redacted(message).split(separator: "\n", omittingEmptySubsequences: false).map { DisplayText.line($0, limit: 2_000) }
    FileHandle.standardError.write(Data(lines.map { "metube: \($0)\n" }.joined().utf8))
    MeTubeLog.command.notice("\(lines.joined(separator: " | "))")
}

extension StoreError {
    /// The exit code this error ends a command with.
    var exitCode: Int32 {
        switch self {
        case .lockTimeout: ExitStatus.storeBusy
        case .readOnly: ExitStatus.readOnly
        case .writeFailed, .readFailed: ExitStatus.ioError
        case .corrupt, .invalidBackup: ExitStatus.badInput
        case .unknownVideo: ExitStatus.notFound
        }
    }

    /// Prints the error and returns the exit that ends the command.
    var exit: ExitCode { fail(description, code: exitCode) }
}
