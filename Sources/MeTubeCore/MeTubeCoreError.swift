/// Errors raised by the domain layer: parsing feeds and subscription files.
public enum MeTubeCoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Input could not be understood; `location` names the line or field.
    case malformedInput(format: String, location: String, reason: String)
    /// The input matched no supported format.
    case unrecognizedFormat(hint: String)

    public var description: String {
        switch self {
        case let .malformedInput(format, location, reason): "\(format): \(location): \(reason)"
        case let .unrecognizedFormat(hint): "unrecognized format: \(hint)"
        }
    }
}
