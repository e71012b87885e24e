import CurlClient

/// Waiting for a server that a command started (an API node, a console) until it answers.
enum APIReadiness {
    /// Asks `url`'s `path` every `interval` until it answers 200; false when it has not within `limit`.
    static func wait(for url: String, path: String = "/readyz", within limit: Duration, every interval: Duration) async throws -> Bool {
        let client = try HTTPClient()
        defer { client.shutdown() }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let response = try? await client.execute(HTTPRequest(method: "GET", url: url + path)), response.status == 200 { return true }
            try await Task.sleep(for: interval)
        }
        return false
    }
}
