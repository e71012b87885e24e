public import JobVocabulary
public import TalevoniaInputs
public import WorldArchitectInputs

/// The files `document.export` writes.
public enum DocumentFormat: String, Codable, Sendable, InputChoice {
    case pdf, docx, epub, txt

    public var contentType: String {
        switch self {
        case .pdf: "application/pdf"
        case .docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        case .epub: "application/epub+zip"
        case .txt: "text/plain; charset=utf-8"
        }
    }
}

/// `document.export`: a WorldArchitect campaign summary or a Talevonia reading path, as PDF, DOCX, EPUB or plain text.
/// Exactly one of `campaign` and `story` is given.
public struct DocumentExportInput: KindInput {
    public let format: DocumentFormat
    public let campaign: CampaignSummary?
    public let story: StoryPath?

    public init(format: DocumentFormat, campaign: CampaignSummary) {
        self.format = format
        self.campaign = campaign
        self.story = nil
    }

    public init(format: DocumentFormat, story: StoryPath) {
        self.format = format
        self.campaign = nil
        self.story = story
    }

    public func validate() throws {
        switch (campaign, story) {
        case (let campaign?, nil): try campaign.validate(field: "input.campaign")
        case (nil, let story?): try story.validate(field: "input.story")
        default: throw InputError(field: "input", reason: "must hold exactly one of campaign and story")
        }
    }
}
