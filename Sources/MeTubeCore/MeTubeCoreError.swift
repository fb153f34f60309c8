/// Errors raised by the domain layer: parsing feeds, subscription files and queries.
public enum MeTubeCoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Input could not be understood; `location` names the line or field.
    case malformedInput(format: String, location: String, reason: String)
    /// The input matched no supported format.
    case unrecognizedFormat(hint: String)
    /// A query (see ``VideoQuery``) could not be read; `column` (1-based, in characters) points
    /// at the problem.
    case invalidQuery(column: Int, reason: String)

    public var description: String {
        switch self {
        case let .malformedInput(format, location, reason): "\(format): \(location): \(reason)"
        case let .unrecognizedFormat(hint): "unrecognized format: \(hint)"
        case let .invalidQuery(column, reason): "query: column \(column): \(reason)"
        }
    }
}
