import HummingbirdCore
import Logging
import NIOCore
import PostStoreNIO

/// An HTTP child channel whose requests are handled on the connection's own event loop rather than on Swift's pool
/// (see ``PostServer``, which uses it over a store on a database server).
///
/// A request then needs no thread switch to be read, answered or written, nor, when the store's connection lives on
/// the same loop, for the store's statement: on a small machine those switches cost more than the work.
struct EventLoopBoundChannel<Base: ServerChildChannel>: ServerChildChannel {
    /// The channel that handles the connection.
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        base.setup(channel: channel, logger: logger)
    }

    func handle(value: Base.Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor.executor(for: value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}
