import Foundation
import Hummingbird
import KilnCore
import KilnStore

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

    /// Where a list's page starts (`after`, a cursor the previous page's link carries); nil for the first page.
    static func cursor(_ request: Request) throws -> JobSearch.Cursor? {
        try request.uri.queryParameters["after"].map { text in
            guard let cursor = JobSearch.Cursor(text: String(text)) else { throw ConsoleRefusal(.badRequest, "after: not a page's cursor") }
            return cursor
        }
    }

    /// The query of the page after `cursor`, with the same filter (`fields`, as typed; empty ones left out).
    static func nextPage(_ fields: [String: String], after cursor: JobSearch.Cursor) -> String {
        nextPage(fields, cursor: "after", cursor.text)
    }

    /// The query of the next page, with the same filter (`fields`, as typed; empty ones left out) and the cursor
    /// `value` in the parameter `name`.
    static func nextPage(_ fields: [String: String], cursor name: String, _ value: String) -> String {
        let filter = queryString(fields)
        let cursor = queryString([name: value])
        return filter.isEmpty ? cursor : filter + "&" + cursor
    }

    /// `fields` as a query, in the order of their names, empty ones left out.
    static func queryString(_ fields: [String: String]) -> String {
        var components = URLComponents()
        components.queryItems =
            fields.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return components.percentEncodedQuery ?? ""
    }

    /// `2026-11-26`, `2026-11-26T06:30` (a browser's `datetime-local`) or a full ISO 8601 time, in UTC.
    static func date(_ text: String, field: String) throws -> Date {
        let candidates = [text, text + ":00Z", text + "T00:00:00Z", text + "Z"]
        for candidate in candidates {
            if let date = try? Date(candidate, strategy: .iso8601) { return date }
        }
        throw ConsoleRefusal(.badRequest, "\(field): \(text) is not a date (2026-11-26 or 2026-11-26T06:30)")
    }

    /// A tenant id that must be there.
    static func requiredTenant(_ text: String?, field: String = "tenant") throws -> TenantID {
        guard let id = try tenant(text ?? "", field: field) else { throw ConsoleRefusal(.badRequest, "\(field): give a tenant id") }
        return id
    }
}
