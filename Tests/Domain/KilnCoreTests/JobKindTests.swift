import ChatTaleInputs
import DocumentInputs
import KilnCore
import KilnJSON
import Testing

@Suite struct JobKindTests {
    @Test(arguments: [
        (#"{"seconds":"soon"}"#, "input.seconds"),
        (#"{}"#, "input.seconds"),
        (#"{"seconds":5000}"#, "input.seconds"),
        (#"{"seconds":1,"progress_steps":0}"#, "input.progress_steps"),
        (#"{"seconds":1,"timeout_seconds":1e300}"#, "input.timeout_seconds"),
    ])
    func badSleepInputNamesTheField(input: String, field: String) throws {
        let kind = testKind(SleepInput.self)
        let json = try #require(JSONValue.parse(input))
        let error = #expect(throws: InputError.self) { try kind.admit(json) }
        #expect(error?.field == field)
    }

    @Test(arguments: [
        (
            testKind(ChatGenerateInput.self), #"{"prompt":"a heist","genre":"western","mood":"funny","length":"short"}"#, "input.genre",
            #"must be one of drama, comedy, romance, horror, mystery, not "western""#
        ),
        (testKind(DocumentExportInput.self), #"{"format":"odt"}"#, "input.format", #"must be one of pdf, docx, epub, txt, not "odt""#),
    ])
    func anUnknownWordNamesTheWordsAccepted(kind: JobKind, input: String, field: String, reason: String) throws {
        let error = #expect(throws: InputError.self) { try kind.admit(#require(JSONValue.parse(input))) }
        #expect(error?.field == field)
        #expect(error?.reason == reason)
    }

    /// Reasons in the words of the caller's JSON, never Swift's type names or "not valid JSON" for valid JSON.
    @Test(arguments: [
        (#"{"seconds":"soon"}"#, "input.seconds", "must be a number"),
        (#"{"seconds":1,"progress_steps":"two"}"#, "input.progress_steps", "must be a whole number"),
        (
            #"{"seconds":1,"progress_steps":1.5}"#, "input",
            "holds a number its field cannot take: a fraction where a whole number goes, or one too large"
        ),
        (#"[]"#, "input", "must be an object"),
    ])
    func aValueOfTheWrongKindIsNamedInJSONsWords(input: String, field: String, reason: String) throws {
        let kind = testKind(SleepInput.self)
        let json = try #require(JSONValue.parse(input))
        let error = #expect(throws: InputError.self) { try kind.admit(json) }
        #expect(error?.field == field)
        #expect(error?.reason == reason)
    }

    @Test func inputMayShortenButNotLengthenTheDeadline() throws {
        let kind = testKind(SleepInput.self)
        #expect(try kind.admit(#require(JSONValue.parse(#"{"seconds":1,"timeout_seconds":2}"#))).deadline == .seconds(2))
        #expect(try kind.admit(#require(JSONValue.parse(#"{"seconds":1,"timeout_seconds":3600}"#))).deadline == .seconds(3600))
    }

    @Test func identifiersRejectKeySyntax() {
        #expect(TenantID(validating: "talevonia") != nil)
        #expect(TenantID(validating: "a:b") == nil)
        #expect(TenantID(validating: "-x") == nil)
        #expect(JobID(validating: "not-a-uuid") == nil)
        #expect(JobID(validating: "6F9619FF-8B86-D011-B42D-00C04FC964FF")?.rawValue == "6f9619ff-8b86-d011-b42d-00c04fc964ff")
        #expect(Identity(validating: "has space") == nil)
    }
}
