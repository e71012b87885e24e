import KilnCore

/// The look of one chat app, light or dark: colours and shapes, modelled on the app's own screens.
struct ChatStyle {
    /// How the app shows messages: bubbles left and right (iMessage, WhatsApp, Messenger) or rows with the sender's
    /// avatar and name, all on the left (Discord).
    enum Layout { case bubbles, rows }

    let layout: Layout
    let background: ChatColor
    let headerBackground: ChatColor
    let headerText: ChatColor
    /// The back arrow and header icons.
    let accent: ChatColor
    let separator: ChatColor
    let sentBubble: ChatColor
    let sentText: ChatColor
    let receivedBubble: ChatColor
    let receivedText: ChatColor
    /// Corner radius of a bubble, in points.
    let bubbleRadius: Double
    /// A small tail on the bubble's lower outer corner (iMessage, WhatsApp).
    let tail: Bool
    /// The avatar sits in the middle of the header, its name under it (iMessage); else left, beside it.
    let centredHeader: Bool
    let inputBackground: ChatColor
    let inputField: ChatColor
    let inputFieldBorder: ChatColor?
    let inputPlaceholder: String
    let placeholderText: ChatColor
    /// The round button at the input bar's end (send or microphone).
    let inputButton: ChatColor
    let typingDots: ChatColor
    let keyboardBackground: ChatColor
    let keyBackground: ChatColor
    let keySpecialBackground: ChatColor
    let keyText: ChatColor
    let secondaryText: ChatColor

    init(theme: ChatTheme, dark: Bool) {
        switch (theme, dark) {
        case (.imessage, false):
            self.init(
                layout: .bubbles, background: ChatColor(0xFFFFFF), headerBackground: ChatColor(0xF6F6F6), headerText: ChatColor(0x000000),
                accent: ChatColor(0x0A84FF), separator: ChatColor(0xD8D8DC), sentBubble: ChatColor(0x0B84FE), sentText: ChatColor(0xFFFFFF),
                receivedBubble: ChatColor(0xE9E9EB), receivedText: ChatColor(0x000000), bubbleRadius: 18, tail: true, centredHeader: true,
                inputBackground: ChatColor(0xFFFFFF), inputField: ChatColor(0xFFFFFF), inputFieldBorder: ChatColor(0xC7C7CC),
                inputPlaceholder: "iMessage", placeholderText: ChatColor(0xA0A0A6), inputButton: ChatColor(0x0B84FE),
                typingDots: ChatColor(0x8E8E93), keyboardBackground: ChatColor(0xD1D3D9), keyBackground: ChatColor(0xFFFFFF),
                keySpecialBackground: ChatColor(0xABB0BC), keyText: ChatColor(0x000000), secondaryText: ChatColor(0x8E8E93))
        case (.imessage, true):
            self.init(
                layout: .bubbles, background: ChatColor(0x000000), headerBackground: ChatColor(0x1C1C1E), headerText: ChatColor(0xFFFFFF),
                accent: ChatColor(0x0A84FF), separator: ChatColor(0x38383A), sentBubble: ChatColor(0x0B84FE), sentText: ChatColor(0xFFFFFF),
                receivedBubble: ChatColor(0x26252A), receivedText: ChatColor(0xFFFFFF), bubbleRadius: 18, tail: true, centredHeader: true,
                inputBackground: ChatColor(0x000000), inputField: ChatColor(0x000000), inputFieldBorder: ChatColor(0x3A3A3C),
                inputPlaceholder: "iMessage", placeholderText: ChatColor(0x6E6E73), inputButton: ChatColor(0x0B84FE),
                typingDots: ChatColor(0x8E8E93), keyboardBackground: ChatColor(0x2C2C2E), keyBackground: ChatColor(0x6B6B6E),
                keySpecialBackground: ChatColor(0x464649), keyText: ChatColor(0xFFFFFF), secondaryText: ChatColor(0x8E8E93))
        case (.whatsapp, false):
            self.init(
                layout: .bubbles, background: ChatColor(0xEFE7DE), headerBackground: ChatColor(0xF6F6F6), headerText: ChatColor(0x000000),
                accent: ChatColor(0x007AFF), separator: ChatColor(0xD8D8DC), sentBubble: ChatColor(0xDCF8C6), sentText: ChatColor(0x111B21),
                receivedBubble: ChatColor(0xFFFFFF), receivedText: ChatColor(0x111B21), bubbleRadius: 8, tail: true, centredHeader: false,
                inputBackground: ChatColor(0xF6F6F6), inputField: ChatColor(0xFFFFFF), inputFieldBorder: ChatColor(0xDADADA),
                inputPlaceholder: "", placeholderText: ChatColor(0x8696A0), inputButton: ChatColor(0x25D366),
                typingDots: ChatColor(0x8696A0), keyboardBackground: ChatColor(0xD1D3D9), keyBackground: ChatColor(0xFFFFFF),
                keySpecialBackground: ChatColor(0xABB0BC), keyText: ChatColor(0x000000), secondaryText: ChatColor(0x667781))
        case (.whatsapp, true):
            self.init(
                layout: .bubbles, background: ChatColor(0x0B141A), headerBackground: ChatColor(0x1F2C34), headerText: ChatColor(0xE9EDEF),
                accent: ChatColor(0x00A884), separator: ChatColor(0x2A3942), sentBubble: ChatColor(0x005C4B), sentText: ChatColor(0xE9EDEF),
                receivedBubble: ChatColor(0x202C33), receivedText: ChatColor(0xE9EDEF), bubbleRadius: 8, tail: true, centredHeader: false,
                inputBackground: ChatColor(0x1F2C34), inputField: ChatColor(0x2A3942), inputFieldBorder: nil,
                inputPlaceholder: "", placeholderText: ChatColor(0x8696A0), inputButton: ChatColor(0x00A884),
                typingDots: ChatColor(0x8696A0), keyboardBackground: ChatColor(0x2C2C2E), keyBackground: ChatColor(0x6B6B6E),
                keySpecialBackground: ChatColor(0x464649), keyText: ChatColor(0xFFFFFF), secondaryText: ChatColor(0x8696A0))
        case (.messenger, false):
            self.init(
                layout: .bubbles, background: ChatColor(0xFFFFFF), headerBackground: ChatColor(0xFFFFFF), headerText: ChatColor(0x050505),
                accent: ChatColor(0x0084FF), separator: ChatColor(0xE4E6EB), sentBubble: ChatColor(0x0084FF), sentText: ChatColor(0xFFFFFF),
                receivedBubble: ChatColor(0xE4E6EB), receivedText: ChatColor(0x050505), bubbleRadius: 18, tail: false, centredHeader: false,
                inputBackground: ChatColor(0xFFFFFF), inputField: ChatColor(0xF0F2F5), inputFieldBorder: nil,
                inputPlaceholder: "Aa", placeholderText: ChatColor(0x65676B), inputButton: ChatColor(0x0084FF),
                typingDots: ChatColor(0x65676B), keyboardBackground: ChatColor(0xD1D3D9), keyBackground: ChatColor(0xFFFFFF),
                keySpecialBackground: ChatColor(0xABB0BC), keyText: ChatColor(0x000000), secondaryText: ChatColor(0x65676B))
        case (.messenger, true):
            self.init(
                layout: .bubbles, background: ChatColor(0x000000), headerBackground: ChatColor(0x000000), headerText: ChatColor(0xE4E6EB),
                accent: ChatColor(0x0A7CFF), separator: ChatColor(0x242526), sentBubble: ChatColor(0x0A7CFF), sentText: ChatColor(0xFFFFFF),
                receivedBubble: ChatColor(0x303030), receivedText: ChatColor(0xE4E6EB), bubbleRadius: 18, tail: false, centredHeader: false,
                inputBackground: ChatColor(0x000000), inputField: ChatColor(0x242526), inputFieldBorder: nil,
                inputPlaceholder: "Aa", placeholderText: ChatColor(0xB0B3B8), inputButton: ChatColor(0x0A7CFF),
                typingDots: ChatColor(0xB0B3B8), keyboardBackground: ChatColor(0x2C2C2E), keyBackground: ChatColor(0x6B6B6E),
                keySpecialBackground: ChatColor(0x464649), keyText: ChatColor(0xFFFFFF), secondaryText: ChatColor(0xB0B3B8))
        case (.discord, false):
            self.init(
                layout: .rows, background: ChatColor(0xFFFFFF), headerBackground: ChatColor(0xF2F3F5), headerText: ChatColor(0x060607),
                accent: ChatColor(0x5865F2), separator: ChatColor(0xE3E5E8), sentBubble: ChatColor(0x5865F2), sentText: ChatColor(0x2E3338),
                receivedBubble: ChatColor(0xEBEDEF), receivedText: ChatColor(0x2E3338), bubbleRadius: 0, tail: false, centredHeader: false,
                inputBackground: ChatColor(0xFFFFFF), inputField: ChatColor(0xEBEDEF), inputFieldBorder: nil,
                inputPlaceholder: "Message", placeholderText: ChatColor(0x747F8D), inputButton: ChatColor(0x5865F2),
                typingDots: ChatColor(0x4F5660), keyboardBackground: ChatColor(0xD1D3D9), keyBackground: ChatColor(0xFFFFFF),
                keySpecialBackground: ChatColor(0xABB0BC), keyText: ChatColor(0x000000), secondaryText: ChatColor(0x747F8D))
        case (.discord, true):
            self.init(
                layout: .rows, background: ChatColor(0x313338), headerBackground: ChatColor(0x2B2D31), headerText: ChatColor(0xF2F3F5),
                accent: ChatColor(0x5865F2), separator: ChatColor(0x1F2023), sentBubble: ChatColor(0x5865F2), sentText: ChatColor(0xDBDEE1),
                receivedBubble: ChatColor(0x2B2D31), receivedText: ChatColor(0xDBDEE1), bubbleRadius: 0, tail: false, centredHeader: false,
                inputBackground: ChatColor(0x313338), inputField: ChatColor(0x383A40), inputFieldBorder: nil,
                inputPlaceholder: "Message", placeholderText: ChatColor(0x949BA4), inputButton: ChatColor(0x5865F2),
                typingDots: ChatColor(0xB5BAC1), keyboardBackground: ChatColor(0x2C2C2E), keyBackground: ChatColor(0x6B6B6E),
                keySpecialBackground: ChatColor(0x464649), keyText: ChatColor(0xFFFFFF), secondaryText: ChatColor(0x949BA4))
        }
    }

    private init(
        layout: Layout, background: ChatColor, headerBackground: ChatColor, headerText: ChatColor, accent: ChatColor, separator: ChatColor,
        sentBubble: ChatColor, sentText: ChatColor, receivedBubble: ChatColor, receivedText: ChatColor, bubbleRadius: Double, tail: Bool,
        centredHeader: Bool, inputBackground: ChatColor, inputField: ChatColor, inputFieldBorder: ChatColor?, inputPlaceholder: String,
        placeholderText: ChatColor, inputButton: ChatColor, typingDots: ChatColor, keyboardBackground: ChatColor, keyBackground: ChatColor,
        keySpecialBackground: ChatColor, keyText: ChatColor, secondaryText: ChatColor
    ) {
        self.layout = layout
        self.background = background
        self.headerBackground = headerBackground
        self.headerText = headerText
        self.accent = accent
        self.separator = separator
        self.sentBubble = sentBubble
        self.sentText = sentText
        self.receivedBubble = receivedBubble
        self.receivedText = receivedText
        self.bubbleRadius = bubbleRadius
        self.tail = tail
        self.centredHeader = centredHeader
        self.inputBackground = inputBackground
        self.inputField = inputField
        self.inputFieldBorder = inputFieldBorder
        self.inputPlaceholder = inputPlaceholder
        self.placeholderText = placeholderText
        self.inputButton = inputButton
        self.typingDots = typingDots
        self.keyboardBackground = keyboardBackground
        self.keyBackground = keyBackground
        self.keySpecialBackground = keySpecialBackground
        self.keyText = keyText
        self.secondaryText = secondaryText
    }
}
