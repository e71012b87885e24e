import Foundation
import KilnCore
import KilnStore
import PostgresClient
import Testing

/// The console's job search reads an index for every filter it offers, with or without a tenant: PostgreSQL's plan
/// (`EXPLAIN`) reads no partition that holds rows whole, beside 30,000 records of three tenants, five kinds and four
/// states over three days.
@Suite struct JobSearchPlanTests {
    @Test func everyFilterReadsAnIndex() async throws {
        try await TestDatabase.withSchema { pool in
            let tenants = try ["acme", "globex", "initech"].map { try #require(TenantID(validating: $0)) }
            for tenant in tenants { _ = try await TenantStore(pool: pool).create(id: tenant, name: tenant.rawValue) }
            let identities = try (0..<500).map { try #require(Identity(validating: "user-\($0)")) }
            let kinds = ["diag.echo", "diag.sleep", "text.generate", "image.generate", "story.generate"]
            let states: [JobState] = [.succeeded, .failed, .cancelled, .dead]
            let start = Date().addingTimeInterval(-3 * 86_400)
            let store = JobStore(pool: pool)
            for batch in 0..<30 {
                let records = (0..<1_000).map { index -> JobRecord in
                    let n = batch * 1_000 + index
                    let created = start.addingTimeInterval(Double(n) * 8)
                    return JobRecord(
                        id: JobID(shard: 0, milliseconds: Int64(created.timeIntervalSince1970 * 1000)), tenant: tenants[n % 3],
                        identity: identities[n % identities.count], kind: kinds[n % kinds.count], priority: .normal,
                        state: n % 50 == 0 ? states[(n / 50) % 4] : .succeeded, attempt: 1, maxAttempts: 3, input: "{}", result: nil,
                        createdAt: created, finishedAt: created)
                }
                _ = try await store.record(records)
            }
            _ = try await pool.execute("ANALYZE jobs")

            let search = JobSearch(pool: pool)
            let cursor = JobSearch.Cursor(at: start.addingTimeInterval(86_400), id: JobID(shard: 0))
            // Filters that match one record in three or five (a tenant, a kind, a time range) may be served by reading
            // the newest first and checking each (a few rows a match); those that match one in fifty or fewer must be
            // read through an index of their own fields, or a page would read the table to its end.
            let common: [(String, JobSearch.Filter)] = [
                ("nothing", .init()),
                ("tenant", .init(tenant: tenants[0])),
                ("kind", .init(kind: "story.generate")),
                ("tenant and kind", .init(tenant: tenants[2], kind: "diag.sleep")),
                ("a time range", .init(createdFrom: start.addingTimeInterval(3_600), createdBefore: start.addingTimeInterval(7_200))),
            ]
            let rare: [(String, JobSearch.Filter)] = [
                ("identity", .init(identity: identities[7])),
                ("tenant and identity", .init(tenant: tenants[1], identity: identities[7])),
                ("state", .init(state: .dead)),
                ("tenant and state", .init(tenant: tenants[2], state: .failed)),
                ("state and kind", .init(kind: "diag.echo", state: .failed)),
                ("state and a time range", .init(state: .failed, createdFrom: start.addingTimeInterval(86_400))),
            ]
            let filters = common.map { ($0.0, $0.1, false) } + rare.map { ($0.0, $0.1, true) }
            for (name, filter, keyedByItsFields) in filters {
                for after in [nil, cursor] {
                    let plan = try await search.plan(filter, after: after, limit: 50)
                    #expect(plan.contains("Index"), "\(name): no index read:\n\(plan)")
                    // The index is one of the filter's fields, not the newest-first walk that checks each row.
                    let fields = [
                        filter.tenant.map { _ in "tenant_id = " }, filter.identity.map { _ in "identity = " }, filter.kind.map { _ in "kind = " },
                        filter.state.map { _ in "state = " }, filter.createdFrom.map { _ in "created_at >= " },
                    ].compactMap { $0 }
                    let keyed = plan.split(separator: "\n").filter { $0.contains("Index Cond") }
                    #expect(
                        !keyedByItsFields || keyed.contains { line in fields.contains { line.contains($0) } },
                        "\(name): no index of its fields:\n\(plan)")
                    // A partition with no rows yet (tomorrow's) costs nothing to read whole; any other must be read
                    // through an index.
                    let wholeReads = plan.split(separator: "\n").filter { $0.contains("Seq Scan") && !$0.contains("(cost=0.00..0.00") }
                    #expect(wholeReads.isEmpty, "\(name): a table read whole:\n\(plan)")
                }
            }
        }
    }
}
