import ArgumentParser
import Foundation
import KilnCommandLine
import KilnCore
import KilnQueue
import KilnStore

extension QuotaLoadCommand {
    /// Runs `body` against what the options choose — a deployment's API, an API node started here, or Redis alone for
    /// the naive mode — setting it up first and taking down what was set up afterwards, whatever happens.
    func withTarget<T>(runID: String, logDirectory: String, _ body: (LoadTarget) async throws -> T) async throws -> T {
        if let apiURL {
            guard !key.isEmpty else { throw ValidationError("--api-url needs the tenant's API key: --key or KILN_API_KEY") }
            return try await body(LoadTarget(decider: .api(url: apiURL, key: key), description: "API \(apiURL)"))
        }
        // A namespace of the run's own: its keys never meet another run's, and it is deleted afterwards.
        var options = servers
        options.namespace = "loadtest-\(runID)"
        return try await Runtime.with(options) { runtime in
            do {
                let value: T
                if naive {
                    value = try await body(
                        LoadTarget(
                            decider: .naive(redisURL: options.redisURL, namespace: options.namespace),
                            description: "naive: read, then increment, in Redis (namespace \(options.namespace)); no API", redis: runtime.redis))
                } else {
                    value = try await withLocalAPI(runtime, options: options, logDirectory: logDirectory, body)
                }
                _ = try await runtime.namespace.deleteAll()
                return value
            } catch {
                await Self.despiteCancellation { _ = try await runtime.namespace.deleteAll() }
                throw error
            }
        }
    }

    /// Starts an API node on the run's namespace with the policy file, as the load-test tenant with a key made for the
    /// run (revoked afterwards). No worker runs: nothing the run admits finishes.
    private func withLocalAPI<T>(
        _ runtime: Runtime, options: ConnectionOptions, logDirectory: String, _ body: (LoadTarget) async throws -> T
    ) async throws -> T {
        try await runtime.namespace.prepare()
        guard let tenantID = TenantID(validating: tenant) else { throw ValidationError("not a tenant id: \(tenant)") }
        let tenants = TenantStore(pool: runtime.database)
        let existing = try await tenants.find(id: tenantID)
        let record: Tenant
        if let existing {
            record = existing
        } else {
            record = try await tenants.create(id: tenantID, name: "Load tests", diagnostics: true)
        }
        guard record.diagnostics else {
            throw ValidationError("tenant \(tenant) cannot submit the diagnostic kinds the load test sends: create it with --diagnostics")
        }
        let keys = APIKeyStore(pool: runtime.database)
        let (keyRecord, key) = try await keys.create(tenant: tenantID)
        let port = try port ?? FreePort.find()
        let url = "http://127.0.0.1:\(port)"
        let api = try ChildProcess(
            [
                "api", "--redis-url", options.redisURL, "--database-url", options.databaseURL, "--namespace", options.namespace,
                "--object-root", options.objectRoot, "--schema", options.schema, "--port", String(port), "--policies", policies,
            ], logTo: "\(logDirectory)/api.log")
        do {
            // Up to a minute: on two cores busy with other work, a fresh process can take many seconds to start answering.
            guard try await APIReadiness.wait(for: url, within: .seconds(60), every: .milliseconds(50)) else {
                throw LoadRunError("the API node did not become ready at \(url); see \(logDirectory)/api.log")
            }
            let value = try await body(
                LoadTarget(
                    decider: .api(url: url, key: key), description: "API \(url) started here (namespace \(options.namespace), no worker)",
                    apiProcess: api, redis: runtime.redis))
            await api.stop()
            _ = try await keys.revoke(keyRecord.id.uuidString)
            return value
        } catch {
            await api.stop()
            await Self.despiteCancellation { _ = try await keys.revoke(keyRecord.id.uuidString) }
            throw error
        }
    }

    /// Runs a clean-up step even in a cancelled task (an interrupted run), where calls to Redis and PostgreSQL would fail
    /// at once: an unstructured task does not inherit the cancellation. A step that fails leaves something behind but
    /// must not hide the error that stopped the run.
    static func despiteCancellation(_ step: @escaping @Sendable () async throws -> Void) async {
        await Task { try? await step() }.value
    }
}
