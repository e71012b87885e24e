import EventPolling

/// The loop's poller and which connection each watched socket belongs to.
///
/// libpq may change a connection's socket while connecting, and closes sockets itself, so a number can pass to
/// another connection; a connection forgets a socket only while the registry still names it as the owner.
/// Confined to the loop thread, as the connections are.
final class SocketRegistry {
    let poller: Poller
    private var owners: [Int32: ServerConnection] = [:]

    init(poller: Poller) {
        self.poller = poller
    }

    func watch(_ socket: Int32, for connection: ServerConnection, reading: Bool, writing: Bool) {
        owners[socket] = connection
        poller.watch(socket, reading: reading, writing: writing)
    }

    func forget(_ socket: Int32, of connection: ServerConnection) {
        guard socket >= 0, owners[socket] === connection else { return }
        owners[socket] = nil
        poller.unwatch(socket)
    }

    func owner(of socket: Int32) -> ServerConnection? {
        owners[socket]
    }
}
