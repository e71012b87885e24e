public import Hummingbird
import KilnCore
import KilnStore
import NIOCore

/// The console's request context: Hummingbird's storage and, once ``ConsoleGate`` has let the request in, who is
/// signed in.
public struct ConsoleRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in operator and the session's secret; nil only on the sign-in page and the static files.
    var session: SignedIn?
    /// An action's form, read and checked by the gate.
    var form: FormBody?
    /// Where the request came from, as the audit log writes it: the peer's address, or the trusted proxy's header's
    /// when ``ConsoleConfiguration/clientAddressHeader`` is set (the gate reads it).
    var clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? ""
    }

    /// The session the gate established; the gate guards every page that calls this.
    func signedIn() throws -> SignedIn {
        guard let session else { throw ConsoleRefusal(.unauthorized, "sign in first") }
        return session
    }

    /// The action's form the gate read.
    func postedForm() throws -> FormBody {
        guard let form else { throw ConsoleRefusal(.badRequest, "this action needs its form") }
        return form
    }
}

/// A signed-in operator and the secret of the session, from which its CSRF token and artifact links derive.
struct SignedIn: Sendable {
    let `operator`: Operator
    let secret: String

    /// The token every form carries: it proves the form came from a page the console served to this session.
    var csrfToken: String { SessionSecret.derive(secret, purpose: "csrf") }
}

/// What an operator of some tenants may see (docs/console.md, "Operators of some tenants"): every page narrows to its
/// tenants, and whatever belongs to another answers as if it did not exist.
extension SignedIn {
    /// Whether the operator sees some tenants only.
    var isScoped: Bool { `operator`.tenants != nil }

    /// Whether the operator sees the tenant named `name`, as Redis's keys and the usage rows name it (a name that is no
    /// tenant's id: no).
    func sees(tenantNamed name: String) -> Bool {
        TenantID(validating: name).map(`operator`.sees) ?? false
    }

    /// Refuses `tenant`'s data unless the operator sees it, with a `404` that says no more than a missing one would.
    func require(_ tenant: TenantID, _ what: @autoclosure () -> String) throws {
        guard `operator`.sees(tenant) else { throw ConsoleRefusal(.notFound, "no \(what())") }
    }

    /// The tenant a list narrows to: the one asked for, which the operator must see; else, for an operator of one
    /// tenant, that one; nil for an operator of every tenant who asked for none.
    /// - Throws: a `400` naming its tenants when an operator of several asked for none.
    func narrowing(_ asked: TenantID?) throws -> TenantID? {
        if let asked {
            try require(asked, "tenant \(asked)")
            return asked
        }
        guard let tenants = `operator`.tenants else { return nil }
        guard tenants.count == 1 else {
            throw ConsoleRefusal(.badRequest, "tenant: choose one of \(tenants.map(\.rawValue).joined(separator: ", "))")
        }
        return tenants[0]
    }
}
