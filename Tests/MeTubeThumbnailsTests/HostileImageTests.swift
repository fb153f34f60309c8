import Testing
@testable import MeTubeThumbnails

/// Files that are not the JPEG they claim to be: each one is refused with a reason, before or
/// instead of decoding, and never crashes.
@Suite struct HostileImageTests {
    let decoder = JPEGDecoder()

    @Test(arguments: [
        ("html-error.jpg", ThumbnailError.notJPEG(kind: .html)),
        ("png-bytes.jpg", .notJPEG(kind: .png)),
        ("webp-bytes.jpg", .notJPEG(kind: .webp)),
        ("empty.jpg", .notJPEG(kind: .empty)),
        ("huge-header.jpg", .tooLarge(width: 65_000, height: 65_000)),
    ])
    func refusedWithItsReason(name: String, expected: ThumbnailError) throws {
        let bytes = try ThumbnailFixture.bytes(name)
        #expect(throws: expected) { try decoder.decode(bytes) }
    }

    @Test(arguments: ["truncated.jpg", "damaged.jpg"])
    func damagedJPEGIsRefused(name: String) throws {
        let bytes = try ThumbnailFixture.bytes(name)
        let error = #expect(throws: ThumbnailError.self) { try decoder.decode(bytes) }
        guard case .damaged = error else {
            Issue.record("expected a damaged JPEG, got \(String(describing: error))")
            return
        }
    }

    @Test func moreBytesThanTheLimitAreRefusedBeforeLooking() throws {
        let bytes = try ThumbnailFixture.bytes("thumbnail-320x180.jpg")
        let small = JPEGDecoder(byteLimit: 1_000)
        #expect(throws: ThumbnailError.tooManyBytes(count: bytes.count, limit: 1_000)) { try small.decode(bytes) }
    }

    @Test func theReasonsReadAsPlaceholderText() {
        #expect(ThumbnailError.notJPEG(kind: .html).description == "not a JPEG (HTML)")
        #expect(ThumbnailError.notJPEG(kind: .empty).description == "empty file")
        #expect(ThumbnailError.tooLarge(width: 65_000, height: 65_000).description == "65000×65000 is too large")
    }
}
