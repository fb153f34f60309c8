import Crypto
import Foundation

/// User and API tokens: how they are made, stored and compared.
///
/// The server stores only the SHA-256 digest of a user token (swift-crypto), as lowercase hex. A
/// token is a random 256-bit secret, so a plain hash (no salt, no stretching) keeps the stored
/// form useless to a reader; and because the database looks users up by that digest, the time a
/// lookup takes tells an attacker nothing about the token they would need. API tokens are compared
/// in constant time.
enum MarkSyncTokenHasher {
    /// The SHA-256 digest of the token's UTF-8 bytes, as 64 lowercase hex digits.
    static func hash(_ token: String) -> String {
        hex(SHA256.hash(data: Data(token.utf8)))
    }

    /// A new random token: 256 bits from the system's secure generator, as 64 hex digits.
    static func newToken() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { hex($0) }
    }

    /// Whether `given` equals `expected`, in time that depends on neither (their digests are
    /// compared with swift-crypto's constant-time equality).
    static func matches(_ given: String, _ expected: String) -> Bool {
        SHA256.hash(data: Data(given.utf8)) == SHA256.hash(data: Data(expected.utf8))
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
