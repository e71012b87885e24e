public import KilnCore
public import KilnWorker

/// One job kind, defined once: what the API admits (``JobKind``: its name, input type, class, deadline and retry
/// policy) and how a worker makes its handler from what the worker has.
///
/// The API's catalog (``KindDefinition/catalog``) and every worker's ``HandlerRegistry`` derive from the one list
/// ``KindDefinition/all``; `docs/kinds.md` shows how to add a kind.
public struct KindDefinition: Sendable {
    public let kind: JobKind
    private let makeHandler: @Sendable (HandlerDependencies) throws(MissingDependency) -> any JobHandler

    init(_ kind: JobKind, handler: @escaping @Sendable (HandlerDependencies) throws(MissingDependency) -> any JobHandler) {
        self.kind = kind
        self.makeHandler = handler
    }

    /// The kind's handler; throws naming what the worker lacks for it.
    public func handler(with dependencies: HandlerDependencies) throws(MissingDependency) -> any JobHandler {
        try makeHandler(dependencies)
    }
}

/// What a worker lacks to serve a kind: a provider route, the upload store, a public address, …
public struct MissingDependency: Error, Sendable, CustomStringConvertible {
    public let description: String
}
