import Foundation
import Testing

/// The image files in `Fixtures/`.
enum ThumbnailFixture {
    /// The bytes of fixture `name`.
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return Array(try Data(contentsOf: url))
    }
}
