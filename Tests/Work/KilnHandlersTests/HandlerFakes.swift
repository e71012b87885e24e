import KilnHandlers
import KilnProviders
import KilnStore
import Locking

/// Every tenant's every kind served by one provider.
struct OneProviderRoutes: TextRoutes {
    let answering: any TextProvider

    func provider(tenant: String, kind: String) -> (any TextProvider)? { answering }
}

/// Provider usage kept in memory, in the order it was recorded.
final class MemoryUsage: ProviderUsageRecording {
    private let recorded = Locked<[ProviderUsageRecord]>([])

    var records: [ProviderUsageRecord] { recorded.withLock { $0 } }

    func record(_ usage: ProviderUsageRecord) async throws {
        recorded.withLock { $0.append(usage) }
    }
}
