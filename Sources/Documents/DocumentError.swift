/// Why a document, card or page could not be written. The messages name the part at fault and carry no document text.
public struct DocumentError: Error, CustomStringConvertible, Equatable {
    private enum Reason: Equatable {
        case unreadableImage(String)
        case renderingFailed(String)
    }

    private let reason: Reason

    /// An image that is neither PNG nor JPEG, or whose header has no size.
    public static func unreadableImage(_ name: String) -> DocumentError { DocumentError(reason: .unreadableImage(name)) }
    /// Cairo, zlib or the PNG encoder reported an error.
    public static func renderingFailed(_ detail: String) -> DocumentError { DocumentError(reason: .renderingFailed(detail)) }

    public var description: String {
        switch reason {
        case .unreadableImage(let name): "image \(name) is not a PNG or JPEG picture with a size"
        case .renderingFailed(let detail): "rendering failed: \(detail)"
        }
    }
}
