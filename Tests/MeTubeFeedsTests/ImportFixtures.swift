import Foundation
import MeTubeCore
import MeTubeFeeds
import Testing

/// The real subscription exports under `Fixtures/import/`, copied from /work/shared/fixtures.
enum ImportFixtures {
    /// The bytes of the fixture at `path`, relative to `Fixtures/import/`.
    static func data(_ path: String) throws -> Data {
        let directory = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return try Data(contentsOf: directory.appendingPathComponent("import").appendingPathComponent(path))
    }

    /// The fixture at `path` read by the importer, with its file name as the hint.
    static func read(_ path: String) throws -> SubscriptionImport {
        try SubscriptionImporter.read(data(path), fileName: (path as NSString).lastPathComponent)
    }

    /// The whole of `text` read by the importer, without a file name.
    static func read(text: String, fileName: String? = nil) throws -> SubscriptionImport {
        try SubscriptionImporter.read(Data(text.utf8), fileName: fileName)
    }

    /// The error the importer throws for `data`, or `nil` when it reads it.
    static func error(reading data: Data, fileName: String? = nil) -> MeTubeCoreError? {
        do {
            _ = try SubscriptionImporter.read(data, fileName: fileName)
            return nil
        } catch {
            return error
        }
    }
}

extension SubscriptionImport {
    /// The channel ids, in order.
    var ids: [String] { channels.map(\.id) }

    /// The title of the channel with `id`, `nil` when absent or untitled.
    func title(of id: String) -> String? {
        channels.first { $0.id == id }?.title
    }
}
