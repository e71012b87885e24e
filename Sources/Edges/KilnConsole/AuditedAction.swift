import Foundation
import Hummingbird
import KilnStore

/// An operator's action, written to the audit log with what came of it, then answered by going back to `page` with
/// the outcome as a notice (``ConsoleNotice``; post, redirect, get: reloading the page does not act twice).
struct AuditedAction {
    let dependencies: ConsoleDependencies
    let context: ConsoleRequestContext

    /// Runs `body`, which returns what it did in a few words, and audits it as `action` on `target`.
    func perform(
        _ action: String, on target: String, note: String = "", returningTo page: String, _ body: () async throws -> String
    ) async throws -> Response {
        let session = try context.signedIn()
        let name = session.operator.name
        let outcome: String
        do {
            outcome = try await body()
        } catch let refusal as ConsoleRefusal {
            try await dependencies.audit.record(
                operator: name, action: action, target: target, note: note, outcome: "refused: \(refusal.message)",
                address: context.clientAddress)
            throw refusal
        } catch {
            try await dependencies.audit.record(
                operator: name, action: action, target: target, note: note, outcome: "failed: \(error)",
                address: context.clientAddress)
            throw error
        }
        try await dependencies.audit.record(
            operator: name, action: action, target: target, note: note, outcome: outcome, address: context.clientAddress)
        let separator = page.contains("?") ? "&" : "?"
        return .redirect(to: page + separator + ConsoleNotice.query(outcome, session: session))
    }
}
