/// Why a document, card or page could not be written. The messages name the part at fault and carry no document text.
public struct DocumentError: Error, CustomStringConvertible, Equatable {
    private enum Reason: Equatable {
        case unreadableImage(String)
        case imageTooLarge(String)
        case renderingFailed(String)
    }

    private let reason: Reason

    /// An image that is neither PNG nor JPEG, whose header has no size, or that Cairo cannot decode.
    public static func unreadableImage(_ name: String) -> DocumentError { DocumentError(reason: .unreadableImage(name)) }
    /// An image of more than ``DocumentImage/maxPixels`` pixels: decoded, it would take gigabytes.
    public static func imageTooLarge(_ name: String) -> DocumentError { DocumentError(reason: .imageTooLarge(name)) }
    /// Cairo, zlib or the PNG encoder reported an error.
    public static func renderingFailed(_ detail: String) -> DocumentError { DocumentError(reason: .renderingFailed(detail)) }

    /// A stable, machine-readable name of the reason: `unreadable_image`, `image_too_large` or `rendering_failed`.
    public var code: String {
        switch reason {
        case .unreadableImage: "unreadable_image"
        case .imageTooLarge: "image_too_large"
        case .renderingFailed: "rendering_failed"
        }
    }

    public var description: String {
        switch reason {
        case .unreadableImage(let name): "image \(name) is not a PNG or JPEG picture with a size"
        case .imageTooLarge(let name): "image \(name) has more than \(DocumentImage.maxPixels / 1_000_000) million pixels"
        case .renderingFailed(let detail): "rendering failed: \(detail)"
        }
    }
}
