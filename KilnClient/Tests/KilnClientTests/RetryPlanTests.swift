import Testing

@testable import KilnClient

@Suite struct RetryPlanTests {
    @Test func a429IsRetriedAfterItsRetryAfterWhileTheBudgetLasts() {
        var plan = RetryPlan(budget: .seconds(5), repeatable: false)
        #expect(plan.next(after: .answered(status: 429, retryAfter: .seconds(2))) == .retry(after: .seconds(2)))
        #expect(plan.next(after: .answered(status: 503, retryAfter: .seconds(3))) == .retry(after: .seconds(3)))
        // 5 s waited: one more second would pass the budget, so the refusal is the caller's at once.
        #expect(plan.next(after: .answered(status: 429, retryAfter: .seconds(1))) == .stop)
    }

    @Test func aWaitLongerThanTheBudgetIsNotStarted() {
        var plan = RetryPlan(budget: .seconds(30), repeatable: true)
        #expect(plan.next(after: .answered(status: 429, retryAfter: .seconds(15_320))) == .stop)
    }

    @Test func a503WithoutRetryAfterWaitsASecond() {
        var plan = RetryPlan(budget: .seconds(30), repeatable: false)
        #expect(plan.next(after: .answered(status: 503, retryAfter: nil)) == .retry(after: .seconds(1)))
    }

    @Test(arguments: [400, 401, 403, 404, 409, 413, 422, 500])
    func otherRefusalsAreNeverRetried(status: Int) {
        var plan = RetryPlan(budget: .seconds(30), repeatable: true)
        #expect(plan.next(after: .answered(status: status, retryAfter: .seconds(1))) == .stop)
    }

    /// An upload or an invitation whose answer was lost may have been made: sending it again could make two.
    @Test func aLostAnswerIsRetriedOnlyWhereRepeatingIsSafe() {
        var unsafe = RetryPlan(budget: .seconds(30), repeatable: false)
        #expect(unsafe.next(after: .noAnswer) == .stop)
        var safe = RetryPlan(budget: .seconds(2), repeatable: true)
        #expect(safe.next(after: .noAnswer) == .retry(after: .milliseconds(250)))
        #expect(safe.next(after: .noAnswer) == .retry(after: .milliseconds(500)))
        #expect(safe.next(after: .noAnswer) == .retry(after: .seconds(1)))
        // 1.75 s waited; 2 s more would pass the budget.
        #expect(safe.next(after: .noAnswer) == .stop)
    }

    @Test func theRoutesThatMakeSomethingEachTimeAreNotRepeatable() {
        #expect(
            Route.all.filter { !$0.repeatable }.map(\.description).sorted() == [
                "DELETE /v1/partners", "POST /v1/jobs/{id}/cancel", "POST /v1/partners/invitations",
                "POST /v1/partners/invitations/{code}/accept", "POST /v1/partners/invitations/{code}/redeem", "POST /v1/uploads",
            ])
    }
}
