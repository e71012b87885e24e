import KilnProviders
import Testing

@Suite struct ProviderCallPolicyTests {
    let policy = ProviderCallPolicy()

    func error(_ kind: ProviderError.Kind, retryable: Bool = true, retryAfter: Duration? = nil) -> ProviderError {
        ProviderError(kind: kind, provider: "p", message: "m", retryAfter: retryAfter, isRetryable: retryable)
    }

    @Test func throttlingParksTheProviderForWhatItAsked() {
        #expect(self.policy.decide(self.error(.rateLimited, retryAfter: .seconds(7)), attempt: 1, unitRandom: 0.5) == .park(for: .seconds(7)))
        #expect(self.policy.decide(self.error(.overloaded), attempt: 1, unitRandom: 0.5) == .park(for: .seconds(5)))
    }

    @Test func aBadKeyOrNoMoneyDisablesTheProvider() {
        #expect(self.policy.decide(self.error(.authentication, retryable: false), attempt: 1, unitRandom: 0) == .disable)
        #expect(self.policy.decide(self.error(.quotaExhausted, retryable: false), attempt: 1, unitRandom: 0) == .disable)
    }

    @Test func aWrongRequestFailsEverywhere() {
        #expect(self.policy.decide(self.error(.invalidRequest, retryable: false), attempt: 1, unitRandom: 0) == .fail)
        #expect(self.policy.decide(self.error(.server, retryable: false), attempt: 1, unitRandom: 0) == .fail)
    }

    @Test func serverErrorsAreRetriedWithGrowingJitteredDelaysThenHandedOn() throws {
        let server = self.error(.server)
        func delay(attempt: Int, unitRandom: Double) -> Duration? {
            guard case .retry(let delay) = self.policy.decide(server, attempt: attempt, unitRandom: unitRandom) else { return nil }
            return delay
        }
        #expect(try #require(delay(attempt: 1, unitRandom: 0.999)) < .milliseconds(500))
        #expect(try #require(delay(attempt: 2, unitRandom: 0.999)) < .seconds(1))
        #expect(try #require(delay(attempt: 2, unitRandom: 0.999)) > .milliseconds(900))
        #expect(self.policy.decide(server, attempt: 3, unitRandom: 0.5) == .nextProvider)
    }

    @Test func aShortRetryAfterIsWaitedAndALongOneParks() {
        #expect(self.policy.decide(self.error(.server, retryAfter: .seconds(2)), attempt: 1, unitRandom: 0) == .retry(after: .seconds(2)))
        #expect(self.policy.decide(self.error(.server, retryAfter: .seconds(90)), attempt: 1, unitRandom: 0) == .park(for: .seconds(90)))
    }
}

@Suite struct CircuitBreakerTests {
    let start = ContinuousClock.now
    let configuration = CircuitBreaker.Configuration(window: 10, minimumCalls: 4, failureRatio: 0.5, openDuration: .seconds(30))

    @Test func opensWhenHalfTheRecentCallsFailAndNotBefore() {
        var breaker = CircuitBreaker(configuration: self.configuration)
        for failure in [false, true, false] { breaker.record(failure: failure, at: self.start) }
        #expect(breaker.state == .closed)
        breaker.record(failure: true, at: self.start)
        #expect(breaker.state == .open(until: self.start + .seconds(30)))
        let allowed = breaker.allowsCall(at: self.start + .seconds(29))
        #expect(!allowed)
    }

    @Test func itsRecentCallsAreTheWindowItJudgesAndStartAfreshWhenItOpens() {
        var breaker = CircuitBreaker(configuration: self.configuration)
        for failure in [false, true, false] { breaker.record(failure: failure, at: self.start) }
        #expect(breaker.recent == (calls: 3, failures: 1))
        for _ in 0..<12 { breaker.record(failure: false, at: self.start) }
        #expect(breaker.recent == (calls: 10, failures: 0), "only the window of 10 counts")
        breaker.open(at: self.start)
        #expect(breaker.recent == (calls: 0, failures: 0))
    }

    @Test func letsOneProbeThroughAfterTheOpenTimeAndClosesWhenItSucceeds() {
        var breaker = CircuitBreaker(configuration: self.configuration)
        breaker.open(at: self.start)
        let later = self.start + .seconds(30)
        let probe = breaker.allowsCall(at: later)
        let second = breaker.allowsCall(at: later)
        #expect(probe)
        #expect(!second, "only one probe at a time")
        breaker.record(failure: false, at: later)
        #expect(breaker.state == .closed)
        let afterwards = breaker.allowsCall(at: later)
        #expect(afterwards)
    }

    @Test func aFailedProbeOpensTheCircuitAgain() {
        var breaker = CircuitBreaker(configuration: self.configuration)
        breaker.open(at: self.start)
        let later = self.start + .seconds(31)
        let probe = breaker.allowsCall(at: later)
        #expect(probe)
        breaker.record(failure: true, at: later)
        #expect(breaker.state == .open(until: later + .seconds(30)))
    }

    @Test func oldOutcomesLeaveTheWindow() {
        var breaker = CircuitBreaker(configuration: self.configuration)
        for failure in [true] + Array(repeating: false, count: 9) { breaker.record(failure: failure, at: self.start) }
        // Four failures in the last ten: the first one has left the window, or it would be five.
        for _ in 0..<4 { breaker.record(failure: true, at: self.start) }
        #expect(breaker.state == .closed)
    }
}
