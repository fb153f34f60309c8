/// Why a thumbnail could not be shown: each case reads as the placeholder's reason in the pane.
public enum ThumbnailError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not a JPEG; `kind` names what they look like (HTML, PNG, WebP, …).
    case notJPEG(kind: ImageKind)
    /// The file is larger than the limit.
    case tooManyBytes(count: Int, limit: Int)
    /// The header claims a picture larger than the limit; refused before decoding.
    case tooLarge(width: Int, height: Int)
    /// libjpeg-turbo could not read the picture (truncated, damaged).
    case damaged(String)
    /// The picture could not be drawn into cells.
    case drawingFailed
    /// The server answered with an HTTP status other than 200 or 304.
    case httpStatus(Int)
    /// The server did not answer, or not in time.
    case unreachable(String)
    /// The address is not one a thumbnail is fetched from.
    case unsupportedAddress
    /// The cache could not store the picture.
    case cacheFailed(String)

    public var description: String {
        switch self {
        case let .notJPEG(kind): kind == .empty ? "empty file" : "not a JPEG (\(kind.rawValue))"
        case let .tooManyBytes(count, limit): "\(count) bytes, more than \(limit)"
        case let .tooLarge(width, height): "\(width)×\(height) is too large"
        case let .damaged(reason): "damaged JPEG: \(reason)"
        case .drawingFailed: "could not draw the picture"
        case let .httpStatus(status): "HTTP \(status)"
        case let .unreachable(reason): "unreachable: \(reason)"
        case .unsupportedAddress: "no usable thumbnail address"
        case let .cacheFailed(reason): "cache: \(reason)"
        }
    }
}
