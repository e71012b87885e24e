import KilnCore
import Testing

@Suite struct RetryPolicyTests {
    @Test(arguments: [1, 2, 3, 8, 30])
    func fullJitterStaysUnderTheGrowingCeiling(attempt: Int) {
        let policy = RetryPolicy.exponentialJitter(maxAttempts: 50, baseDelay: .seconds(1), maxDelay: .seconds(60))
        let ceiling = min(Duration.seconds(1) * Double(1 << min(attempt - 1, 20)), .seconds(60))
        #expect(policy.delayCeiling(afterAttempt: attempt) == ceiling)
        #expect(policy.delay(afterAttempt: attempt, unitRandom: 0) == .zero)
        #expect(policy.delay(afterAttempt: attempt, unitRandom: 0.999) < ceiling)
    }
}
