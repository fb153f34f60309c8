/// JSON's one-character escapes and the small conversions every hand-written JSON reader shares.
public enum JSONEscape {
    /// The byte that `\` followed by `escape` stands for (`"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`),
    /// or `nil` for any other byte (`u` included: its four hex digits are the reader's to check).
    public static func byte(escapedBy escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }
}

extension JSONEscape {
    /// The string `bytes` hold, or `nil` when they are not valid UTF-8.
    ///
    /// ASCII, which nearly every name and value is, is made into a string directly; only other
    /// bytes go through the (unspecialized, slower) validating initializer.
    public static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var isASCII = true
        for byte in bytes where byte >= 0x80 {
            isASCII = false
            break
        }
        return isASCII ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }

    /// The whole number the ASCII digits `bytes` hold (with an optional leading `-`), or `nil`
    /// when they are not one or it is outside Int64's range.
    public static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        Int64(String(decoding: bytes, as: UTF8.self))
    }
}
