public import KilnStore

/// Where the handlers put what each provider answer consumed: ``ProviderUsageStore`` (PostgreSQL) in a worker, memory
/// in unit tests.
public protocol ProviderUsageRecording: Sendable {
    func record(_ usage: ProviderUsageRecord) async throws
}

extension ProviderUsageStore: ProviderUsageRecording {}
