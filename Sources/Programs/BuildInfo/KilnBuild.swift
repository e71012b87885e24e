/// Which Kiln this is: the release, in semantic versioning, and the commit it was built from. The release is named
/// here and nowhere else; CHANGELOG.md says what each one changed, docs/compatibility.md what stays between them.
public enum KilnBuild {
    /// The release this tree is, or will be when tagged.
    public static let version = "1.0.0"
    /// The commit the binary was built from (`git describe`, `-dirty` with local changes), or `unknown`.
    public static let commit = buildCommit
    /// What `--version` prints: `1.0.0 (commit 0123456789ab)`.
    public static var versionLine: String { "\(version) (commit \(commit))" }
    /// The release with the commit as semantic versioning's build metadata, `1.0.0+0123456789ab`: what a worker's
    /// heartbeat and the console show.
    public static var fullVersion: String { "\(version)+\(commit)" }
}
