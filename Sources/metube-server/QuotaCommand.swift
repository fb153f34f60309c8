import ArgumentParser
import MeTubeServer

/// A quota limit on the command line: a whole number up to ``MarkSyncQuota/maxValue``, with an
/// optional binary unit (`KiB`, `MiB`, `GiB`, `TiB`; `K`, `M`, `G`, `T` too) for bytes.
struct QuotaLimit: ExpressibleByArgument, CustomStringConvertible {
    /// The limit.
    let value: Int64

    /// A limit of `value`.
    init(_ value: Int64) {
        self.value = value
    }

    init?(argument: String) {
        let units: [(String, Int64)] = [("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("T", 1 << 40), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)]
        let (digits, scale) = units.first { argument.hasSuffix($0.0) }.map { (String(argument.dropLast($0.0.count)), $0.1) } ?? (argument, 1)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.count <= 16, let number = Int64(digits) else { return nil }
        let (value, overflow) = number.multipliedReportingOverflow(by: scale)
        guard !overflow, value <= MarkSyncQuota.maxValue else { return nil }
        self.value = value
    }

    var description: String { "\(value)" }

}

/// A limit given to `users quota`: a number, or `default` for the server's.
enum QuotaLimitChange: ExpressibleByArgument {
    /// This limit.
    case limit(Int64)
    /// The server's default (`serve --quota-…`).
    case serverDefault

    init?(argument: String) {
        if argument == "default" {
            self = .serverDefault
        } else if let limit = QuotaLimit(argument: argument) {
            self = .limit(limit.value)
        } else {
            return nil
        }
    }

    /// `current` changed by this, when given.
    static func apply(_ change: QuotaLimitChange?, to current: Int64?) -> Int64? {
        switch change {
        case nil: current
        case .limit(let value): value
        case .serverDefault: nil
        }
    }
}

extension Users {
    /// `metube-server users quota NAME [--zones N] [--records N] [--bytes N]`.
    struct Quota: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show what a user holds against their quota, or change their quota.",
            discussion: """
                Without options it prints the user's zones, records and bytes, each with its quota ("default": the server's \
                --quota-zones, --quota-records or --quota-bytes). Each option sets that limit for this user (a number, bytes \
                with KiB, MiB or GiB, or "default"); a running server applies it from the user's next write.
                """)

        @Argument(help: "The user's name.")
        var name: String

        @Option(help: ArgumentHelp("The most zones (or default).", valueName: "n"))
        var zones: QuotaLimitChange?

        @Option(help: ArgumentHelp("The most live records (or default).", valueName: "n"))
        var records: QuotaLimitChange?

        @Option(help: ArgumentHelp("The most stored bytes, e.g. 2GiB (or default).", valueName: "size"))
        var bytes: QuotaLimitChange?

        @OptionGroup var database: AdminDatabaseOption

        func run() async throws {
            try await AdminExit.run {
                let administration = try await database.open()
                guard var held = try await administration.quota(name: name) else { throw AdminError.noUser(name) }
                if zones != nil || records != nil || bytes != nil {
                    held.setting = MarkSyncQuotaSetting(
                        zones: QuotaLimitChange.apply(zones, to: held.setting.zones),
                        records: QuotaLimitChange.apply(records, to: held.setting.records),
                        bytes: QuotaLimitChange.apply(bytes, to: held.setting.bytes))
                    guard try await administration.setQuota(name: name, held.setting) else { throw AdminError.noUser(name) }
                }
                print("WHAT\tUSED\tQUOTA")
                for (what, used, limit) in [("zones", held.usage.zones, held.setting.zones), ("records", held.usage.records, held.setting.records),
                                            ("bytes", held.usage.bytes, held.setting.bytes)] {
                    print("\(what)\t\(used)\t\(limit.map(String.init) ?? "default")")
                }
            }
        }
    }
}
