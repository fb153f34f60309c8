import Crypto
import Foundation

/// The `X-Hub-Signature` of a WebSub notification: `METHOD=HEX`, the HMAC of the body with the
/// subscription's secret (`sha1`, as YouTube's hub sends, or `sha256`, `sha384`, `sha512`).
enum WebSubSignature {
    /// The header the hub signs notifications in.
    static let headerName = "X-Hub-Signature"

    /// Whether `header` is a valid signature of `body` under `secret`. The comparison takes the
    /// same time whichever byte differs; a missing, malformed or unknown-method header is invalid.
    static func isValid(_ header: String?, body: some DataProtocol, secret: Data) -> Bool {
        guard let header, header.utf8.count <= 256, let separator = header.firstIndex(of: "=") else { return false }
        let method = header[..<separator].lowercased()
        guard let digest = bytes(fromHex: header[header.index(after: separator)...]) else { return false }
        let key = SymmetricKey(data: secret)
        switch method {
        case "sha1": return HMAC<Insecure.SHA1>.isValidAuthenticationCode(digest, authenticating: body, using: key)
        case "sha256": return HMAC<SHA256>.isValidAuthenticationCode(digest, authenticating: body, using: key)
        case "sha384": return HMAC<SHA384>.isValidAuthenticationCode(digest, authenticating: body, using: key)
        case "sha512": return HMAC<SHA512>.isValidAuthenticationCode(digest, authenticating: body, using: key)
        default: return false
        }
    }

    /// A fresh random secret: 32 bytes from the system's secure generator as 64 hex digits. The
    /// hub gets it as `hub.secret` and keys its HMAC with these characters' bytes.
    static func newSecret() -> Data {
        Data(SymmetricKey(size: .bits256).withUnsafeBytes { bytes in bytes.map { String(format: "%02x", $0) }.joined() }.utf8)
    }

    private static func bytes(fromHex hex: Substring) -> Data? {
        let digits = Array(hex.utf8)
        guard !digits.isEmpty, digits.count.isMultiple(of: 2), digits.count <= 128 else { return nil }
        var bytes = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(of: digits[index]), let low = value(of: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
