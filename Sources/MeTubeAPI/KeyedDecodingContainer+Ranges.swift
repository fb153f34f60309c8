/// Range-checked number decoding for wire types, so a peer's number is refused with an error that
/// names the key, the value and the accepted range (Foundation reports a fraction or an overflow in
/// an integer field as "The given data was not valid JSON", without saying where).
extension KeyedDecodingContainer {
    /// The whole number at `key`, which must lie in `range`.
    func decodeWholeNumber<Number: FixedWidthInteger & Decodable>(
        _ type: Number.Type, forKey key: Key, in range: ClosedRange<Number>
    ) throws -> Number {
        let value: Number
        do {
            value = try decode(Number.self, forKey: key)
        } catch {
            try rethrowUnlessUnrepresentable(error)
            throw outOfRange(key, found: (try? decode(Double.self, forKey: key)).map { "\($0)" }, range)
        }
        guard range.contains(value) else { throw outOfRange(key, found: "\(value)", range) }
        return value
    }

    /// The whole number at `key` when present and not null; it must lie in `range`.
    func decodeWholeNumberIfPresent<Number: FixedWidthInteger & Decodable>(
        _ type: Number.Type, forKey key: Key, in range: ClosedRange<Number>
    ) throws -> Number? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeWholeNumber(type, forKey: key, in: range)
    }

    /// The number at `key` when present and not null; it must lie in `range`.
    func decodeNumberIfPresent(forKey key: Key, in range: ClosedRange<Double>) throws -> Double? {
        let value: Double?
        do {
            value = try decodeIfPresent(Double.self, forKey: key)
        } catch {
            try rethrowUnlessUnrepresentable(error)
            throw outOfRange(key, found: nil, range)
        }
        guard let value else { return nil }
        guard range.contains(value) else { throw outOfRange(key, found: "\(value)", range) }
        return value
    }

    /// Rethrows `error` unless it says the number at hand does not fit the type asked for, which
    /// Foundation's parser reports with an error of its own (not a `DecodingError`) or as data
    /// corruption.
    private func rethrowUnlessUnrepresentable(_ error: any Error) throws {
        guard let error = error as? DecodingError else { return }
        if case .dataCorrupted = error { return }
        throw error
    }

    private func outOfRange<Bound>(_ key: Key, found: String?, _ range: ClosedRange<Bound>) -> DecodingError {
        let wanted = Bound.self is Double.Type ? "a number" : "a whole number"
        let value = found.map { ", not \($0)" } ?? ""
        return DecodingError.dataCorruptedError(
            forKey: key, in: self,
            debugDescription: "\(key.stringValue) must be \(wanted) from \(range.lowerBound) to \(range.upperBound)\(value)"
        )
    }
}
