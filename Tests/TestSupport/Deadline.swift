/// The one deadline helper of the tests and the bench: runs `operation`, throwing
/// ``DeadlineExceeded`` with `message` if it has not finished after `limit` (the operation is
/// cancelled).
public func withDeadline<T: Sendable>(_ limit: Duration, _ message: String, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw DeadlineExceeded(description: "\(message) within \(limit)")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// Polls `probe` every `interval` until it answers a value, within `limit`: for a state that
/// announces no event a test could await (a file another process writes, a server's health).
public func eventually<T: Sendable>(
    within limit: Duration = .seconds(30), every interval: Duration = .milliseconds(20), _ message: String,
    _ probe: @escaping @Sendable () async throws -> T?
) async throws -> T {
    try await withDeadline(limit, message) {
        while true {
            if let value = try await probe() { return value }
            try await Task.sleep(for: interval)
        }
    }
}

/// A wait that did not end in time.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    public let description: String
}
