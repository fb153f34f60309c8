import Foundation

/// The JSON coders every store file uses, so dates and key order agree everywhere.
enum StoreCoding {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(StoreCoding.writable(date.timeIntervalSince1970))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as a number JSON can hold: NaN becomes 0 and the infinities the largest finite
    /// values, so no write ever fails or writes what cannot be read back.
    static func writable(_ value: Double) -> Double {
        if value.isNaN { return 0 }
        return min(max(value, -.greatestFiniteMagnitude), .greatestFiniteMagnitude)
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
