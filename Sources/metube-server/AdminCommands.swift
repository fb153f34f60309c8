import ArgumentParser
import Foundation
import MeTubeServer

/// The exit codes of the administration commands, besides 0 for success.
enum AdminExit {
    /// Any other failure.
    static let failure = ExitCode(1)
    /// No database file at `--database` (or no backup file for `restore`).
    static let databaseMissing = ExitCode(3)
    /// No user or channel of that name.
    static let unknownName = ExitCode(4)
    /// A running server holds the database (`restore`), or it stayed locked.
    static let databaseBusy = ExitCode(5)

    /// Runs `body`, printing a failure as `metube-server: …` on stderr and exiting with its code.
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as AdminError {
            FileHandle.standardError.write(Data("metube-server: \(error)\n".utf8))
            throw unknownName
        } catch let error as ServerError {
            FileHandle.standardError.write(Data("metube-server: \(error)\n".utf8))
            switch error {
            case .storage(.missing): throw databaseMissing
            case .storage(.busy): throw databaseBusy
            default: throw failure
            }
        }
    }

    /// `text` with control characters left out and cut to 100 characters, safe for one terminal line.
    static func displayLine(_ text: String) -> String {
        String(text.filter { character in !character.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) } }.prefix(100))
    }

    /// A time in milliseconds since 1970 as UTC ISO 8601, or `-` when unknown.
    static func time(millis: Int64?) -> String {
        guard let millis else { return "-" }
        return Date(timeIntervalSince1970: Double(millis) / 1000).formatted(.iso8601)
    }
}

/// The `--database` option every administration command shares: the database `serve` was given,
/// which must exist.
struct AdminDatabaseOption: ParsableArguments {
    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard try database.location() != nil else {
            throw ValidationError("give --database FILE or --database URL, as for `serve`")
        }
    }

    /// The SQLite file named, if the database is one.
    var sqlitePath: String? { database.sqlitePath }

    /// The users and channels of the database, opened for administration.
    func open() async throws -> any UserAndChannelAdministration {
        try await ServerBackend.open(database.location(), existing: true).administration
    }

    /// The SQLite database, for what only SQLite offers (`backup`).
    func openSQLite() throws -> SQLiteAdministration {
        guard let path = sqlitePath else {
            throw ValidationError("this command works on an SQLite --database only; back up PostgreSQL with pg_dump")
        }
        return try SQLiteAdministration(path: path)
    }
}

extension Users {
    /// `metube-server users list`: names, created and last seen; never tokens.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users: name, when added, when last seen (to the minute).")

        @OptionGroup var database: AdminDatabaseOption

        func run() async throws {
            try await AdminExit.run {
                let users = try await database.open().users()
                print("NAME\tCREATED\tLAST SEEN")
                for user in users {
                    print("\(user.name)\t\(AdminExit.time(millis: user.createdMillis))\t\(AdminExit.time(millis: user.lastSeenMillis))")
                }
            }
        }
    }

    /// `metube-server users remove NAME`: deletes a user with their zones and records.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a user with all their zones and records; their token stops working at once.",
            discussion: "Asks for confirmation on stdin unless --yes is given.")

        @Argument(help: "The user's name.")
        var name: String

        @OptionGroup var database: AdminDatabaseOption

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        func run() async throws {
            try await AdminExit.run {
                let administration = try await database.open()
                guard try await administration.users().contains(where: { $0.name == name }) else {
                    throw AdminError.noUser(name)
                }
                if !yes {
                    FileHandle.standardError.write(Data("Remove user \(name) and all their data? [y/N] ".utf8))
                    guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                        FileHandle.standardError.write(Data("metube-server: nothing removed\n".utf8))
                        throw AdminExit.failure
                    }
                }
                guard try await administration.removeUser(name: name) else { throw AdminError.noUser(name) }
                print("removed user \(name)")
            }
        }
    }

    /// `metube-server users rotate NAME`: replaces a user's token.
    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a user a new token and print it (shown once); the old token stops working at once.",
            discussion: "Give the new token to `metube login --server URL --token TOKEN` on each of the user's devices.")

        @Argument(help: "The user's name.")
        var name: String

        @OptionGroup var database: AdminDatabaseOption

        func run() async throws {
            try await AdminExit.run {
                guard let token = try await database.open().rotateToken(name: name) else { throw AdminError.noUser(name) }
                print(token)
            }
        }
    }
}

/// `metube-server channels …`: the hub's registered channels.
struct Channels: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List or remove the hub's registered channels.", subcommands: [List.self, Remove.self])

    /// `metube-server channels list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the registered channels: id, registered, stored videos, newest upload, last fetch, failures in a row, last failure, title."
        )

        @OptionGroup var database: AdminDatabaseOption

        func run() async throws {
            try await AdminExit.run {
                let channels = try await database.open().channels()
                print("CHANNEL\tREGISTERED\tVIDEOS\tNEWEST UPLOAD\tLAST FETCH\tFAILURES\tLAST FAILURE\tTITLE")
                for channel in channels {
                    let columns = [
                        channel.channelID,
                        AdminExit.time(millis: channel.registeredAt * 1000),
                        "\(channel.videoCount)",
                        channel.newestUpload.map { AdminExit.time(millis: Int64($0 * 1000)) } ?? "-",
                        AdminExit.time(millis: channel.lastFetchMillis),
                        "\(channel.consecutiveFailures)",
                        AdminExit.displayLine(channel.lastFailure ?? "-"),
                        AdminExit.displayLine(channel.title ?? "-"),
                    ]
                    print(columns.joined(separator: "\t"))
                }
            }
        }
    }

    /// `metube-server channels remove ID`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a channel and its stored videos; a client registering it again brings it back.")

        @Argument(help: "The channel id (UC…).")
        var id: String

        @OptionGroup var database: AdminDatabaseOption

        func run() async throws {
            try await AdminExit.run {
                guard try await database.open().removeChannel(id: id) else { throw AdminError.noChannel(id) }
                print("removed channel \(id)")
            }
        }
    }
}

/// `metube-server backup FILE`: SQLite's online backup.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the database into a new FILE with SQLite's online backup; safe while the server runs.")

    @Argument(help: "The new backup file; an existing file is refused.")
    var file: String

    @OptionGroup var database: AdminDatabaseOption

    func run() async throws {
        try await AdminExit.run {
            try database.openSQLite().backup(to: file)
            print("backed up \(database.sqlitePath ?? "") to \(file)")
        }
    }
}

/// `metube-server restore FILE --database PATH`: puts a backup in place of the database.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace the SQLite database at --database with the backup FILE; refused while a server serves it.")

    @Argument(help: "The backup file, written by `metube-server backup`.")
    var file: String

    @Option(name: .customLong("database"), help: ArgumentHelp("The SQLite file given to `serve --database` (created when missing).", valueName: "file"))
    var database: String?

    @Option(name: .customLong("db"), help: ArgumentHelp("Deprecated spelling of --database FILE.", visibility: .hidden))
    var deprecatedSQLitePath: String?

    func validate() throws {
        guard (database == nil) != (deprecatedSQLitePath == nil) else { throw ValidationError("give --database FILE once") }
        if database?.contains("://") == true {
            throw ValidationError("restore works on an SQLite file; restore PostgreSQL with pg_restore")
        }
        if deprecatedSQLitePath != nil { DatabaseOptions.noteDeprecatedSpelling() }
    }

    func run() async throws {
        let path = database ?? deprecatedSQLitePath ?? ""
        try await AdminExit.run {
            try SQLiteAdministration.restore(from: file, to: path)
            print("restored \(file) into \(path)")
        }
    }
}
