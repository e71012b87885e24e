public import TalevoniaInputs

extension ShareCardSize {
    /// The card's picture size: 1200×630 is what Open Graph and X's large summary card show (cover left, text right);
    /// 1080×1920 a full-screen Instagram or TikTok story (cover on top, text below).
    public var pixels: (width: Int, height: Int) {
        switch self {
        case .landscape: (1200, 630)
        case .story: (1080, 1920)
        }
    }
}
