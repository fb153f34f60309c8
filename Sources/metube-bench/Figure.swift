import Foundation
import MeTubeCore

/// One measured figure: a name, a value with its unit, and the goal it is held against.
struct Figure: Sendable {
    /// What was measured, e.g. `store.open.10k`.
    var name: String
    /// The measured value.
    var value: Double
    /// The unit of `value`, e.g. `ms`, `MiB`, `req/s`.
    var unit: String
    /// The goal, in words, e.g. `<= 50 ms`; empty when the issue only asks for a report.
    var goal: String = ""
    /// How it was measured, e.g. `median of 7`.
    var detail: String = ""

    /// The figure as one JSON line.
    var jsonLine: String {
        let measured: Any = value.isFinite ? (value * 1000).rounded() / 1000 : NSNull()
        let object: [String: Any] = ["figure": name, "value": measured, "unit": unit, "goal": goal, "met": met ?? NSNull(), "detail": detail]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}

/// Timing helpers shared by the benchmark suites.
enum Measure {
    /// Milliseconds taken by `body`.
    static func millis(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return (ContinuousClock.now - start).milliseconds
    }

    /// Milliseconds taken by `body`.
    static func millis(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return (ContinuousClock.now - start).milliseconds
    }

    /// The median of `samples`.
    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The `p`-th percentile (0...100) of `samples`, nearest rank.
    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
