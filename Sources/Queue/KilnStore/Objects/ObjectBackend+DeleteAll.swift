extension ObjectBackend {
    /// Deletes every object under `directory`, listed rather than taken from rows, so that bytes an interrupted
    /// attempt wrote go too; returns how many there were.
    @discardableResult
    func deleteAll(under directory: String) async throws -> Int {
        let paths = try await list(under: directory)
        for path in paths { try await delete(path) }
        return paths.count
    }
}
