public import KilnCore

/// What erasing an identity removed from PostgreSQL and the object store.
public struct ErasedRecords: Sendable, Equatable {
    /// The identity's jobs whose records, artifacts, ledger rows and objects are gone.
    public var jobs: [JobID] = []
    /// Artifact records deleted.
    public var artifacts = 0
    /// Upload records deleted.
    public var uploads = 0
    /// Published pages deleted, with their files.
    public var shares = 0
    /// WorldArchitect campaigns deleted, with their scenes.
    public var campaigns = 0
    /// Objects (artifacts' bytes of every attempt, uploads' bytes, published pages' files) deleted.
    public var objects = 0
    /// The identities that were linked with the erased one as partners: their links went too, and their cached
    /// standings must be forgotten.
    public var formerPartners: [String] = []

    public init() {}
}
