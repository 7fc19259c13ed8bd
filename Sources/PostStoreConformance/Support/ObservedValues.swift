import PostStore
import Testing

/// An observation's iterator, stepped by a check with a time limit on each step: a value that never comes fails
/// the check instead of hanging it.
struct ObservedValues<Value: Sendable & Equatable>: Sendable {
    /// How long a check waits for a value that must come.
    static var limit: Duration { .seconds(60) }

    private var iterator: PostObservation<Value>.Iterator

    init(_ observation: PostObservation<Value>) {
        iterator = observation.makeAsyncIterator()
    }

    /// The next value, which must come within ``limit``.
    mutating func next(
        _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Value? {
        let iterator = self.iterator
        let (value, advanced) = try await withThrowingTaskGroup(
            of: (Value?, PostObservation<Value>.Iterator)?.self
        ) { group in
            group.addTask {
                var iterator = iterator
                let value = try await iterator.next()
                return (value, iterator)
            }
            group.addTask {
                try await Task.sleep(for: Self.limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let answer = first else {
                throw ObservationTimeout(what: what)
            }
            return answer
        }
        self.iterator = advanced
        return value
    }
}

/// A value an observation did not deliver in time.
struct ObservationTimeout: Error, CustomStringConvertible {
    let what: String

    var description: String { "The observation delivered no value for \(what) within \(ObservedValues<Int>.limit)." }
}
