public import Foundation

extension Kiln {
    /// Stores `data` (a photo, a drawing: up to 20 MiB) for jobs to refer to by the upload's id. Sent once: a lost
    /// answer is a ``KilnError`` `connection_failed`, not a second upload. `contentType` is its media type, such as `image/jpeg`.
    public func upload(_ data: Data, contentType: String) async throws -> Upload {
        try await call(.upload, body: Body(data: data, contentType: contentType), as: Upload.self)
    }

    /// Stores the file at `file`, as ``upload(_:contentType:)``.
    public func upload(contentsOf file: URL, contentType: String) async throws -> Upload {
        try await upload(try Data(contentsOf: file), contentType: contentType)
    }

    /// Downloads the job's artifact `name` (`chat.mp4`, `image.png`, …) into `destination` (a new temporary file unless
    /// given) as it arrives, telling `progress` the fraction received; returns the file.
    @discardableResult
    public func download<Result>(
        _ name: String, of job: SubmittedJob<Result>, to destination: URL? = nil, progress: (Double) -> Void = { _ in }
    ) async throws -> URL {
        let file = destination ?? FileManager.default.temporaryDirectory.appendingPathComponent("kiln-\(UUID().uuidString)-\(name)")
        let response = try await send(.artifact, ["id": job.id.rawValue, "name": name])
        let expected = response.headers["content-length"].flatMap(Int.init)
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw KilnError(code: "file_not_writable", detail: "cannot create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var received = 0
        do {
            for try await chunk in response.body {
                try handle.write(contentsOf: chunk)
                received += chunk.count
                if let expected, expected > 0 { progress(min(Double(received) / Double(expected), 1)) }
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw KilnError.connectionFailed(error)
        }
        if let expected, received != expected {
            try? FileManager.default.removeItem(at: file)
            throw KilnError(code: "connection_failed", detail: "\(name) ended after \(received) of its \(expected) bytes")
        }
        progress(1)
        return file
    }
}
