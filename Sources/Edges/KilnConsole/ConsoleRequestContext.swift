public import Hummingbird
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
