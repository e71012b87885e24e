import Foundation
import KilnAPI
import KilnCore
import KilnStore
import Locking

/// Uploads in memory: the bytes and the record, as the upload store keeps them.
final class MemoryUploads: UploadRecords {
    private let saved = Locked<[(upload: Upload, bytes: [UInt8])]>([])

    var uploads: [(upload: Upload, bytes: [UInt8])] { saved.withLock { $0 } }

    func save(tenant: TenantID, identity: Identity, contentType: String, bytes: [UInt8]) async throws -> Upload {
        let id = UUID()
        let upload = Upload(
            id: id, tenant: tenant, identity: identity, contentType: contentType, size: bytes.count, sha256: Digest.sha256Hex(bytes),
            path: "tenants/\(tenant)/uploads/\(id)", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
        saved.withLock { $0.append((upload, bytes)) }
        return upload
    }
}
