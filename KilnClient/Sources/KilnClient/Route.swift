import Foundation

/// Every route of the API the client calls, with the statuses it reads as success; the one list a test holds to
/// `openapi.json`, so the client and the document cannot drift.
package struct Route: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP method, in capitals.
    package let method: String
    /// The path as `openapi.json` writes it, `{name}` for a parameter.
    package let template: String
    /// The answers that mean it worked; any other is a ``KilnError``.
    package let success: Set<Int>
    /// Whether sending it twice does what sending it once does, so a connection lost before its answer may be sent
    /// again. A submission is, with its `Idempotency-Key`; an upload or an invitation is not.
    package let repeatable: Bool

    package static let submit = Route("POST", "/v1/jobs", success: [202], repeatable: true)
    package static let job = Route("GET", "/v1/jobs/{id}", success: [200], repeatable: true)
    package static let cancel = Route("POST", "/v1/jobs/{id}/cancel", success: [202], repeatable: false)
    package static let events = Route("GET", "/v1/jobs/{id}/events", success: [200], repeatable: true)
    package static let artifact = Route("GET", "/v1/jobs/{id}/artifacts/{name}", success: [200], repeatable: true)
    package static let upload = Route("POST", "/v1/uploads", success: [201], repeatable: false)
    package static let quota = Route("GET", "/v1/quota", success: [200], repeatable: true)
    package static let invite = Route("POST", "/v1/partners/invitations", success: [201], repeatable: false)
    package static let redeem = Route("POST", "/v1/partners/invitations/{code}/redeem", success: [202], repeatable: false)
    package static let accept = Route("POST", "/v1/partners/invitations/{code}/accept", success: [201], repeatable: false)
    package static let partner = Route("GET", "/v1/partners", success: [200], repeatable: true)
    package static let unlink = Route("DELETE", "/v1/partners", success: [200], repeatable: false)
    package static let revokeShare = Route("DELETE", "/v1/shares/{slug}", success: [204], repeatable: true)
    package static let erase = Route("DELETE", "/v1/identity", success: [200, 202], repeatable: true)

    package static let all: [Route] = [
        submit, job, cancel, events, artifact, upload, quota, invite, redeem, accept, partner, unlink, revokeShare, erase,
    ]

    private init(_ method: String, _ template: String, success: Set<Int>, repeatable: Bool) {
        self.method = method
        self.template = template
        self.success = success
        self.repeatable = repeatable
    }

    /// The path with its parameters filled in, each escaped as one path segment.
    func path(_ parameters: [String: String] = [:]) -> String {
        var path = template
        for (name, value) in parameters {
            let segment = value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value
            path = path.replacingOccurrences(of: "{\(name)}", with: segment)
        }
        return path
    }

    package var description: String { "\(method) \(template)" }
}
