import MeTubeAPI

/// A checked `records/query` query: its predicates and sort order, applied to stored records.
///
/// The served subset: `EQUALS`, `NOT_EQUALS`, `LESS_THAN`, `GREATER_THAN` and `IN` on `STRING`,
/// `TIMESTAMP`, `INT64` and `DOUBLE` fields. Numbers compare as numbers (TIMESTAMP and INT64
/// with DOUBLE), strings by Unicode order; a record without the field, or with a value of the
/// other kind, matches no predicate on it and sorts after every record that has it. Records that
/// sort equal are ordered by record name, byte by byte (names Unicode counts equal but the
/// stores keep apart included), so pages never overlap.
struct MarkSyncQueryPlan {
    /// At most this many predicates, and this many sort descriptors, in one query.
    static let maxTerms = 20
    /// At most this many values in one `IN` list.
    static let maxInValues = 200

    private enum Comparator: String {
        case equals = "EQUALS", notEquals = "NOT_EQUALS", lessThan = "LESS_THAN", greaterThan = "GREATER_THAN", isIn = "IN"
    }

    private enum Key: Comparable {
        case number(Double)
        case string(String)

        init?(_ value: MarkSyncValue) {
            switch value {
            case .string(let text): self = .string(text)
            case .integer(let number): self = .number(Double(number))
            case .double(let number) where number.isFinite: self = .number(number)
            default: return nil
            }
        }

        func sameKind(as other: Key) -> Bool {
            switch (self, other) {
            case (.number, .number), (.string, .string): true
            default: false
            }
        }
    }

    private struct Predicate {
        var fieldName: String
        var comparator: Comparator
        var keys: [Key]
    }

    private let predicates: [Predicate]
    private let sorts: [(fieldName: String, ascending: Bool)]

    /// Checks `query`; every fault is a BAD_REQUEST naming it.
    init(_ query: MarkSyncRecordsQueryRequest.Query) throws(MarkSyncErrorBody) {
        let filters = query.filterBy ?? []
        let sortBy = query.sortBy ?? []
        guard filters.count <= Self.maxTerms, sortBy.count <= Self.maxTerms else {
            throw MarkSyncErrorBody.limitExceeded("A query holds at most \(Self.maxTerms) filters and \(Self.maxTerms) sort descriptors")
        }
        var predicates: [Predicate] = []
        for (index, filter) in filters.enumerated() {
            predicates.append(try Self.predicate(filter, at: index))
        }
        for sort in sortBy {
            if let error = MarkSyncService.nameError(sort.fieldName, of: "sortBy fieldName") { throw MarkSyncErrorBody(.badRequest, error) }
        }
        self.predicates = predicates
        self.sorts = sortBy.map { ($0.fieldName, $0.ascending ?? true) }
    }

    /// The records among `records` that match, in the query's order.
    func apply(to records: [StoredMarkSyncRecord]) -> [StoredMarkSyncRecord] {
        records.filter(matches).sorted(by: precedes)
    }

    private func matches(_ record: StoredMarkSyncRecord) -> Bool {
        predicates.allSatisfy { predicate in
            guard let value = record.fields[predicate.fieldName]?.value, let key = Key(value),
                  let first = predicate.keys.first, key.sameKind(as: first) else { return false }
            return switch predicate.comparator {
            case .equals: key == first
            case .notEquals: key != first
            case .lessThan: key < first
            case .greaterThan: key > first
            case .isIn: predicate.keys.contains(key)
            }
        }
    }

    private func precedes(_ left: StoredMarkSyncRecord, _ right: StoredMarkSyncRecord) -> Bool {
        for sort in sorts {
            let leftKey = left.fields[sort.fieldName].flatMap { Key($0.value) }
            let rightKey = right.fields[sort.fieldName].flatMap { Key($0.value) }
            switch (leftKey, rightKey) {
            case (nil, nil): continue
            case (nil, _): return false
            case (_, nil): return true
            case let (leftKey?, rightKey?):
                guard leftKey != rightKey else { continue }
                guard leftKey.sameKind(as: rightKey) else { return leftKey < rightKey }
                return sort.ascending ? leftKey < rightKey : leftKey > rightKey
            }
        }
        return left.name.utf8.lexicographicallyPrecedes(right.name.utf8)
    }

    private static func predicate(_ filter: MarkSyncRecordsQueryRequest.Filter, at index: Int) throws(MarkSyncErrorBody) -> Predicate {
        let place = "filterBy[\(index)]"
        guard let comparator = Comparator(rawValue: filter.comparator) else {
            throw MarkSyncErrorBody(.badRequest, "\(place): comparator '\(String(filter.comparator.prefix(40)))' is not served; use EQUALS, NOT_EQUALS, LESS_THAN, GREATER_THAN or IN")
        }
        if let error = MarkSyncService.nameError(filter.fieldName, of: "\(place).fieldName") { throw MarkSyncErrorBody(.badRequest, error) }
        let served = ["STRING", "TIMESTAMP", "INT64", "DOUBLE"]
        let tag = filter.fieldValue.type.map { $0.hasSuffix("_LIST") ? String($0.dropLast(5)) : $0 }
        if let tag, !served.contains(tag) {
            throw MarkSyncErrorBody(.badRequest, "\(place): field type '\(String(tag.prefix(40)))' is not served; use STRING, TIMESTAMP, INT64 or DOUBLE")
        }
        let values: [MarkSyncValue]
        if comparator == .isIn {
            guard case .list(let list) = filter.fieldValue.value, !list.isEmpty else {
                throw MarkSyncErrorBody(.badRequest, "\(place): IN needs a non-empty list as fieldValue.value")
            }
            guard list.count <= maxInValues else {
                throw MarkSyncErrorBody.limitExceeded("\(place): IN takes at most \(maxInValues) values")
            }
            values = list
        } else {
            values = [filter.fieldValue.value]
        }
        var keys: [Key] = []
        for value in values {
            guard let key = Key(value), keys.first.map(key.sameKind) ?? true else {
                throw MarkSyncErrorBody(.badRequest, "\(place): fieldValue must be strings or numbers, all of one kind")
            }
            if let tag, (tag == "STRING") != (value.stringValue != nil) {
                throw MarkSyncErrorBody(.badRequest, "\(place): Invalid value, expected type \(tag)")
            }
            keys.append(key)
        }
        return Predicate(fieldName: filter.fieldName, comparator: comparator, keys: keys)
    }
}
