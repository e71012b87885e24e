import Foundation
import KilnCore
import Testing

@Suite struct JSONValueTests {
    @Test func canonicalJSONIgnoresKeyOrder() throws {
        let first = try #require(JSONValue.parse(#"{"b":1,"a":[true,null,"x"]}"#))
        let second = try #require(JSONValue.parse(#"{"a":[true,null,"x"],"b":1}"#))
        #expect(first.canonicalJSON() == second.canonicalJSON())
        #expect(first.canonicalJSON() == #"{"a":[true,null,"x"],"b":1}"#)
    }

    @Test(arguments: [
        #""quote \" backslash \\ newline \n tab \t bell \u0007 slash / é 👋🏽 עברית""#,
        #"[0, -1, 2.5, 1e-7, 123456789012, true, false, null, {}, []]"#,
        #"{"nested":{"list":[{"k":"v"}],"empty":""}}"#,
    ])
    func canonicalJSONIsValidAndRoundTrips(text: String) throws {
        let value = try #require(JSONValue.parse(text))
        let written = value.canonicalJSON()
        // Foundation's parser agrees with ours on what was written.
        _ = try JSONSerialization.jsonObject(with: Data(written.utf8), options: [.fragmentsAllowed])
        #expect(JSONValue.parse(written) == value)
        #expect(JSONValue.parse(written)?.canonicalJSON() == written)
    }

    @Test func controlCharactersAreEscaped() {
        #expect(JSONValue.string("a\u{1}b\"c").canonicalJSON() == #""a\u0001b\"c""#)
    }
}
