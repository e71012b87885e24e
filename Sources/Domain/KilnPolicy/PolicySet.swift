public import Foundation
public import KilnCore
import KilnJSON

/// The policies of every tenant, read from one JSON file (`deploy/policies.json`) whose top-level keys are tenant
/// ids. See `docs/policies.md` for the format.
public struct PolicySet: Sendable, Equatable {
    public let tenants: [TenantID: TenantPolicy]

    public subscript(tenant: TenantID) -> TenantPolicy? { tenants[tenant] }

    /// No tenant has a policy: nothing is metered.
    public static let none = PolicySet(tenants: [:])

    /// Reads and validates the policy file at `path`.
    /// - Throws: ``PolicyError`` naming the first wrong field.
    public static func load(path: String) throws -> PolicySet {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            // Say why: a mounted file that is missing, unreadable or a directory is the usual mistake.
            let why = ((error as? CocoaError)?.underlying as? POSIXError).map { ": \(String(cString: strerror($0.code.rawValue)))" }
            throw PolicyError(field: "", reason: "cannot read \(path)\(why ?? "")")
        }
        return try parse(data)
    }

    /// Validates a policy file's bytes.
    /// - Throws: ``PolicyError`` naming the first wrong field.
    public static func parse(_ data: Data) throws -> PolicySet {
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw PolicyError(field: "", reason: Self.syntaxError(in: data))
        }
        var tenants: [TenantID: TenantPolicy] = [:]
        let entries = try PolicyField(value: document, path: "").entries()
        guard !entries.isEmpty else { throw PolicyError(field: "", reason: "no tenants: expected an object whose keys are tenant ids") }
        for (key, field) in entries {
            guard let tenant = TenantID(validating: key) else {
                throw field.failure("not a tenant id: expected 1–63 characters of a-z, 0-9 and -, not starting with -")
            }
            tenants[tenant] = try TenantPolicy(tenant: tenant, parsing: field)
        }
        return PolicySet(tenants: tenants)
    }

    /// Where the JSON breaks: JSONDecoder only says that it does, JSONSerialization says where ("Invalid value
    /// around character 15.").
    private static func syntaxError(in data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            return "not valid JSON"
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey].map { " (\($0))" } ?? ""
            return "not valid JSON\(detail)"
        }
    }
}
