import ChatVideo
import RenderingFixtures

extension Picture {
    /// The renderer's current frame.
    init(_ renderer: ChatRenderer) {
        self.init(bgra: renderer.pixels, stride: renderer.stride, width: renderer.width, height: renderer.height)
    }
}
