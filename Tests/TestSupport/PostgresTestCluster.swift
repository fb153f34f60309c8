import Foundation
import Synchronization

/// A private, throw-away PostgreSQL cluster for the tests of one test process.
///
/// The first ``database()`` call creates it: `initdb` in a new temporary folder, then `pg_ctl
/// start` on a free port of 127.0.0.1 with its unix socket in the same folder, `fsync` off. As
/// root the PostgreSQL programs run as the `postgres` user (`runuser`), which owns the folder. It
/// never touches a system cluster. It is stopped and its folder removed when the test process
/// exits, and, should the process be killed, by a watchdog shell that waits for it to go away.
/// When the cluster cannot be started every call throws ``PostgresTestClusterError`` with the
/// reason (the programs' output and the server log), so PostgreSQL tests fail, never skip.
public enum PostgresTestCluster {
    /// Where Debian's PostgreSQL 15 programs are (`METUBE_POSTGRES_BIN` overrides it).
    public static var binDirectory: String {
        ProcessInfo.processInfo.environment["METUBE_POSTGRES_BIN"] ?? "/usr/lib/postgresql/15/bin"
    }

    /// The cluster's superuser, trusted on 127.0.0.1 without a password.
    public static let user = "metube"

    private static let state = Mutex<Result<RunningCluster, PostgresTestClusterError>?>(nil)
    private static let nextDatabase = Atomic<Int>(0)

    /// A new, empty database in the cluster (started on first use), as a
    /// `postgres://metube@127.0.0.1:PORT/NAME?sslmode=disable` URL (the cluster has no TLS).
    public static func database() throws -> String {
        let cluster = try state.withLock { state in
            if state == nil { state = Result { try RunningCluster.start() }.mapError { $0 as? PostgresTestClusterError ?? .failed("\($0)") } }
            return try state!.get()
        }
        let name = "metube_test_\(nextDatabase.add(1, ordering: .relaxed).newValue)"
        try cluster.run("createdb", ["-h", "127.0.0.1", "-p", String(cluster.port), "-U", user, name])
        return "postgres://\(user)@127.0.0.1:\(cluster.port)/\(name)?sslmode=disable"
    }
}

/// A throw-away PostgreSQL cluster of one test's own, which it may stop, kill and start again
/// (outage tests) without disturbing the tests that share ``PostgresTestCluster``. Started as
/// that one is, and stopped and removed at exit in the same way.
public final class PostgresScratchCluster: Sendable {
    private let cluster: RunningCluster

    /// Starts a new cluster.
    public init() throws {
        cluster = try RunningCluster.start()
    }

    /// A new, empty database in the cluster, as a `postgres://…?sslmode=disable` URL.
    public func database(named name: String) throws -> String {
        try cluster.run("createdb", ["-h", "127.0.0.1", "-p", String(cluster.port), "-U", PostgresTestCluster.user, name])
        return "postgres://\(PostgresTestCluster.user)@127.0.0.1:\(cluster.port)/\(name)?sslmode=disable"
    }

    /// `pg_ctl stop -m fast`: ends every session and stops the server; returns once it is down.
    public func stop() throws {
        try cluster.run("pg_ctl", ["stop", "-w", "-t", "60", "-m", "fast", "-D", cluster.dataDirectory])
    }

    /// Kills the postmaster with SIGKILL, as a crash would, and returns once it is gone.
    public func killPostmaster() throws {
        let pidFile = cluster.dataDirectory + "/postmaster.pid"
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
              let pid = text.split(separator: "\n").first.flatMap({ pid_t($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw PostgresTestClusterError.failed("no postmaster pid in \(pidFile)")
        }
        guard kill(pid, SIGKILL) == 0 else { throw PostgresTestClusterError.failed("kill -9 \(pid): \(String(cString: strerror(errno)))") }
        while kill(pid, 0) == 0 { usleep(10_000) }
    }

    /// Starts the stopped (or killed) server again on the same port and returns once it accepts
    /// connections. After a kill it retries while the old server's sessions are still going away.
    public func start() throws {
        var lastError: (any Error)?
        for _ in 0..<50 {
            do {
                try cluster.startServer()
                return
            } catch {
                lastError = error
                usleep(100_000)
            }
        }
        throw lastError ?? PostgresTestClusterError.failed("pg_ctl start")
    }
}

/// Why the test cluster could not be started or used.
public enum PostgresTestClusterError: Error, CustomStringConvertible, Sendable {
    /// A PostgreSQL program failed; the message holds its output.
    case failed(String)

    public var description: String {
        switch self {
        case .failed(let reason): "the test PostgreSQL cluster is not available: \(reason)"
        }
    }
}

/// A started cluster: its folder and port.
private struct RunningCluster: Sendable {
    let folder: URL
    let port: Int
    let asPostgresUser: Bool

    var dataDirectory: String { folder.appendingPathComponent("data").path }
    var logFile: String { folder.appendingPathComponent("server.log").path }

    static func start() throws -> RunningCluster {
        guard FileManager.default.isExecutableFile(atPath: PostgresTestCluster.binDirectory + "/initdb") else {
            throw PostgresTestClusterError.failed("no initdb in \(PostgresTestCluster.binDirectory); install Debian's `postgresql` package (make deps)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-pg-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let asPostgresUser = geteuid() == 0
        var cluster = RunningCluster(folder: folder, port: 0, asPostgresUser: asPostgresUser)
        do {
            if asPostgresUser { try cluster.runCommand("/bin/chown", ["postgres:postgres", folder.path], asPostgres: false) }
            try cluster.run("initdb", ["-D", cluster.dataDirectory, "-U", PostgresTestCluster.user, "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"])
            var lastError: Error?
            // A free port can be taken by someone else between probing and binding: try a few.
            for _ in 0..<3 {
                cluster = RunningCluster(folder: folder, port: try freePort(), asPostgresUser: asPostgresUser)
                do {
                    try cluster.startServer()
                    lastError = nil
                    break
                } catch {
                    lastError = error
                }
            }
            if let lastError { throw lastError }
        } catch {
            let log = (try? String(contentsOfFile: cluster.logFile, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: folder)
            throw PostgresTestClusterError.failed("\(error)\n\(log.suffix(2_000))")
        }
        cluster.stopWhenTheProcessEnds()
        return cluster
    }

    /// `pg_ctl start` on the cluster's port; returns once the server accepts connections.
    func startServer() throws {
        try run("pg_ctl", [
            "start", "-w", "-t", "60", "-D", dataDirectory, "-l", logFile, "-o",
            "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400 -c full_page_writes=off",
        ])
    }

    /// Runs the PostgreSQL program `name` (as `postgres` when root); throws with its output when it fails.
    func run(_ name: String, _ arguments: [String]) throws {
        try runCommand(PostgresTestCluster.binDirectory + "/" + name, arguments, asPostgres: asPostgresUser)
    }

    /// Runs `path` with `arguments` (through `runuser -u postgres` when `asPostgres`) and waits
    /// for it; throws with its output when it fails.
    ///
    /// It is spawned and awaited with `posix_spawn` and `waitpid`, not `Process`: the server that
    /// `pg_ctl start` leaves running inherits the descriptors through which `Process` learns that
    /// its child ended, so `Process.waitUntilExit()` would wait for the server too.
    func runCommand(_ path: String, _ arguments: [String], asPostgres: Bool) throws {
        let executable = asPostgres ? "/usr/sbin/runuser" : path
        let argv = [executable] + (asPostgres ? ["-u", "postgres", "--", path] : []) + arguments
        let outputPath = folder.appendingPathComponent("command-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try spawnAndWait(argv, outputPath: outputPath)
        guard status == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw PostgresTestClusterError.failed("\(name(of: path)) \(arguments.joined(separator: " ")) exited with \(status): \(text)")
        }
    }

    private func name(of path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    /// Stops the cluster and removes its folder at exit, and starts a watchdog that does the same
    /// if this process dies without running its exit handlers (SIGKILL, a crash).
    private func stopWhenTheProcessEnds() {
        let stop = "\(PostgresTestCluster.binDirectory)/pg_ctl stop -m immediate -D '\(dataDirectory)' >/dev/null 2>&1"
        let stopAsOwner = asPostgresUser ? "runuser -u postgres -- \(stop)" : stop
        let cleanup = "\(stopAsOwner); rm -rf '\(folder.path)'"
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = ["-c", "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(cleanup)"]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try? watchdog.run()
        let isFirst = RunningCluster.exitCleanups.withLock { cleanups in
            cleanups.append(cleanup)
            return cleanups.count == 1
        }
        guard isFirst else { return }
        atexit {
            for command in RunningCluster.exitCleanups.withLock({ $0 }) {
                _ = try? spawnAndWait(["/bin/sh", "-c", command], outputPath: "/dev/null")
            }
        }
    }

    private static let exitCleanups = Mutex<[String]>([])
}

/// A TCP port of 127.0.0.1 that was free a moment ago.
private func freePort() throws -> Int {
    let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw PostgresTestClusterError.failed("socket: \(String(cString: strerror(errno)))") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
    }
    guard bound else { throw PostgresTestClusterError.failed("bind: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Spawns `argv` with stdin from /dev/null and stdout and stderr into `outputPath`, and returns
/// its exit status once it has ended.
private func spawnAndWait(_ argv: [String], outputPath: String) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var pid = pid_t()
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
    guard spawned == 0 else { throw PostgresTestClusterError.failed("cannot run \(argv[0]): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { throw PostgresTestClusterError.failed("waitpid: \(String(cString: strerror(errno)))") }
    }
    // WIFEXITED / WEXITSTATUS, which Swift does not import.
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
}
