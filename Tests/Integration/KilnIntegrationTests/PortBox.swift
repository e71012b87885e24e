import Locking

/// The port an API node bound, handed from its start-up callback to the test.
final class PortBox: Sendable {
    private let port = Locked<Int?>(nil)

    func set(_ value: Int) { port.withLock { $0 = value } }

    var value: Int? { port.withLock { $0 } }

    func wait() async throws -> Int {
        guard let value = try await Eventually.value(every: .milliseconds(10), { port.withLock { $0 } }) else {
            throw TestFailure("the API did not start")
        }
        return value
    }
}
