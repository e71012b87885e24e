public import JobVocabulary

/// A job the app submitted, with the type of its result: what ``Kiln/events(of:)``, ``Kiln/result(of:onEvent:)`` and the
/// other job calls take. Keep its ``id`` (and make it again with ``init(id:kind:)``) to follow the job after a relaunch.
public struct SubmittedJob<Result: Decodable & Sendable>: Sendable, Hashable {
    public let id: JobID
    /// The kind's name, `domain.action`.
    public let kind: String

    public init<Input>(id: JobID, kind: Kind<Input, Result>) {
        self.id = id
        self.kind = kind.name
    }
}
