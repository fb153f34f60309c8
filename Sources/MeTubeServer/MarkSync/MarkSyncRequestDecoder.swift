import Foundation
import MeTubeAPI
import MeTubeJSON
import NIOCore

/// Decodes request bodies, turning every decoding failure into a BAD_REQUEST that names the
/// offending key. A plainly well-formed `records/modify` body is read by
/// ``MarkSyncModifyBodyDecoder`` instead of `JSONDecoder`.
enum MarkSyncRequestDecoder {
    /// The body decoded as `type`, or a BAD_REQUEST error body.
    static func decode<Body: Decodable>(_ type: Body.Type, from buffer: ByteBuffer) throws(MarkSyncErrorBody) -> Body {
        // The fast reader's depth is fixed by the shape it accepts; only `JSONDecoder` needs the
        // depth checked first.
        if Body.self == MarkSyncRecordsModifyRequest.self,
           let request = buffer.withUnsafeReadableBytes({ MarkSyncModifyBodyDecoder.decode($0.assumingMemoryBound(to: UInt8.self)) }) as? Body {
            return request
        }
        guard !JSONNesting.exceedsLimit(buffer.readableBytesView) else {
            throw MarkSyncErrorBody(.badRequest, "The request body is nested deeper than \(JSONNesting.maxDepth) levels")
        }
        do {
            return try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw MarkSyncErrorBody(.badRequest, describe(error))
        } catch {
            throw MarkSyncErrorBody(.badRequest, "The request body could not be read: \(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "Wrong type at \(path(context.codingPath)): expected \(name(of: type))"
        case .valueNotFound(let type, let context):
            return "Missing value at \(path(context.codingPath)): expected \(name(of: type))"
        case .keyNotFound(let key, let context):
            return "Missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "The request body is not valid JSON"
                : "Invalid value at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "The request body is not valid: \(error)"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the top level" }
        return codingPath.reduce(into: "") { text, key in
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object (\(type))"
        }
    }
}
