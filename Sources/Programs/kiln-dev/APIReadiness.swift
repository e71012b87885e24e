import CurlClient

/// Waiting for an API node that a command started until it answers `/readyz`.
enum APIReadiness {
    /// Asks `url`'s `/readyz` every `interval` until it answers 200; false when it has not within `limit`.
    static func wait(for url: String, within limit: Duration, every interval: Duration) async throws -> Bool {
        let client = try HTTPClient()
        defer { client.shutdown() }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let response = try? await client.execute(HTTPRequest(method: "GET", url: "\(url)/readyz")), response.status == 200 { return true }
            try await Task.sleep(for: interval)
        }
        return false
    }
}
