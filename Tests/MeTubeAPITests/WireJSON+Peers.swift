/// What other peers do to a document: add keys this side does not know, or (seen from the other
/// direction) send keys this side does not keep.
extension WireJSON {
    /// Keys another hub or CloudKit might add, one of every JSON kind, nested, with a number no
    /// Swift integer holds.
    static let unknownFields: [String: WireJSON] = [
        "xUnknownObject": .object(["nested": .object(["deeper": .array([.integer(1), .string("two"), .null, .object(["k": .bool(true)])])])]),
        "xUnknownNumber": .double(1e30),
        "xUnknownNull": .null,
        "x_unknown_string": .string("added by a newer peer"),
        "xUnknownList": .array([.double(-0.5), .bool(false)]),
    ]

    /// The document with ``unknownFields`` added to every object a wire type decodes: every
    /// object except a record's `fields` map (its keys are field names, so an added key would be
    /// a field) and anything inside a field's `value` (free JSON, kept verbatim).
    func addingUnknownFields() -> WireJSON {
        transformed(under: nil) { key, object in
            key == "fields" ? object : object.merging(Self.unknownFields) { known, _ in known }
        }
    }

    /// The document without `keys` wherever they occur, except inside a field's `value`.
    func removingKeys(_ keys: Set<String>) -> WireJSON {
        transformed(under: nil) { _, object in object.filter { !keys.contains($0.key) } }
    }

    /// Applies `change` to every object, told the key the object sits under; values under a
    /// `value` key are left alone.
    private func transformed(under key: String?, _ change: (String?, [String: WireJSON]) -> [String: WireJSON]) -> WireJSON {
        switch self {
        case .object where key == "value":
            return self
        case .object(let object):
            let children = Dictionary(uniqueKeysWithValues: object.map { ($0.key, $0.value.transformed(under: $0.key, change)) })
            return .object(change(key, children))
        case .array(let elements) where key != "value":
            return .array(elements.map { $0.transformed(under: key, change) })
        default:
            return self
        }
    }
}
