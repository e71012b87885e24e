/// Where artifacts' and uploads' bytes live: ``ObjectStore`` (a local directory, the default) or ``S3ObjectStore``
/// (a bucket of an S3-compatible server).
///
/// Objects are named by relative paths such as `tenants/<tenant>/jobs/<job>/<attempt>/<name>`; both backends accept
/// the same paths (relative, non-empty components, none starting with a dot) and use them as they are, as file paths
/// under the root or as keys in the bucket. A write replaces an object whole: a reader sees the old bytes or the new,
/// never part of them.
public protocol ObjectBackend: Sendable {
    /// Stores `bytes` at `path`, replacing what was there atomically; returns their size and SHA-256 (hex).
    func write(_ bytes: [UInt8], to path: String) async throws -> (size: Int, sha256: String)

    /// The bytes at `path`; throws ``StoreError/Code/notFound`` when there are none.
    func read(_ path: String) async throws -> [UInt8]

    /// The bytes at `path` a piece at a time; throws ``StoreError/Code/notFound`` at once when there are none.
    func chunks(of path: String) async throws -> ObjectChunks

    /// Removes the object at `path`; removing a missing object is not an error.
    func delete(_ path: String) async throws

    /// The paths of every object under the directory `directory` (a path of the same rule, without a trailing
    /// slash), in no particular order; none when there is nothing there. Erasure and the purge use it to find every
    /// attempt's bytes of a job, including those a later attempt's record replaced.
    func list(under directory: String) async throws -> [String]
}

/// The one rule for object paths, shared by the backends so a path valid for one is valid for the other.
enum ObjectPath {
    /// The `/`-separated components of `path`. Throws ``StoreError/Code/invalidPath`` unless `path` is relative with
    /// non-empty components, none starting with a dot: no `..`, and no clash with the temporary files of local writes.
    static func components(of path: String) throws -> [Substring] {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        let valid = !path.isEmpty && components.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") && !$0.utf8.contains(0) }
        guard valid else { throw StoreError(.invalidPath, "object path \"\(path)\" is not a relative path of plain names") }
        return components
    }
}
