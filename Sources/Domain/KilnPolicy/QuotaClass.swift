/// What a job counts against: each tier has a daily limit per class, and each kind belongs to one class.
public enum QuotaClass: String, Sendable, Hashable, CaseIterable {
    /// Generated text: continuations, openings, chat conversations.
    case text
    /// Generated or edited images: illustrations, covers, couples' photos.
    case image
    /// Rendered videos: ChatTale's chat exports.
    case video
    /// Generated stories: WorldArchitect's campaign scenes, Joanie's bedtime stories.
    case story
    /// Rendered documents: PDF, DOCX, EPUB and text exports, share cards, published share pages.
    case document
}
