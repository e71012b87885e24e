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

    /// - Parameter narrowing: the tenant to search given the one asked for (``SignedIn/narrowing(_:)``).
    init(_ request: Request, narrowing: (TenantID?) throws -> TenantID?) throws {
        var fields: [String: String] = [:]
        for name in ["tenant", "identity", "kind", "state", "from", "to"] {
            let value = ConsoleInput.query(request, name)
            if !value.isEmpty { fields[name] = value }
        }
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
        cursor = try ConsoleInput.cursor(request)
        live = Self.live(filter)
        liveCursor = try request.uri.queryParameters["live"].map { text in
            guard let cursor = LiveJobs.Cursor(text: String(text)) else { throw ConsoleRefusal(.badRequest, "live: not a page's cursor") }
            return cursor
        }
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
