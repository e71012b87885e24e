/// A blocking connection of a C client library that a ``ThreadedConnectionPool`` can open, hand out and close.
public protocol PooledConnection: AnyObject, Sendable {
    associatedtype Configuration: Sendable

    /// Opens the connection; blocks, so the pool calls it on one of its threads.
    init(configuration: Configuration) throws
    /// Whether the connection may serve the next caller (it is not broken, nor left in the middle of something).
    var isReusable: Bool { get }
    /// Frees the connection; idempotent.
    func close()
}
