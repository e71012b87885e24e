import Foundation
import KilnAPI
import KilnCore
import KilnStore
import Locking

/// Published pages in memory: live until their owner revokes them, then gone (410).
final class MemoryShares: SharedPages {
    struct Page {
        let owner: Identity
        let html: String
        let files: [String: (contentType: String, bytes: [UInt8])]
        let expiresAt: Date
        var revoked = false
    }

    private let pages: Locked<[String: Page]>

    init(_ pages: [String: Page] = [:]) {
        self.pages = Locked(pages)
    }

    func page(_ slug: String) async throws -> ShareStore.Lookup<(html: String, expiresAt: Date)> {
        guard let page = pages.withLock({ $0[slug] }) else { return .notFound }
        return page.revoked ? .gone : .live((page.html, page.expiresAt))
    }

    func file(_ slug: String, name: String) async throws -> ShareStore.Lookup<(contentType: String, bytes: [UInt8])> {
        guard let page = pages.withLock({ $0[slug] }) else { return .notFound }
        if page.revoked { return .gone }
        return page.files[name].map { .live($0) } ?? .notFound
    }

    func revoke(_ slug: String, tenant: TenantID, identity: Identity) async throws -> Bool {
        pages.withLock { pages in
            guard pages[slug]?.owner == identity else { return false }
            pages[slug]?.revoked = true
            return true
        }
    }
}
