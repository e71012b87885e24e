import Foundation
import Hummingbird
import KilnCore
import KilnQueue
import KilnStore

/// The jobs page's search form, read from the query: each field checked, so a typo is a `400` that says which. One
/// search covers both the jobs Redis holds that have not ended and the finished ones PostgreSQL records.
struct JobFilterQuery {
    let filter: JobSearch.Filter
    let cursor: JobSearch.Cursor?
    /// What to look for among the jobs that have not ended; nil when the state asked for is an end.
    let live: LiveJobs.Filter?
    let liveCursor: LiveJobs.Cursor?
    /// The fields as typed, to fill the form again and to build the next page's link.
    let fields: [String: String]

    /// The search a page's query asks for, with its page's cursors.
    /// - Parameter narrowing: the tenant to search given the one asked for (``SignedIn/narrowing(_:)``).
    init(_ request: Request, narrowing: (TenantID?) throws -> TenantID?) throws {
        try self.init(
            fields: Self.fields { ConsoleInput.query(request, $0) }, narrowing: narrowing, cursor: try ConsoleInput.cursor(request),
            liveCursor: try request.uri.queryParameters["live"].map { text in
                guard let cursor = LiveJobs.Cursor(text: String(text)) else { throw ConsoleRefusal(.badRequest, "live: not a page's cursor") }
                return cursor
            })
    }

    /// The search an action on every match posts: the same fields, in its form, and no page.
    init(_ form: FormBody, narrowing: (TenantID?) throws -> TenantID?) throws {
        try self.init(fields: Self.fields { form[$0] ?? "" }, narrowing: narrowing, cursor: nil, liveCursor: nil)
    }

    private init(
        fields: [String: String], narrowing: (TenantID?) throws -> TenantID?, cursor: JobSearch.Cursor?, liveCursor: LiveJobs.Cursor?
    ) throws {
        self.fields = fields
        var filter = JobSearch.Filter()
        filter.tenant = try narrowing(try ConsoleInput.tenant(fields["tenant"] ?? ""))
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
        self.cursor = cursor
        live = Self.live(filter)
        self.liveCursor = liveCursor
    }

    /// The search's fields, each read by `value` (empty when absent), the empty ones left out.
    private static func fields(_ value: (String) -> String) -> [String: String] {
        var fields: [String: String] = [:]
        for name in ["tenant", "identity", "kind", "state", "from", "to"] {
            let text = value(name)
            if !text.isEmpty { fields[name] = text }
        }
        return fields
    }

    /// The filter in words, for a confirmation and the audit log: its tenant (as narrowed), identity, kind and state,
    /// and its creation times when given.
    var described: String {
        var parts = [
            "tenant \(filter.tenant?.rawValue ?? "any")", "identity \(filter.identity?.rawValue ?? "any")", "kind \(filter.kind ?? "any")",
            "state \(filter.state?.rawValue ?? "any")",
        ]
        if let from = fields["from"] { parts.append("created from \(from)") }
        if let to = fields["to"] { parts.append("created before \(to)") }
        return parts.joined(separator: ", ")
    }

    /// Whether a page of one list was asked for: the other list is then left out.
    var pagesLive: Bool { liveCursor != nil }
    var pagesFinished: Bool { cursor != nil }

    /// The live filter of `filter`: a queued job may be ready, held by its cap or delayed, a retrying one waits out
    /// its backoff.
    private static func live(_ filter: JobSearch.Filter) -> LiveJobs.Filter? {
        var live = LiveJobs.Filter(tenant: filter.tenant, identity: filter.identity, kind: filter.kind)
        live.createdFrom = filter.createdFrom
        live.createdBefore = filter.createdBefore
        switch filter.state {
        case nil: break
        case .queued: live.places = [.queued, .held, .waiting]
        case .running: live.places = [.running]
        case .retrying: live.places = [.waiting]
        case .succeeded, .failed, .cancelled, .dead: return nil
        }
        live.state = filter.state
        return live
    }
}
