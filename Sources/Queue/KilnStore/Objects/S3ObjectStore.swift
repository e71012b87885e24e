import BlockingWork
public import CurlClient
import KilnCore
public import S3Client

/// Objects' bytes in one bucket of an S3-compatible server (AWS S3, MinIO, R2), keyed by the same relative paths as
/// ``ObjectStore``'s files: `tenants/<tenant>/uploads/<id>` is that key in the bucket.
///
/// A PUT replaces an object whole, so readers see the old bytes or the new, never part of them. An outage (no
/// connection, a timeout, S3's 5xx answers) becomes a ``StoreError/Code/unavailable`` error and every other refusal a
/// ``StoreError/Code/io`` one, both naming the operation, the path and S3's status and code; no credential is in them.
public struct S3ObjectStore: ObjectBackend {
    /// The client every request goes through.
    public let client: S3ObjectClient

    /// Creates a store over `client`.
    public init(client: S3ObjectClient) {
        self.client = client
    }

    /// Creates a store for `configuration`'s bucket over `http`, which the caller owns and shuts down.
    public init(configuration: S3Configuration, http: HTTPClient) {
        self.client = S3ObjectClient(configuration: configuration, http: http)
    }

    /// The bytes are hashed once, off the caller's thread: the API node's tasks run on its event loops, and hashing an
    /// upload of megabytes would hold up every connection of its loop. The same digest signs the request and is returned.
    public func write(_ bytes: [UInt8], to path: String) async throws -> (size: Int, sha256: String) {
        let key = try Self.key(path)
        let sha256 = try await BlockingExecutor.files.run { Digest.sha256Hex(bytes) }
        try await Self.translating("PutObject", path) { try await client.put(key: key, bytes: bytes, payloadSHA256: sha256) }
        return (bytes.count, sha256)
    }

    public func read(_ path: String) async throws -> [UInt8] {
        let key = try Self.key(path)
        let bytes = try await Self.translating("GetObject", path) { try await client.get(key: key) }
        guard let bytes else { throw StoreError(.notFound, "no object at \(path)") }
        return bytes
    }

    /// The object in one piece: the S3 client reads a body whole.
    public func chunks(of path: String) async throws -> ObjectChunks {
        ObjectChunks(whole: try await read(path))
    }

    public func delete(_ path: String) async throws {
        let key = try Self.key(path)
        try await Self.translating("DeleteObject", path) { try await client.delete(key: key) }
    }

    public func list(under directory: String) async throws -> [String] {
        let prefix = try Self.key(directory) + "/"
        return try await Self.translating("ListObjectsV2", directory) { try await client.list(prefix: prefix) }
    }

    /// The object key of `path`: the path itself, once it passes the rule both backends share.
    private static func key(_ path: String) throws -> String {
        _ = try ObjectPath.components(of: path)
        return path
    }

    /// Runs `call`, turning S3's and the transport's errors into ``StoreError``s, as the local backend reports its
    /// file-system failures. Their descriptions hold the status, S3's code and message, and the URL, never a secret.
    private static func translating<T>(_ operation: String, _ path: String, _ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as StoreError {
            throw error
        } catch let error as S3Error where error.isUnavailable {
            throw StoreError(.unavailable, "\(operation) \(path): \(error)")
        } catch let error as HTTPClientError where Self.unreachable.contains(error.kind) {
            throw StoreError(.unavailable, "\(operation) \(path): \(error)")
        } catch {
            throw StoreError(.io, "\(operation) \(path): \(error)")
        }
    }

    /// The transport failures that mean the server is out of reach rather than the request wrong; a client shut down
    /// is the process stopping, as a closed pool is for the databases.
    private static let unreachable: Set<HTTPClientError.Kind> = [.connect, .timeout, .shutdown]
}
