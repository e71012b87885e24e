/// What a job mostly waits on; a worker declares how many of each class it runs at once.
public enum JobClass: String, Sendable, Codable, CaseIterable {
    /// Provider calls and other network waits.
    case io
    /// Rendering and encoding.
    case cpu
}
