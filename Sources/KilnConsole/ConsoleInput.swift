import Foundation
import Hummingbird
import KilnCore

/// What operators type into the console's forms and queries, checked with the reason shown on a `400` page.
enum ConsoleInput {
    /// The query's field, trimmed; empty when absent.
    static func query(_ request: Request, _ name: String) -> String {
        request.uri.queryParameters[Substring(name)].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
    }

    /// A tenant id, or nil for an empty field.
    static func tenant(_ text: String, field: String = "tenant") throws -> TenantID? {
        guard !text.isEmpty else { return nil }
        guard let id = TenantID(validating: text) else { throw ConsoleRefusal(.badRequest, "\(field): \(text) is not a tenant id") }
        return id
    }

    /// A tenant id that must be there.
    static func requiredTenant(_ text: String?, field: String = "tenant") throws -> TenantID {
        guard let id = try tenant(text ?? "", field: field) else { throw ConsoleRefusal(.badRequest, "\(field): give a tenant id") }
        return id
    }
}
