/// How long a tenant keeps its users' data after it was made, per kind of data; the purge (`kiln purge`) deletes
/// what is older from PostgreSQL, Redis and the object store. Days, because the apps' privacy promises are stated in
/// days and nothing finer is worth the purge running more often.
public struct RetentionPeriods: Sendable, Equatable {
    /// Jobs' inputs (a story so far, a child's name), counted from the job's end: a running job keeps its input.
    public let inputs: Duration
    /// Uploaded bytes (photos, drawings) and their records, counted from the upload.
    public let uploads: Duration
    /// Jobs' results (generated text, game state), counted from the job's end.
    public let results: Duration
    /// Jobs' artifacts (images, videos, documents) and their records, counted from when they were stored.
    public let artifacts: Duration
    /// Jobs' records (who, what kind, when, how it ended) and their quota ledger rows, counted from the job's
    /// submission; nil keeps them until the identity is erased. Never shorter than inputs, results and artifacts.
    public let records: Duration?

    public init(inputs: Duration, uploads: Duration, results: Duration, artifacts: Duration, records: Duration? = nil) {
        self.inputs = inputs
        self.uploads = uploads
        self.results = results
        self.artifacts = artifacts
        self.records = records
    }

    /// What a tenant without a `retention` section keeps: 30 days of everything, time for a user to come back to a
    /// result and for support to look into a complaint, and no longer.
    public static let standard = RetentionPeriods(days: 30, 30, 30, 30)

    /// The longest any period may be: ten years is past any app's lifetime, and keeps dates far from overflow.
    static let longestDays = 3650

    init(days inputs: Int, _ uploads: Int, _ results: Int, _ artifacts: Int, records: Int? = nil) {
        self.init(
            inputs: .days(inputs), uploads: .days(uploads), results: .days(results), artifacts: .days(artifacts), records: records.map(Duration.days))
    }
}

extension RetentionPeriods {
    /// `{"inputs_days", "uploads_days", "results_days", "artifacts_days", "records_days"?}`, each a whole number of days
    /// from 0 (gone at the next purge) to 3650; `records_days`, when there, at least each of inputs, results and artifacts:
    /// a job's record is the last of it to go.
    init(parsing field: PolicyField) throws(PolicyError) {
        let object = try field.object(allowing: ["inputs_days", "uploads_days", "results_days", "artifacts_days", "records_days"])
        func days(_ key: String) throws(PolicyError) -> Int {
            try object.required(key).wholeNumber(atLeast: 0, atMost: Self.longestDays)
        }
        let inputs = try days("inputs_days")
        let results = try days("results_days")
        let artifacts = try days("artifacts_days")
        let longest = max(inputs, results, artifacts)
        var records: Int?
        if let field = object.optional("records_days") {
            let days = try field.wholeNumber(atLeast: 0, atMost: Self.longestDays)
            guard days >= longest else {
                throw field.failure("at least inputs_days, results_days and artifacts_days (\(longest)): a job's record goes last")
            }
            records = days
        }
        self.init(days: inputs, try days("uploads_days"), results, artifacts, records: records)
    }
}

extension Duration {
    /// `count` days of 86,400 seconds: retention is counted in elapsed time, not calendar days.
    static func days(_ count: Int) -> Duration { .seconds(count * 86_400) }
}
