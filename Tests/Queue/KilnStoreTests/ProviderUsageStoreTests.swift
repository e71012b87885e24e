import KilnCore
import KilnStore
import Testing

@Suite struct ProviderUsageStoreTests {
    /// Answers ending together share `INSERT`s; a row the table refuses (an attempt numbered 0) fails its own caller
    /// only, and every other row is stored once.
    @Test func rowsRecordedTogetherAreEachStoredOnceAndARefusedRowFailsAlone() async throws {
        let tenant = try #require(TenantID(validating: "acme"))
        try await TestDatabase.withSchema { pool in
            let store = ProviderUsageStore(pool: pool)
            let jobs = (0..<40).map { _ in JobID() }
            let refused = jobs[17]
            let outcomes = await withTaskGroup(of: (JobID, Bool).self) { group in
                for (index, job) in jobs.enumerated() {
                    group.addTask {
                        let record = ProviderUsageRecord(
                            job: job, tenant: tenant, attempt: job == refused ? 0 : 1, provider: "simulator", model: "m",
                            inputTokens: index, outputTokens: 2 * index)
                        do {
                            try await store.record(record)
                            return (job, true)
                        } catch {
                            return (job, false)
                        }
                    }
                }
                return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            #expect(outcomes == Dictionary(uniqueKeysWithValues: jobs.map { ($0, $0 != refused) }))
            for (index, job) in jobs.enumerated() {
                let stored = try await store.usage(of: job)
                #expect(stored.map(\.inputTokens) == (job == refused ? [] : [index]))
                #expect(stored.map(\.outputTokens) == (job == refused ? [] : [2 * index]))
            }
        }
    }
}
