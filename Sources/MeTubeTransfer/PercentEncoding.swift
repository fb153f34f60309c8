/// The encoding of a value put into a URL's path or query, or into a form body.
package enum PercentEncoding {
    /// Percent-encodes everything but unreserved characters, so `+`, `/` and `=` survive.
    package static func escape(_ text: String) -> String {
        text.utf8.map { byte -> String in
            let character = Character(Unicode.Scalar(byte))
            if character.isASCII, character.isLetter || character.isNumber || "-._~".contains(character) { return String(character) }
            let hex = String(byte, radix: 16, uppercase: true)
            return "%" + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }
}
