import Foundation
import KilnAPI
import KilnCore
import KilnStore

/// API keys in memory: each key names its tenant.
struct MemoryTenantKeys: TenantKeys {
    let tenants: [String: Tenant]

    func authenticate(key: String) async throws -> Tenant? { tenants[key] }
}
