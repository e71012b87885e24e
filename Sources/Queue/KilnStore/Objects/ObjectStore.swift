public import Foundation
import BlockingWork
import KilnCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Objects' bytes in a local directory, at relative paths such as `tenants/<tenant>/jobs/<job>/<attempt>/<name>`:
/// the default ``ObjectBackend``.
///
/// A write goes to a temporary file beside the target, is flushed to disk, renamed over the target, and the
/// directory is flushed too: after a crash the target holds the old bytes or the new, never part of them. The
/// blocking file calls run on ``BlockingExecutor/files``, off Swift's cooperative pool.
public struct ObjectStore: ObjectBackend {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    /// Stores `bytes` at `path`, replacing what was there atomically; returns their size and SHA-256 (hex), hashed on
    /// the same thread as the write, off the caller's: the API node's tasks run on its event loops.
    public func write(_ bytes: [UInt8], to path: String) async throws -> (size: Int, sha256: String) {
        let target = try fileURL(for: path)
        let sha256 = try await BlockingExecutor.files.run {
            try DurableFile.replace(target, with: bytes)
            return Digest.sha256Hex(bytes)
        }
        return (bytes.count, sha256)
    }

    /// The bytes at `path`; throws ``StoreError/Code/notFound`` when there are none.
    public func read(_ path: String) async throws -> [UInt8] {
        let file = try fileURL(for: path)
        return try await BlockingExecutor.files.run {
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw StoreError(.notFound, "no object at \(path)")
            }
            return [UInt8](data)
        }
    }

    /// The file at `path`, opened now (so a missing one throws before an answer starts) and read 256 KiB at a time.
    public func chunks(of path: String) async throws -> ObjectChunks {
        let file = try fileURL(for: path)
        let reader = try await BlockingExecutor.files.run { () throws -> FileReader in
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { throw StoreError(.notFound, "no object at \(path)") }
                throw DurableFile.failure("open", file)
            }
            return FileReader(descriptor: descriptor, file: file)
        }
        return ObjectChunks { try await BlockingExecutor.files.run { try reader.next(upTo: 256 * 1024) } }
    }

    /// Removes the object at `path`; removing a missing object is not an error.
    ///
    /// Directories it leaves empty go too, so that no directory named after an erased job stays behind, except the
    /// first three levels (`tenants/<tenant>/jobs`, `…/uploads`): those are shared with other objects' writes, which
    /// would fail if their directory vanished between its creation and the file's. A job's own directories are
    /// written only by that job, which has ended when its objects are deleted.
    public func delete(_ path: String) async throws {
        let components = try ObjectPath.components(of: path)
        let file = try fileURL(for: path)
        try await BlockingExecutor.files.run {
            guard unlink(file.path) == 0 || errno == ENOENT else { throw DurableFile.failure("unlink", file) }
            var directory = file.deletingLastPathComponent()
            for _ in 3..<max(components.count - 1, 3) {
                // A directory that is not empty ends the walk: each parent still holds it.
                guard rmdir(directory.path) == 0 else { break }
                directory = directory.deletingLastPathComponent()
            }
        }
    }

    public func list(under directory: String) async throws -> [String] {
        let base = try fileURL(for: directory)
        return try await BlockingExecutor.files.run {
            guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
            var paths: [String] = []
            while let relative = enumerator.nextObject() as? String {
                var isDirectory: ObjCBool = false
                let name = relative.split(separator: "/").last.map(String.init) ?? relative
                // Dot-led names are writes in progress (temporary files), never objects.
                let file = base.appendingPathComponent(relative).path
                guard !name.hasPrefix("."), FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue
                else { continue }
                paths.append("\(directory)/\(relative)")
            }
            return paths
        }
    }

    /// Where `path` lives on disk, for serving the file directly. Throws ``StoreError/Code/invalidPath`` unless
    /// `path` is relative with non-empty components, none starting with a dot: no `..`, and no clash with the
    /// temporary files of writes.
    public func fileURL(for path: String) throws -> URL {
        try ObjectPath.components(of: path).reduce(root) { $0.appendingPathComponent(String($1)) }
    }
}

/// An open file read from start to end, one piece after another; closed when the last reference goes (the answer
/// finished, or its client went away mid-way).
private final class FileReader: Sendable {
    /// Read by one caller at a time: ``ObjectChunks`` asks for the next piece only once the last one arrived.
    private let descriptor: Int32
    private let file: URL

    init(descriptor: Int32, file: URL) {
        self.descriptor = descriptor
        self.file = file
    }

    deinit {
        close(descriptor)
    }

    /// Up to `count` bytes, nil at the end of the file.
    func next(upTo count: Int) throws -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
        guard read >= 0 else { throw DurableFile.failure("read", file) }
        guard read > 0 else { return nil }
        bytes.removeSubrange(read...)
        return bytes
    }
}

/// The POSIX calls behind ``ObjectStore``'s atomic, durable writes.
private enum DurableFile {
    static func replace(_ target: URL, with bytes: [UInt8]) throws {
        let directory = target.deletingLastPathComponent()
        try makeDirectories(directory)
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(UInt64.random(in: .min ... .max)).tmp")
        var renamed = false
        defer { if !renamed { unlink(temporary.path) } }
        try writeDurably(bytes, to: temporary)
        guard rename(temporary.path, target.path) == 0 else { throw failure("rename", target) }
        renamed = true
        try syncDirectory(directory)
    }

    /// Writes a new file and flushes it to disk before returning.
    private static func writeDurably(_ bytes: [UInt8], to file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("open", file) }
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                // `buffer` is valid for the whole closure; each write resumes after the bytes already written.
                let written = write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("write", file)
                }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw failure("fsync", file) }
    }

    /// Creates the missing directories down to `directory`, flushing each new entry into its parent.
    private static func makeDirectories(_ directory: URL) throws {
        var missing: [URL] = []
        var current = directory
        while access(current.path, F_OK) != 0 {
            missing.append(current)
            current = current.deletingLastPathComponent()
        }
        for created in missing.reversed() {
            guard mkdir(created.path, 0o755) == 0 || errno == EEXIST else { throw failure("mkdir", created) }
            try syncDirectory(created.deletingLastPathComponent())
        }
    }

    /// Flushes a directory's entries (a rename, a new file) to disk.
    private static func syncDirectory(_ directory: URL) throws {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", directory) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("fsync", directory) }
    }

    static func failure(_ call: String, _ file: URL) -> StoreError {
        StoreError(.io, "\(call) \(file.path): \(String(cString: strerror(errno)))")
    }
}
