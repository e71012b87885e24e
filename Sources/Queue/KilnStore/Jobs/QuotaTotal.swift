/// One subject's units of one quota class on one day, as the ledger adds them up.
public struct QuotaTotal: Sendable, Equatable {
    public let subject: String
    public let quotaClass: String
    /// Units charged.
    public let committed: Int
    /// Units given back (counted against the refund cap).
    public let released: Int

    public init(subject: String, quotaClass: String, committed: Int, released: Int) {
        self.subject = subject
        self.quotaClass = quotaClass
        self.committed = committed
        self.released = released
    }
}
