import Locking

extension SimulatorState {
    /// Requests kept at most; the oldest are forgotten first, so a long load test cannot exhaust memory.
    static let falCapacity = 10_000

    func submitFal(id: String, request: FalRequest) {
        self.contents.withLock { contents in
            contents.falRequests[id] = request
            contents.falOrder.append(id)
            if contents.falOrder.count > Self.falCapacity {
                let forgotten = contents.falOrder.removeFirst()
                contents.falRequests[forgotten] = nil
            }
        }
    }

    /// Counts a status poll and returns the request as it stands after it.
    func pollFal(id: String) -> FalRequest? {
        self.contents.withLock { contents in
            contents.falRequests[id]?.polls += 1
            return contents.falRequests[id]
        }
    }

    func falRequest(id: String) -> FalRequest? {
        self.contents.withLock { $0.falRequests[id] }
    }

    /// Cancels a request that has not completed; returns the request as it was before, or `nil` if unknown.
    func cancelFal(id: String, steps: Int) -> FalRequest? {
        self.contents.withLock { contents in
            guard let request = contents.falRequests[id] else { return nil }
            if request.status(steps: steps) != .completed { contents.falRequests[id]?.cancelled = true }
            return request
        }
    }
}
