import Foundation
import Hummingbird
import KilnCore
import KilnStore

/// The jobs page's search form, read from the query: each field checked, so a typo is a `400` that says which.
struct JobFilterQuery {
    let filter: JobSearch.Filter
    let cursor: JobSearch.Cursor?
    /// The fields as typed, to fill the form again and to build the next page's link.
    let fields: [String: String]

    init(_ request: Request) throws {
        var fields: [String: String] = [:]
        for name in ["tenant", "identity", "kind", "state", "from", "to"] {
            let value = ConsoleInput.query(request, name)
            if !value.isEmpty { fields[name] = value }
        }
        self.fields = fields
        var filter = JobSearch.Filter()
        filter.tenant = try ConsoleInput.tenant(fields["tenant"] ?? "")
        if let identity = fields["identity"] {
            guard let id = Identity(validating: identity) else { throw ConsoleRefusal(.badRequest, "identity: not a valid identity") }
            filter.identity = id
        }
        filter.kind = fields["kind"]
        if let state = fields["state"] {
            guard let known = JobState(rawValue: state) else {
                throw ConsoleRefusal(.badRequest, "state: one of \(JobState.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            filter.state = known
        }
        filter.createdFrom = try fields["from"].map { try ConsoleInput.date($0, field: "from") }
        filter.createdBefore = try fields["to"].map { try ConsoleInput.date($0, field: "to") }
        self.filter = filter
        cursor = try ConsoleInput.cursor(request)
    }
}
