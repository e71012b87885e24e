import CPangoCairo
import Drawing
import Glibc

/// The Cairo surfaces of a document's pictures, made once per image name during one write, each tagged with the name as
/// its unique id, so a picture shown several times is embedded in the PDF once.
final class PDFImageCache {
    private var surfaces: [String: CairoSurface] = [:]

    /// - Throws: ``DocumentError/unreadableImage(_:)`` for a PNG Cairo cannot decode.
    func surface(for image: DocumentImage) throws -> CairoSurface {
        if let surface = surfaces[image.name] { return surface }
        let surface = try Self.makeSurface(image)
        try Self.attach(Array(image.name.utf8), as: CAIRO_MIME_TYPE_UNIQUE_ID, to: surface)
        surfaces[image.name] = surface
        return surface
    }

    private static func makeSurface(_ image: DocumentImage) throws -> CairoSurface {
        switch image.format {
        case .png:
            guard let surface = CairoSurface(png: image.data) else { throw DocumentError.unreadableImage(image.name) }
            return surface
        case .jpeg:
            // Cairo cannot decode JPEG, and need not: its PDF surface embeds the attached bytes as they are (a DCT
            // image) when it paints this surface, whose blank pixels (4 bytes each, for the write) only give it the size.
            let surface = CairoSurface(width: image.width, height: image.height, opaque: true)
            try attach(image.data, as: CAIRO_MIME_TYPE_JPEG, to: surface)
            return surface
        }
    }

    private static func attach(_ bytes: [UInt8], as mimeType: String, to surface: CairoSurface) throws {
        guard let copy = malloc(bytes.count) else { throw DocumentError.renderingFailed("out of memory") }
        copy.copyMemory(from: bytes, byteCount: bytes.count)
        // Cairo reads the copy until the surface is destroyed, then frees it with the `free` given here; on failure it
        // has not taken it.
        let status = cairo_surface_set_mime_data(surface.pointer, mimeType, copy.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), free, copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            free(copy)
            throw DocumentError.renderingFailed("image data: \(String(cString: cairo_status_to_string(status)))")
        }
    }
}
