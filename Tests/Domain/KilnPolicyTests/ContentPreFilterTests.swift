import KilnJSON
import KilnPolicy
import Testing

@Suite struct ContentPreFilterTests {
    func check(_ strictness: SafetyStrictness, _ input: JSONValue) -> ContentPreFilter.Rejection? {
        ContentPreFilter(strictness: strictness).check(input)
    }

    @Test(arguments: ["write to mira.k@example.com tonight", "call me on +44 20 7946 0958", "my number is 555-123-4567"])
    func personalDataIsRefusedWhereRealPeopleOrChildrenAre(text: String) {
        #expect(self.check(.strict, .object(["prompt": .string(text)])) == .init(category: "personal_data", field: "input.prompt"))
        #expect(self.check(.child, .string(text))?.category == "personal_data")
        #expect(self.check(.standard, .string(text)) == nil)
        #expect(self.check(.fiction, .string(text)) == nil)
    }

    @Test func sexualTermsAreRefusedOnlyForChildren() {
        let input: JSONValue = .object(["pages": .array([.string("a dragon"), .string("Something NSFW here")])])
        #expect(self.check(.child, input) == .init(category: "sexual", field: "input.pages[1]"))
        #expect(self.check(.strict, input) == nil)
    }

    @Test(arguments: ["The year 2026 was long", "Scene 12, turn 3: the party rests", "Sussex is a county", "Essex and Middlesex"])
    func ordinaryTextPasses(text: String) {
        #expect(self.check(.child, .string(text)) == nil)
    }
}
