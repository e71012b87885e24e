import CPangoCairo

extension CairoSurface {
    /// Decodes a PNG; nil when `png` is not one Cairo can read.
    public convenience init?(png: [UInt8]) {
        var reader = ByteReader(bytes: png)
        // The closure is only called during this call, with `reader` alive on this stack.
        let surface = withUnsafeMutablePointer(to: &reader) { reader in
            cairo_image_surface_create_from_png_stream(
                { closure, data, length in
                    guard let reader = closure?.assumingMemoryBound(to: ByteReader.self), let data else { return CAIRO_STATUS_READ_ERROR }
                    return reader.pointee.read(into: data, count: Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
                }, reader)
        }
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            if let surface { cairo_surface_destroy(surface) }
            return nil
        }
        self.init(owning: surface)
    }
}

/// Hands Cairo's PNG reader a byte array piece by piece.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        guard count <= bytes.count - offset else { return false }
        let copied = bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return false }
            destination.update(from: base + offset, count: count)
            return true
        }
        offset += count
        return copied
    }
}
