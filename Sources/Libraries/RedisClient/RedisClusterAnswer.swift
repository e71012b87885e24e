/// A cluster node's error reply saying that a command did not run there: it belongs to another node (`MOVED`), it
/// belongs there while its slot migrates (`ASK`), or the cluster cannot take it right now (`TRYAGAIN` while a
/// multi-key command's keys are split by a migration, `CLUSTERDOWN` while a slot has no master).
enum RedisClusterAnswer: Sendable, Equatable {
    case moved(slot: Int, to: RedisNodeAddress)
    case ask(slot: Int, to: RedisNodeAddress)
    case retryLater

    /// Reads `reply`, from the node at `from`; nil for any other reply.
    init?(_ reply: RedisValue, from: RedisNodeAddress) {
        guard case .error(let message) = reply else { return nil }
        self.init(message, from: from)
    }

    init?(_ message: String, from: RedisNodeAddress) {
        let words = message.split(separator: " ", maxSplits: 3)
        switch words.first {
        case "MOVED", "ASK":
            guard words.count >= 3, let slot = Int(words[1]), let address = RedisNodeAddress(words[2], defaultHost: from.host) else { return nil }
            self = words[0] == "MOVED" ? .moved(slot: slot, to: address) : .ask(slot: slot, to: address)
        case "TRYAGAIN", "CLUSTERDOWN":
            self = .retryLater
        default:
            return nil
        }
    }
}
