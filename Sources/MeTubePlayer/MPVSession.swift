import Foundation
import MeTubeCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One running mpv and its JSON IPC connection. ``start(command:url:startSeconds:socketDirectory:socketTimeout:)``
/// returns once mpv listens and follows the properties metube needs; ``follow(_:)`` then reads
/// what mpv reports until it ends, however it ends (quit, crash, kill -9).
public final class MPVSession: Sendable {
    /// mpv's process id.
    public let processID: Int32
    /// The IPC socket.
    public let socketPath: String
    private let socket: Int32
    /// Whether ``socket`` is still open: ``follow(_:)`` closes it under this lock and ``send(_:)``
    /// writes only under it, so a late ``quit()`` never writes to a descriptor number that the
    /// process has since reused for another file.
    private let socketOpen = Mutex(true)
    private let exit: ProcessExit
    /// Kept so the process object outlives ``start``; only its termination handler uses it.
    private let process: Mutex<Process>

    private init(process: Process, socketPath: String, socket: Int32, exit: ProcessExit) {
        self.process = Mutex(process)
        processID = process.processIdentifier
        self.socketPath = socketPath
        self.socket = socket
        self.exit = exit
    }

    /// Starts mpv for `url` (at `startSeconds` when given) and connects to its IPC socket in
    /// `socketDirectory`, waiting at most `socketTimeout` seconds for it to appear.
    public static func start(
        command: MPVCommand, url: String, startSeconds: Double?, socketDirectory: URL, socketTimeout: Double = 10
    ) throws(PlayerError) -> MPVSession {
        let path = try PlayerSocketDirectory.newSocketPath(in: socketDirectory)
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else { throw .socketPathTooLong(path: path) }
        let exit = ProcessExit()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = command.arguments(url: url, socketPath: path, startSeconds: startSeconds)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { finished in
            exit.finish(status: finished.terminationStatus, bySignal: finished.terminationReason == .uncaughtSignal)
        }
        do {
            try process.run()
        } catch {
            throw .cannotStart(command: command.template, reason: error.localizedDescription)
        }
        let pid = process.processIdentifier
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0.1, socketTimeout) * 1000))
        while true {
            if let ended = exit.ended {
                unlink(path)
                throw .exitedAtOnce(command: command.template, status: ended.status)
            }
            if access(path, F_OK) == 0, let socket = try? connect(path) {
                let session = MPVSession(process: process, socketPath: path, socket: socket, exit: exit)
                for line in MPVMessage.observeCommands { session.send(line) }
                return session
            }
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                exit.wait()
                unlink(path)
                throw .socketNeverAppeared(path: path, seconds: socketTimeout)
            }
            usleep(20_000)
        }
    }

    /// Reads what mpv reports, handing each followed property to `handle`, until mpv closes the
    /// socket (it quit, crashed or was killed); then waits for the process and tidies up.
    public func follow(_ handle: (PlayerProperty) -> Void) -> MPVEnding {
        var garbage = 0
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break reading }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                switch MPVMessage.parse(Data(line)) {
                case .property(let property): handle(property)
                case .ignored: break
                case .garbage: garbage += 1
                }
            }
            if pending.count > MPVMessage.maxLineBytes {
                garbage += 1
                pending.removeAll()
            }
        }
        socketOpen.withLock { open in
            open = false
            close(socket)
        }
        exit.wait()
        unlink(socketPath)
        let ended = exit.ended
        return MPVEnding(status: ended?.status ?? -1, killedBySignal: ended?.bySignal ?? false, garbageLines: garbage)
    }

    /// Asks mpv to quit; ``follow(_:)`` returns once it has.
    public func quit() {
        send("{\"command\":[\"quit\"]}\n")
    }

    /// Writes `line` while the socket is open; a player that has gone away makes it fail quietly
    /// (`MSG_NOSIGNAL`: no SIGPIPE ends metube), and ``follow(_:)`` then sees the end.
    func send(_ line: String) {
        let bytes = Array(line.utf8)
        socketOpen.withLock { open in
            guard open else { return }
            _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    private static func connect(_ path: String) throws(PlayerError) -> Int32 {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotConnect(path: path, reason: String(cString: strerror(errno))) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .cannotConnect(path: path, reason: reason)
        }
        return fd
    }
}

/// How a followed mpv ended.
public struct MPVEnding: Sendable, Equatable {
    /// The exit status, or the signal number when killed by one.
    public var status: Int32
    /// Whether a signal ended it (a crash or a kill).
    public var killedBySignal: Bool
    /// Lines on the socket that were not understood or out of range, and ignored.
    public var garbageLines: Int

    /// An ending.
    public init(status: Int32, killedBySignal: Bool, garbageLines: Int) {
        self.status = status
        self.killedBySignal = killedBySignal
        self.garbageLines = garbageLines
    }
}

/// The end of a child process, set once by its termination handler.
final class ProcessExit: Sendable {
    private let state = Mutex<(status: Int32, bySignal: Bool)?>(nil)
    private let done = DispatchSemaphore(value: 0)

    var ended: (status: Int32, bySignal: Bool)? { state.withLock { $0 } }

    func finish(status: Int32, bySignal: Bool) {
        state.withLock { $0 = (status, bySignal) }
        done.signal()
    }

    /// Waits until the process has ended.
    func wait() {
        guard ended == nil else { return }
        done.wait()
        done.signal()
    }
}
