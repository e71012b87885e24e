public import KilnProviders

/// Which text provider serves a tenant's kind, the one question the text kinds ask of their routes: ``TextRouting``
/// answers it in a worker, a fixed provider in unit tests, so a handler runs without Redis or a provider's server.
public protocol TextRoutes: Sendable {
    /// The provider serving `kind` for `tenant`, or nil when no route names it.
    func provider(tenant: String, kind: String) -> (any TextProvider)?
}

extension TextRouting: TextRoutes {
    public func provider(tenant: String, kind: String) -> (any TextProvider)? {
        router(tenant: tenant, kind: kind)
    }
}
