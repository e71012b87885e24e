import KilnPolicy
import KilnProviders
import Testing

@Suite struct SafetyThresholdsTests {
    func result(_ scores: [String: Double]) -> ModerationResult {
        ModerationResult(scores: scores, flagged: [])
    }

    @Test func fictionalViolencePassesAGameMasterButNotOthers() {
        let battle = self.result(["violence": 0.95, "violence/graphic": 0.05])
        #expect(SafetyThresholds(.fiction).violations(in: battle).isEmpty)
        #expect(SafetyThresholds(.standard).violations(in: battle) == ["violence"])
        #expect(SafetyThresholds(.child).violations(in: battle) == ["violence"])
        #expect(SafetyThresholds(.fiction).violations(in: self.result(["violence/graphic": 0.6])) == ["violence/graphic"])
    }

    @Test func childrensContentIsRefusedAtLowScores() {
        let mild = self.result(["harassment": 0.15, "sexual": 0.05])
        #expect(SafetyThresholds(.child).violations(in: mild) == ["harassment"])
        #expect(SafetyThresholds(.standard).violations(in: mild).isEmpty)
    }

    @Test func realPeoplesAppsAreStricterOnSexualContentAndHarassment() {
        let suggestive = self.result(["sexual": 0.25, "hate": 0.2])
        #expect(SafetyThresholds(.strict).violations(in: suggestive) == ["sexual"])
        #expect(SafetyThresholds(.standard).violations(in: suggestive).isEmpty)
    }

    @Test(arguments: SafetyStrictness.allCases)
    func anythingSexualInvolvingMinorsIsRefusedEverywhere(strictness: SafetyStrictness) {
        #expect(SafetyThresholds(strictness).violations(in: self.result(["sexual/minors": 0.02])) == ["sexual/minors"])
    }
}

@Suite struct ModerationClientTests {
    @Test func theModerationModelScoresEachCategory() async throws {
        try await SimulatorFixture.with { fixture in
            let client = ModerationClient(http: fixture.http, endpoint: fixture.endpoint())
            let gory = try await client.moderate(texts: ["The knight saw the gore on the field."])
            #expect(gory.flagged == ["violence/graphic"])
            #expect((gory.scores["violence/graphic"] ?? 0) > 0.9)
            #expect(gory.scores.count == 13)
            let calm = try await client.moderate(texts: ["A quiet harbour at dawn."])
            #expect(calm.flagged.isEmpty)
            #expect(SafetyThresholds(.child).violations(in: calm).isEmpty)
        }
    }
}
