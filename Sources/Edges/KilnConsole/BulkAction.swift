import Foundation
import Hummingbird
import KilnStore

/// An action on everything a filter matches, more than one request should hold: audited when it starts, then done in
/// the background a batch at a time while the request answers at once, and audited again with what it did when it
/// ends. A console stopped meanwhile ends it early, with no second entry: running it again does the rest.
struct BulkAction {
    /// How many matches it reads, and acts on, at a time.
    static let batchSize = 500

    let dependencies: ConsoleDependencies
    let context: ConsoleRequestContext

    /// Audits `action` on `target` as `started`, answers by going back to `page`, and runs `work` in the background;
    /// what `work` returns (a failure included, in its words) is audited as the action's end.
    func start(
        _ action: String, on target: String, returningTo page: String, started: String, work: @escaping @Sendable () async -> String
    ) async throws -> Response {
        let audit = dependencies.audit
        let name = try context.signedIn().operator.name
        let address = context.clientAddress
        let response = try await AuditedAction(dependencies: dependencies, context: context).perform(action, on: target, returningTo: page) {
            started
        }
        // Started once the start is in the log, so the end's entry comes after it. Not a child of the request, which
        // answers now: the work outlives it, each of its batches bounded.
        Task {
            let outcome = await work()
            try? await audit.record(operator: name, action: action, target: target, outcome: outcome, address: address)
        }
        return response
    }
}
