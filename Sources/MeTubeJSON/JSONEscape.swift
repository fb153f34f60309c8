/// JSON's one-character escapes, which ``JSONScanner`` reads.
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

