import Foundation

/// Removes secrets from log text: the value after `ckWebAuthToken=`, `ckAPIToken=`, `token=`,
/// `Authorization:` / `Bearer`, and any secret registered with the log file (the user's status
/// token), wherever it appears.
public enum LogRedaction {
    /// What a secret is replaced with.
    public static let mask = "<redacted>"

    /// Bearer first, so that "Authorization: Bearer X" masks both words.
    private static let markers = ["Bearer ", "ckWebAuthToken=", "ckAPIToken=", "token=", "Authorization: ", "authorization: "]

    /// `text` with every secret in `secrets` and every value after a token marker masked.
    public static func redact(_ text: String, secrets: [String] = []) -> String {
        var result = text
        for secret in secrets where secret.utf8.count >= 4 {
            result = result.replacingOccurrences(of: secret, with: mask)
        }
        for marker in markers {
            result = maskValues(after: marker, in: result)
        }
        return result
    }

    private static func maskValues(after marker: String, in text: String) -> String {
        guard text.contains(marker) else { return text }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: marker) {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let value = rest.prefix { !" &\"',;)}\n\t".contains($0) }
            if !value.isEmpty { result += mask }
            rest = rest[value.endIndex...]
        }
        return result + rest
    }
}
