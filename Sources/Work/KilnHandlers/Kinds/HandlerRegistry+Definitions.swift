import KilnCore
public import KilnWorker

extension HandlerRegistry {
    /// The handlers of every kind in `definitions`, the kinds this worker offers; throws naming each one it cannot
    /// serve and what it lacks, so a worker missing a handler stops at start instead of failing its jobs.
    public init(offering definitions: [KindDefinition], dependencies: HandlerDependencies) throws(UnservedKinds) {
        var entries: [Entry] = []
        var missing: [(kind: String, reason: MissingDependency)] = []
        for definition in definitions {
            do {
                entries.append(Entry(kind: definition.kind, handler: try definition.handler(with: dependencies)))
            } catch {
                missing.append((definition.kind.name, error))
            }
        }
        guard missing.isEmpty else { throw UnservedKinds(missing: missing) }
        self.init(entries)
    }

    /// The handlers of the kinds of `definitions` that `dependencies` can serve, leaving the others out: for a worker
    /// that serves part of the catalog on purpose (tests, a benchmark).
    public static func available(_ definitions: [KindDefinition] = KindDefinition.all, dependencies: HandlerDependencies) -> HandlerRegistry {
        HandlerRegistry(
            definitions.compactMap { definition in
                (try? definition.handler(with: dependencies)).map { Entry(kind: definition.kind, handler: $0) }
            })
    }

    /// The kinds whose handlers need nothing from the worker: `diag.echo`, `diag.sleep` and `diag.fail`.
    public static var diagnostics: HandlerRegistry {
        available(KindDefinition.diagnostics, dependencies: HandlerDependencies())
    }
}

/// The kinds a worker was asked to offer but cannot serve, each with what it lacks.
public struct UnservedKinds: Error, Sendable, CustomStringConvertible {
    public let missing: [(kind: String, reason: MissingDependency)]

    public var description: String {
        "this worker cannot serve " + missing.map { "\($0.kind) (\($0.reason))" }.joined(separator: ", ")
    }
}
