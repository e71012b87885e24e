import CPangoCairo

/// A Cairo PDF surface that writes the file into memory, with the document's metadata and outline.
final class PDFSurface {
    enum Metadata {
        case title, author, creator

        var field: cairo_pdf_metadata_t {
            switch self {
            case .title: CAIRO_PDF_METADATA_TITLE
            case .author: CAIRO_PDF_METADATA_AUTHOR
            case .creator: CAIRO_PDF_METADATA_CREATOR
            }
        }
    }

    let pointer: OpaquePointer
    private let output: PDFOutput

    /// A surface whose pages are `width` × `height` points.
    init(width: Double, height: Double) throws {
        let output = PDFOutput()
        // `output` lives as long as this object, which finishes the Cairo surface (after which it never calls the write
        // function again) in its deinit, before its stored properties are released.
        let closure = Unmanaged.passUnretained(output).toOpaque()
        let surface = cairo_pdf_surface_create_for_stream(
            { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                let output = Unmanaged<PDFOutput>.fromOpaque(closure).takeUnretainedValue()
                output.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, closure, width, height)
        guard let surface else { throw DocumentError.renderingFailed("no PDF surface") }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            defer { cairo_surface_destroy(surface) }
            throw DocumentError.renderingFailed("PDF surface: \(String(cString: cairo_status_to_string(cairo_surface_status(surface))))")
        }
        self.pointer = surface
        self.output = output
    }

    func setMetadata(_ field: Metadata, _ value: String) {
        cairo_pdf_surface_set_metadata(pointer, field.field, value)
    }

    /// A top-level bookmark that opens the named destination (one made with `cairo_tag_begin(CAIRO_TAG_DEST, …)`).
    func addOutline(_ title: String, destination: String) {
        // No flags: closed, plain style.
        _ = cairo_pdf_surface_add_outline(pointer, CAIRO_PDF_OUTLINE_ROOT, title, "dest='\(destination)'", cairo_pdf_outline_flags_t(0))
    }

    /// Writes the last page and the file's trailer; the bytes of the whole PDF.
    func finish() throws -> [UInt8] {
        cairo_surface_finish(pointer)
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw DocumentError.renderingFailed("PDF surface: \(String(cString: cairo_status_to_string(status)))")
        }
        return output.bytes
    }

    deinit {
        // Finished here, while `output` is alive: when a write fails halfway, the Cairo context may still hold the surface,
        // and a surface finished only when the context lets go would write into released memory.
        cairo_surface_finish(pointer)
        cairo_surface_destroy(pointer)
    }
}

/// Where Cairo's write function appends the file.
private final class PDFOutput {
    var bytes: [UInt8] = []
}
