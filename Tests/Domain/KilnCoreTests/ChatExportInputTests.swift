import ChatTaleInputs
import KilnCore
import KilnJSON
import Testing

/// What `video.chat_export` accepts, as the API checks it before anything is charged.
@Suite struct ChatExportInputTests {
    static let kind = testKind(ChatExportInput.self)

    static func input(
        messages: String = ##"[{"character":"me","text":"hi"},{"character":"sam","text":"hello"}]"##,
        characters: String = ##"[{"id":"me","name":"Me","color":"#0A84FF"},{"id":"sam","name":"Sam","color":"#34C759"}]"##,
        settings: String = "{}"
    ) -> JSONValue {
        JSONValue.parse(##"{"conversation":{"characters":\##(characters),"messages":\##(messages)},"settings":\##(settings)}"##)!
    }

    /// The field the kind names when it refuses `input`.
    static func refusedField(_ input: JSONValue) -> String? {
        do {
            _ = try kind.admit(input)
            return nil
        } catch {
            return error.field
        }
    }

    static func lowestTierRefusal(_ input: JSONValue) -> InputError? {
        (try? kind.admit(input))?.lowestTierRefusal
    }

    @Test func aValidConversationWithTheSeedsDefaultsIsAdmitted() throws {
        #expect(Self.refusedField(Self.input()) == nil)
        let decoded = try Self.input().decode(as: ChatExportInput.self)
        #expect(decoded.settings == ChatExportSettings())
        #expect(decoded.settings.format.size == (1080, 1920))
        #expect(decoded.settings.fps == 60)
    }

    /// The keyboard is on by default on the phone's formats and off at 16:9, which is laid out for landscape screens;
    /// asked for, it is there at any format.
    @Test func theKeyboardIsOffByDefaultOnlyAtSixteenByNine() throws {
        func keyboard(_ settings: String) throws -> Bool {
            try Self.input(settings: settings).decode(as: ChatExportInput.self).settings.keyboard
        }
        #expect(try keyboard("{}"))
        #expect(try keyboard(##"{"format":"1:1"}"##))
        #expect(try !keyboard(##"{"format":"16:9"}"##))
        #expect(try keyboard(##"{"format":"16:9","keyboard":true}"##))
        #expect(try !keyboard(##"{"format":"9:16","keyboard":false}"##))
    }

    @Test func badInputsGetTheFieldNamed() {
        #expect(Self.refusedField(Self.input(messages: "[]")) == "input.conversation.messages")
        #expect(Self.refusedField(Self.input(messages: ##"[{"character":"bob","text":"hi"}]"##)) == "input.conversation.messages[0].character")
        let long = String(repeating: "a", count: 5000)
        #expect(Self.refusedField(Self.input(messages: ##"[{"character":"me","text":"\##(long)"}]"##)) == "input.conversation.messages[0].text")
        #expect(Self.refusedField(Self.input(settings: ##"{"theme":"telegram"}"##)) == "input.settings.theme")
        #expect(Self.refusedField(Self.input(settings: ##"{"typing_style":"ios"}"##)) == "input.settings.typing_style")
        #expect(Self.refusedField(Self.input(settings: ##"{"fps":25}"##)) == "input.settings.fps")
        #expect(Self.refusedField(Self.input(settings: ##"{"format":"4:3"}"##)) == "input.settings.format")
        #expect(Self.refusedField(Self.input(characters: "[]")) == "input.conversation.characters")
        #expect(Self.refusedField(Self.input(characters: ##"[{"id":"me","name":"Me","color":"blue"}]"##)) == "input.conversation.characters[0].color")
        #expect(
            Self.refusedField(Self.input(characters: ##"[{"id":"me","name":"Me","color":"#0A84FF"},{"id":"me","name":"Me 2","color":"#0A84FF"}]"##))
                == "input.conversation.characters[1].id")
    }

    @Test func aVideoLongerThanFifteenMinutesIsRefused() {
        let message = ##"{"character":"me","text":"\##(String(repeating: "slow typing ", count: 80))"}"##
        let many = "[" + Array(repeating: message, count: 15).joined(separator: ",") + "]"
        #expect(Self.refusedField(Self.input(messages: many, settings: ##"{"typing_speed":"slow"}"##)) == "input.conversation.messages")
        #expect(Self.refusedField(Self.input(messages: many, settings: ##"{"typing_speed":"fast"}"##)) == nil)
    }

    @Test func theFreeTierGetsIMessageAndTwoCharacters() {
        #expect(Self.lowestTierRefusal(Self.input()) == nil)
        #expect(Self.lowestTierRefusal(Self.input(settings: ##"{"theme":"discord"}"##))?.field == "input.settings.theme")
        let three =
            ##"[{"id":"me","name":"Me","color":"#0A84FF"},{"id":"sam","name":"Sam","color":"#34C759"},{"id":"kim","name":"Kim","color":"#FF9500"}]"##
        #expect(Self.lowestTierRefusal(Self.input(characters: three))?.field == "input.conversation.characters")
    }
}
