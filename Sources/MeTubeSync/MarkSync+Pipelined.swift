extension MarkSync.Report {
    /// Runs `push` over `batches` with at most `inFlight` of them at once and adds up their
    /// reports; the first failure ends the whole (the batches still in flight are cancelled).
    /// For batches whose order does not matter, such as pushes of different records.
    static func pipelined<Batch: Sendable>(
        _ batches: [Batch], inFlight: Int, _ push: @escaping @Sendable (Batch) async throws -> MarkSync.Report
    ) async throws -> MarkSync.Report {
        try await withThrowingTaskGroup(of: MarkSync.Report.self) { group in
            var next = 0
            var total = MarkSync.Report()
            while next < min(inFlight, batches.count) {
                let batch = batches[next]
                group.addTask { try await push(batch) }
                next += 1
            }
            while let outcome = try await group.next() {
                total.add(outcome)
                if next < batches.count {
                    let batch = batches[next]
                    group.addTask { try await push(batch) }
                    next += 1
                }
            }
            return total
        }
    }
}
