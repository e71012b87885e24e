import ChatTaleInputs
import Drawing

/// The look of one chat app, light or dark: colours and shapes, modelled on the app's own screens.
struct ChatStyle {
    /// How the app shows messages: bubbles left and right (iMessage, WhatsApp, Messenger) or rows with the sender's
    /// avatar and name, all on the left (Discord).
    enum Layout { case bubbles, rows }

    let layout: Layout
    let background: RGBColor
    let headerBackground: RGBColor
    let headerText: RGBColor
    /// The back arrow and header icons.
    let accent: RGBColor
    let separator: RGBColor
    let sentBubble: RGBColor
    let sentText: RGBColor
    let receivedBubble: RGBColor
    let receivedText: RGBColor
    /// Corner radius of a bubble, in points.
    let bubbleRadius: Double
    /// Where a bubble's tail is.
    enum Tail {
        case none
        /// iOS's hook at the lower outer corner: the side curves out to a point level with the bubble's bottom, and the
        /// bubble's bottom curves up into a notch before it (iMessage).
        case curvedBottom
        /// A small point at the top outer corner, the corner itself square (WhatsApp).
        case topCorner
    }

    let tail: Tail
    /// Each finished bubble carries the time it was sent in its lower right corner, and a sent one the two ticks of a
    /// read message (WhatsApp).
    let stamps: Bool
    /// The avatar sits in the middle of the header, its name under it (iMessage); else left, beside it.
    let centredHeader: Bool
    /// A group member's name heads their run inside its first bubble, in their colour (WhatsApp); else above it, grey.
    let namesInBubble: Bool
    /// The send button's mark.
    enum SendIcon {
        /// An arrow pointing up (iMessage, Messenger, Discord).
        case arrow
        /// A paper plane pointing right, on a green disc shown only while there is something to send; the microphone
        /// in its place while the field is empty (WhatsApp).
        case paperPlane
    }

    let sendIcon: SendIcon
    /// A group's header lists its members under its name (WhatsApp).
    let memberSubtitle: Bool
    let inputBackground: RGBColor
    let inputField: RGBColor
    let inputFieldBorder: RGBColor?
    let inputPlaceholder: String
    let placeholderText: RGBColor
    /// The round button at the input bar's end (send or microphone).
    let inputButton: RGBColor
    let typingDots: RGBColor
    let keyboardBackground: RGBColor
    let keyBackground: RGBColor
    let keySpecialBackground: RGBColor
    let keyText: RGBColor
    let secondaryText: RGBColor

    /// Above the first message, the service and the day it began: "iMessage", "Today 9:41" (iMessage).
    let heading: Bool
    /// Under the phone's owner's latest sent message, "Delivered", then "Read" once the other side answers (iMessage;
    /// in a group, "Delivered" only, as groups send no read receipts).
    let receipts: Bool
    /// A message with a link is followed by the link's card, as the app previews it (iMessage).
    let linkCards: Bool
    /// The colour of a link in a sent and in a received message; nil for the message's own, underlined.
    let sentLink: RGBColor?
    let receivedLink: RGBColor?

    init(theme: ChatTheme, dark: Bool) {
        switch (theme, dark) {
        case (.imessage, false):
            self.init(
                layout: .bubbles, background: RGBColor(0xFFFFFF), headerBackground: RGBColor(0xF6F6F6),
                headerText: RGBColor(0x000000),
                accent: RGBColor(0x0A84FF), separator: RGBColor(0xD8D8DC), sentBubble: RGBColor(0x0B84FE), sentText: RGBColor(0xFFFFFF),
                receivedBubble: RGBColor(0xE9E9EB), receivedText: RGBColor(0x000000), bubbleRadius: 18, tail: .curvedBottom, stamps: false,
                centredHeader: true, namesInBubble: false, sendIcon: .arrow, memberSubtitle: false,
                inputBackground: RGBColor(0xFFFFFF), inputField: RGBColor(0xFFFFFF), inputFieldBorder: RGBColor(0xC7C7CC),
                inputPlaceholder: "iMessage", placeholderText: RGBColor(0xA0A0A6), inputButton: RGBColor(0x0B84FE),
                typingDots: RGBColor(0x8E8E93), keyboardBackground: RGBColor(0xD1D3D9), keyBackground: RGBColor(0xFFFFFF),
                keySpecialBackground: RGBColor(0xABB0BC), keyText: RGBColor(0x000000), secondaryText: RGBColor(0x8E8E93),
                heading: true, receipts: true, linkCards: true, receivedLink: RGBColor(0x0A84FF))
        case (.imessage, true):
            self.init(
                layout: .bubbles, background: RGBColor(0x000000), headerBackground: RGBColor(0x1C1C1E),
                headerText: RGBColor(0xFFFFFF),
                accent: RGBColor(0x0A84FF), separator: RGBColor(0x38383A), sentBubble: RGBColor(0x0B84FE), sentText: RGBColor(0xFFFFFF),
                receivedBubble: RGBColor(0x26252A), receivedText: RGBColor(0xFFFFFF), bubbleRadius: 18, tail: .curvedBottom, stamps: false,
                centredHeader: true, namesInBubble: false, sendIcon: .arrow, memberSubtitle: false,
                inputBackground: RGBColor(0x000000), inputField: RGBColor(0x000000), inputFieldBorder: RGBColor(0x3A3A3C),
                inputPlaceholder: "iMessage", placeholderText: RGBColor(0x6E6E73), inputButton: RGBColor(0x0B84FE),
                typingDots: RGBColor(0x8E8E93), keyboardBackground: RGBColor(0x2C2C2E), keyBackground: RGBColor(0x6B6B6E),
                keySpecialBackground: RGBColor(0x464649), keyText: RGBColor(0xFFFFFF), secondaryText: RGBColor(0x8E8E93),
                heading: true, receipts: true, linkCards: true, receivedLink: RGBColor(0x0A84FF))
        case (.whatsapp, false):
            self.init(
                layout: .bubbles, background: RGBColor(0xEFE7DE), headerBackground: RGBColor(0xF6F6F6),
                headerText: RGBColor(0x000000),
                accent: RGBColor(0x007AFF), separator: RGBColor(0xD8D8DC), sentBubble: RGBColor(0xDCF8C6), sentText: RGBColor(0x111B21),
                receivedBubble: RGBColor(0xFFFFFF), receivedText: RGBColor(0x111B21), bubbleRadius: 8, tail: .topCorner, stamps: true,
                centredHeader: false, namesInBubble: true, sendIcon: .paperPlane, memberSubtitle: true,
                inputBackground: RGBColor(0xF6F6F6), inputField: RGBColor(0xFFFFFF), inputFieldBorder: RGBColor(0xDADADA),
                inputPlaceholder: "Message", placeholderText: RGBColor(0x8696A0), inputButton: RGBColor(0x25D366),
                typingDots: RGBColor(0x8696A0), keyboardBackground: RGBColor(0xD1D3D9), keyBackground: RGBColor(0xFFFFFF),
                keySpecialBackground: RGBColor(0xABB0BC), keyText: RGBColor(0x000000), secondaryText: RGBColor(0x667781),
                sentLink: RGBColor(0x027EB5), receivedLink: RGBColor(0x027EB5))
        case (.whatsapp, true):
            self.init(
                layout: .bubbles, background: RGBColor(0x0B141A), headerBackground: RGBColor(0x1F2C34),
                headerText: RGBColor(0xE9EDEF),
                accent: RGBColor(0x00A884), separator: RGBColor(0x2A3942), sentBubble: RGBColor(0x005C4B), sentText: RGBColor(0xE9EDEF),
                receivedBubble: RGBColor(0x202C33), receivedText: RGBColor(0xE9EDEF), bubbleRadius: 8, tail: .topCorner, stamps: true,
                centredHeader: false, namesInBubble: true, sendIcon: .paperPlane, memberSubtitle: true,
                inputBackground: RGBColor(0x1F2C34), inputField: RGBColor(0x2A3942), inputFieldBorder: nil,
                inputPlaceholder: "Message", placeholderText: RGBColor(0x8696A0), inputButton: RGBColor(0x00A884),
                typingDots: RGBColor(0x8696A0), keyboardBackground: RGBColor(0x2C2C2E), keyBackground: RGBColor(0x6B6B6E),
                keySpecialBackground: RGBColor(0x464649), keyText: RGBColor(0xFFFFFF), secondaryText: RGBColor(0x8696A0),
                sentLink: RGBColor(0x53BDEB), receivedLink: RGBColor(0x53BDEB))
        case (.messenger, false):
            self.init(
                layout: .bubbles, background: RGBColor(0xFFFFFF), headerBackground: RGBColor(0xFFFFFF),
                headerText: RGBColor(0x050505),
                accent: RGBColor(0x0084FF), separator: RGBColor(0xE4E6EB), sentBubble: RGBColor(0x0084FF), sentText: RGBColor(0xFFFFFF),
                receivedBubble: RGBColor(0xE4E6EB), receivedText: RGBColor(0x050505), bubbleRadius: 18, tail: .none, stamps: false,
                centredHeader: false, namesInBubble: false, sendIcon: .arrow, memberSubtitle: false,
                inputBackground: RGBColor(0xFFFFFF), inputField: RGBColor(0xF0F2F5), inputFieldBorder: nil,
                inputPlaceholder: "Aa", placeholderText: RGBColor(0x65676B), inputButton: RGBColor(0x0084FF),
                typingDots: RGBColor(0x65676B), keyboardBackground: RGBColor(0xD1D3D9), keyBackground: RGBColor(0xFFFFFF),
                keySpecialBackground: RGBColor(0xABB0BC), keyText: RGBColor(0x000000), secondaryText: RGBColor(0x65676B))
        case (.messenger, true):
            self.init(
                layout: .bubbles, background: RGBColor(0x000000), headerBackground: RGBColor(0x000000),
                headerText: RGBColor(0xE4E6EB),
                accent: RGBColor(0x0A7CFF), separator: RGBColor(0x242526), sentBubble: RGBColor(0x0A7CFF), sentText: RGBColor(0xFFFFFF),
                receivedBubble: RGBColor(0x303030), receivedText: RGBColor(0xE4E6EB), bubbleRadius: 18, tail: .none, stamps: false,
                centredHeader: false, namesInBubble: false, sendIcon: .arrow, memberSubtitle: false,
                inputBackground: RGBColor(0x000000), inputField: RGBColor(0x242526), inputFieldBorder: nil,
                inputPlaceholder: "Aa", placeholderText: RGBColor(0xB0B3B8), inputButton: RGBColor(0x0A7CFF),
                typingDots: RGBColor(0xB0B3B8), keyboardBackground: RGBColor(0x2C2C2E), keyBackground: RGBColor(0x6B6B6E),
                keySpecialBackground: RGBColor(0x464649), keyText: RGBColor(0xFFFFFF), secondaryText: RGBColor(0xB0B3B8))
        case (.discord, false):
            self.init(
                layout: .rows, background: RGBColor(0xFFFFFF), headerBackground: RGBColor(0xF2F3F5),
                headerText: RGBColor(0x060607),
                accent: RGBColor(0x5865F2), separator: RGBColor(0xE3E5E8), sentBubble: RGBColor(0x5865F2), sentText: RGBColor(0x2E3338),
                receivedBubble: RGBColor(0xEBEDEF), receivedText: RGBColor(0x2E3338), bubbleRadius: 0, tail: .none, stamps: false,
                centredHeader: false, namesInBubble: false, sendIcon: .arrow, memberSubtitle: false,
                inputBackground: RGBColor(0xFFFFFF), inputField: RGBColor(0xEBEDEF), inputFieldBorder: nil,
                inputPlaceholder: "Message", placeholderText: RGBColor(0x747F8D), inputButton: RGBColor(0x5865F2),
                typingDots: RGBColor(0x4F5660), keyboardBackground: RGBColor(0xD1D3D9), keyBackground: RGBColor(0xFFFFFF),
                keySpecialBackground: RGBColor(0xABB0BC), keyText: RGBColor(0x000000), secondaryText: RGBColor(0x747F8D),
                sentLink: RGBColor(0x006CE7), receivedLink: RGBColor(0x006CE7))
        case (.discord, true):
            self.init(
                layout: .rows, background: RGBColor(0x313338), headerBackground: RGBColor(0x2B2D31),
                headerText: RGBColor(0xF2F3F5),
                accent: RGBColor(0x5865F2), separator: RGBColor(0x1F2023), sentBubble: RGBColor(0x5865F2), sentText: RGBColor(0xDBDEE1),
                receivedBubble: RGBColor(0x2B2D31), receivedText: RGBColor(0xDBDEE1), bubbleRadius: 0, tail: .none, stamps: false,
                centredHeader: false, namesInBubble: false, sendIcon: .arrow, memberSubtitle: false,
                inputBackground: RGBColor(0x313338), inputField: RGBColor(0x383A40), inputFieldBorder: nil,
                inputPlaceholder: "Message", placeholderText: RGBColor(0x949BA4), inputButton: RGBColor(0x5865F2),
                typingDots: RGBColor(0xB5BAC1), keyboardBackground: RGBColor(0x2C2C2E), keyBackground: RGBColor(0x6B6B6E),
                keySpecialBackground: RGBColor(0x464649), keyText: RGBColor(0xFFFFFF), secondaryText: RGBColor(0x949BA4),
                sentLink: RGBColor(0x00A8FC), receivedLink: RGBColor(0x00A8FC))
        }
    }

    private init(
        layout: Layout, background: RGBColor, headerBackground: RGBColor, headerText: RGBColor, accent: RGBColor,
        separator: RGBColor,
        sentBubble: RGBColor, sentText: RGBColor, receivedBubble: RGBColor, receivedText: RGBColor, bubbleRadius: Double, tail: Tail, stamps: Bool,
        centredHeader: Bool, namesInBubble: Bool, sendIcon: SendIcon, memberSubtitle: Bool, inputBackground: RGBColor, inputField: RGBColor,
        inputFieldBorder: RGBColor?, inputPlaceholder: String,
        placeholderText: RGBColor, inputButton: RGBColor, typingDots: RGBColor, keyboardBackground: RGBColor, keyBackground: RGBColor,
        keySpecialBackground: RGBColor, keyText: RGBColor, secondaryText: RGBColor, heading: Bool = false, receipts: Bool = false,
        linkCards: Bool = false, sentLink: RGBColor? = nil, receivedLink: RGBColor? = nil
    ) {
        self.heading = heading
        self.receipts = receipts
        self.linkCards = linkCards
        self.sentLink = sentLink
        self.receivedLink = receivedLink
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
        self.stamps = stamps
        self.centredHeader = centredHeader
        self.namesInBubble = namesInBubble
        self.sendIcon = sendIcon
        self.memberSubtitle = memberSubtitle
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
