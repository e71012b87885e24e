import Locking

/// The port an API node bound, handed from its start-up callback to the test.
final class PortBox: Sendable {
    private let port = Locked<Int?>(nil)

    func set(_ value: Int) { port.withLock { $0 = value } }

    var value: Int? { port.withLock { $0 } }

    func wait() async throws -> Int {
        for _ in 0..<300 {
            if let value = port.withLock({ $0 }) { return value }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("the API did not start")
    }
}
