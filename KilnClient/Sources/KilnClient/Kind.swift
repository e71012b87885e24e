public import ChatTaleInputs
public import DocumentInputs
public import ImageOptions
public import JoanieInputs
public import TalevoniaInputs
public import VeramoInputs
public import WorldArchitectInputs

/// A kind of job with the type of its input (the very type the server decodes and validates it as) and of its result:
/// `kiln.submit(.textContinue, input: TextContinueInput(…))` cannot send another kind's input, and the job it returns
/// yields `StoryContinuations`.
public struct Kind<Input: Encodable & Sendable, Result: Decodable & Sendable>: Sendable, Hashable {
    /// `domain.action`.
    public let name: String

    /// A kind this list does not name (`diag.echo` for a test), with the types to send and read it as.
    public init(_ name: String, input: Input.Type = Input.self, result: Result.Type = Result.self) {
        self.name = name
    }
}

// Talevonia
extension Kind where Input == TextContinueInput, Result == StoryContinuations {
    /// Three candidate continuations of 80–200 words, streamed as written (`delta` events, `choice` 0–2).
    public static var textContinue: Self { Self("text.continue") }
}

extension Kind where Input == TextOpeningInput, Result == StoryPassage {
    /// A new story's opening paragraph, streamed.
    public static var textOpening: Self { Self("text.opening") }
}

extension Kind where Input == IllustrateInput, Result == MadeImage {
    /// An illustration of a story node, as the artifact `image.png`.
    public static var imageIllustrate: Self { Self("image.illustrate") }
}

extension Kind where Input == CoverInput, Result == MadeImage {
    /// A story's cover, as the artifact `image.png`.
    public static var imageCover: Self { Self("image.cover") }
}

extension Kind where Input == ShareCardInput, Result == ShareCards {
    /// The share card of a reading path, in one or both sizes.
    public static var shareCard: Self { Self("share.card") }
}

extension Kind where Input == SharePublishInput, Result == PublishedShare {
    /// A reading path published as a web page until it expires or ``Kiln/revokeShare(_:)`` takes it down.
    public static var sharePublish: Self { Self("share.publish") }
}

// ChatTale
extension Kind where Input == ChatGenerateInput, Result == GeneratedChat {
    /// A conversation that ``videoChatExport`` takes as it is.
    public static var chatGenerate: Self { Self("chat.generate") }
}

extension Kind where Input == ChatExportInput, Result == ExportedChatVideo {
    /// The conversation typed out live as an MP4 (the artifact `chat.mp4`), with progress events.
    public static var videoChatExport: Self { Self("video.chat_export") }
}

// WorldArchitect
extension Kind where Input == CampaignOpenInput, Result == CampaignOpening {
    /// Scene 1 and the initial game state.
    public static var campaignOpen: Self { Self("campaign.open") }
}

extension Kind where Input == CampaignTurnInput, Result == CampaignTurn {
    /// The next scene (its narrative streamed) and the game state after it, checked against the state sent.
    public static var campaignTurn: Self { Self("campaign.turn") }
}

// WorldArchitect and Talevonia
extension Kind where Input == DocumentExportInput, Result == ExportedDocument {
    /// A campaign or a reading path as PDF, DOCX, EPUB or text.
    public static var documentExport: Self { Self("document.export") }
}

// Veramo
extension Kind where Input == ImageGenerateInput, Result == MadeImage {
    /// A picture from a prompt, from one upload edited, or from several combined, as the artifact `image.png`.
    public static var imageGenerate: Self { Self("image.generate") }
}

// Joanie
extension Kind where Input == StoryFromDrawingsInput, Result == DrawingStory {
    /// A bedtime story from 5–10 drawings, with where each drawing goes.
    public static var storyFromDrawings: Self { Self("story.from_drawings") }
}

extension Kind where Input == StoryContinueInput, Result == DrawingStory {
    /// A story continued with new drawings, placed after the earlier paragraphs.
    public static var storyContinue: Self { Self("story.continue") }
}
