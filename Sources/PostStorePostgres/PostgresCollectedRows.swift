import Synchronization

/// Values gathered from a statement's rows as they arrive, on the connection's event loop (see
/// ``PostgresSession/forEachRow(_:_:)``), then handed over once the statement has finished.
final class PostgresCollectedRows<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    /// Adds a row's value.
    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    /// The values gathered so far, in the order the rows arrived.
    var all: [Value] { values.withLock { $0 } }
}
