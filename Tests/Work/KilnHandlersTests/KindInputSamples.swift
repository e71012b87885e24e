import Testing

/// A valid input of each kind that holds every member its type reads (`document.export` takes one of two, so it has
/// two), for the tests that break them one member at a time.
enum KindInputSamples {
    struct Sample: Sendable, CustomTestStringConvertible {
        let kind: String
        let input: String

        var testDescription: String { kind }
    }

    static let upload = "0b7c8a52-3f0e-4c36-9d0e-8f1c2a4b5d6e"
    static let drawings = (1...5).map { "0b7c8a52-3f0e-4c36-9d0e-8f1c2a4b5d6\($0)" }
    static let story = #"""
        {"title": "The Lantern", "author": "Ada", "language": "en", "cover": "\#(upload)",
         "nodes": [{"title": "Dusk", "text": "The lantern flickered.", "image": "\#(drawings[0])",
                    "image_description": "A brass lantern on a windowsill at dusk"}]}
        """#
    static let state = #"""
        {"character": {"name": "Ona", "class": "rogue", "level": 2, "hp": 7, "max_hp": 10, "inventory": ["rope"]},
         "npcs": [{"name": "Grell", "hp": 4, "max_hp": 6, "attitude": "hostile"}],
         "location": "The salt gate", "locations": ["The salt gate"], "combat": {"active": true, "combatants": ["Grell"]}}
        """#

    static let all: [Sample] = [
        Sample(kind: "diag.echo", input: #"{"message": "hi", "artifact": "a note"}"#),
        Sample(kind: "diag.sleep", input: #"{"seconds": 0.5, "progress_steps": 2, "timeout_seconds": 5}"#),
        Sample(kind: "diag.fail", input: #"{"times": 1, "permanent": false}"#),
        Sample(kind: "diag.generate", input: #"{"prompt": "Say hi.", "system": "Be brief.", "stream": true, "max_tokens": 64, "choices": 1}"#),
        Sample(
            kind: "video.chat_export",
            input: #"""
                {"conversation": {"title": "Plans",
                  "characters": [{"id": "me", "name": "Sam", "color": "#1E90FF", "side": "right", "avatar": "S"},
                                 {"id": "jo", "name": "Jo", "color": "#FF8800"}],
                  "messages": [{"character": "me", "text": "Tonight?"}, {"character": "jo", "text": "Yes!"}]},
                 "settings": {"format": "9:16", "typing_speed": "fast", "typing_indicator": true, "typing_style": "field",
                  "keyboard": true, "sounds": false, "dark_mode": true, "theme": "imessage", "fps": 30, "frame_rate": "variable"}}
                """#),
        Sample(kind: "document.export", input: #"{"format": "epub", "story": \#(story)}"#),
        Sample(
            kind: "document.export",
            input: #"""
                {"format": "pdf", "campaign": {"title": "Bells Beneath", "subtitle": "A salt desert", "player": "Ona",
                  "scenes": [{"number": 1, "title": "The gate", "text": "Wind.", "image": "\#(upload)",
                             "image_description": "A gate of salt blocks"}], "state": \#(state)}}
                """#),
        Sample(kind: "share.card", input: #"{"story": \#(story), "summary": "A lantern in the dark.", "sizes": ["story"]}"#),
        Sample(kind: "share.publish", input: #"{"story": \#(story), "summary": "A lantern in the dark.", "expires_in_days": 7}"#),
        Sample(
            kind: "text.continue",
            input: #"{"title": "The Lantern", "path_summaries": ["Dusk falls."], "last_node_text": "It flickered.", "guidance": "more mystery"}"#),
        Sample(kind: "text.opening", input: #"{"title": "The Lantern", "prompt": "A lighthouse keeper's daughter."}"#),
        Sample(
            kind: "chat.generate",
            input: #"{"prompt": "A surprise party goes wrong.", "genre": "comedy", "mood": "funny", "length": "short", "names": ["Sam", "Jo"]}"#),
        Sample(
            kind: "campaign.open",
            input: #"{"setting": "A salt desert.", "character": {"name": "Ona", "class": "rogue", "background": "A smuggler."}, "style": "terse"}"#),
        Sample(
            kind: "campaign.turn",
            input: #"""
                {"state": \#(state), "scene_number": 2, "recent_scenes": [{"number": 2, "narrative": "Grell draws a blade."}],
                 "action": "Throw the rope."}
                """#),
        Sample(
            kind: "story.from_drawings",
            input: #"{"drawings": \#(drawings.debugDescription), "child": {"name": "Mia", "age": 5, "theme": "the sea"}}"#),
        Sample(
            kind: "story.continue",
            input: #"""
                {"story": {"title": "Mia and the Whale", "paragraphs": ["Mia met a whale."]}, "drawings": ["\#(upload)"],
                 "child": {"name": "Mia", "age": 5, "theme": "the sea"}}
                """#),
        Sample(
            kind: "image.generate",
            input: #"{"prompt": "A fox in snow.", "style": "dreamy", "aspect_ratio": "1:1", "images": ["\#(upload)"]}"#),
        Sample(
            kind: "image.illustrate",
            input: #"{"text": "The lantern flickered.", "style": "storybook", "aspect_ratio": "4:3", "replaces": "\#(upload)"}"#),
        Sample(
            kind: "image.cover",
            input: #"{"title": "The Lantern", "opening": "Dusk.", "style": "watercolor", "aspect_ratio": "3:4", "replaces": "\#(upload)"}"#),
    ]
}
