public import ChatTaleInputs

/// What the chat shows at one tick: the messages already sent and what is happening below them.
public struct ChatFrameState: Hashable, Sendable {
    /// Messages shown as finished bubbles, from the first.
    public let sent: Int
    public let activity: ChatActivity

    public init(sent: Int, activity: ChatActivity) {
        self.sent = sent
        self.activity = activity
    }
}

public enum ChatActivity: Hashable, Sendable {
    case idle
    /// The "…" bubble of `message`'s sender; `phase` steps through ``ChatTimeline/indicatorPhases`` per cycle, from 0 in
    /// its first cycle and from ``ChatTimeline/indicatorPhases`` in the later ones (``ChatTimeline/phase(step:)``).
    case indicator(message: Int, phase: Int)
    /// `message` typed out to its first `characters` grapheme clusters, with a cursor.
    case typing(message: Int, characters: Int)
    /// `message`'s first `characters` grapheme clusters in the input field (``ChatTypingStyle/field``).
    case composing(message: Int, characters: Int)
    /// `message`, finished, moving into its place at `step` of `steps` (``ChatTypingStyle/field``).
    case arriving(message: Int, step: Int, of: Int)

    /// What the input field holds: the message being composed and how much of it.
    var field: (message: Int, characters: Int)? {
        if case .composing(let message, let characters) = self { (message, characters) } else { nil }
    }
}

/// A sound at one tick of the video.
public struct ChatSoundEvent: Equatable, Sendable {
    public enum Kind: Sendable { case keyClick, send, receive }
    public let tick: Int
    public let kind: Kind

    public init(tick: Int, kind: Kind) {
        self.tick = tick
        self.kind = kind
    }
}

/// The whole video as a deterministic list of pictures on integer ticks (`1/fps` seconds): the first message in place,
/// then per message the "…" indicator, one grapheme cluster at a time (an emoji with a skin tone or a ZWJ family is one
/// `Character`, so it never shows half-built), the send, the hold; ``ChatPacing`` says how long each lasts. The frame count is known before anything is drawn, and each distinct picture
/// appears once, with how long it lasts.
public struct ChatTimeline: Sendable {
    /// One picture and the ticks it covers.
    public struct Segment: Equatable, Sendable {
        public let state: ChatFrameState
        public let start: Int
        public let length: Int

        public var end: Int { start + length }
    }

    /// The indicator's dots animate at 12 steps per second whatever the frame rate: smooth to the eye, and at 60 fps it
    /// makes a fifth of the pictures a per-frame animation would.
    public static let indicatorStepsPerSecond = 12
    /// One cycle of the dots' wave is one second.
    public static let indicatorPhases = 12

    public let fps: Int
    public let totalTicks: Int
    public let segments: [Segment]
    public let sounds: [ChatSoundEvent]

    public init(_ input: ChatExportInput) {
        let pacing = ChatPacing(input.settings)
        let sides = input.settings.sides(of: input.conversation.characters)
        var builder = Builder()
        // The video opens on the first message already sent: its first frame, the thumbnail a platform shows, is a
        // conversation rather than an empty chat.
        builder.show(ChatFrameState(sent: min(1, input.conversation.messages.count), activity: .idle), for: pacing.leadInTicks + pacing.holdTicks)
        let inField = input.settings.typingStyle == .field
        for (index, message) in input.conversation.messages.enumerated().dropFirst() {
            let side = sides[message.character] ?? .left
            let sender = side == .right
            /// The "…" for `ticks`, its wave continuing from `start`.
            func indicator(from start: Int, for ticks: Int) {
                for tick in start..<(start + ticks) {
                    let step = tick * Self.indicatorStepsPerSecond / pacing.fps
                    builder.show(ChatFrameState(sent: index, activity: .indicator(message: index, phase: Self.phase(step: step))), for: 1)
                }
            }
            // The phone's owner sees no "…" of their own: the pause before they type.
            if sender {
                builder.show(ChatFrameState(sent: index, activity: .idle), for: pacing.indicatorTicks)
            } else {
                indicator(from: 0, for: pacing.indicatorTicks)
            }
            let typingTicks = pacing.typingTicks(of: message, side: side)
            if inField && !sender {
                // The other side types unseen: their "…" goes on for as long, whether the indicator is on or not.
                indicator(from: pacing.indicatorTicks, for: typingTicks)
            } else {
                // A step (and a click) per grapheme cluster; when the other side's typing is cut short to its limit, the
                // steps keep their pace and each adds several clusters.
                let count = message.text.count
                let steps = min(count, typingTicks / pacing.ticksPerCharacter)
                for step in 1...steps {
                    builder.sound(.keyClick)
                    let typed = count * step / steps
                    let activity: ChatActivity = inField ? .composing(message: index, characters: typed) : .typing(message: index, characters: typed)
                    let ticks = step == steps ? typingTicks - (steps - 1) * pacing.ticksPerCharacter : pacing.ticksPerCharacter
                    builder.show(ChatFrameState(sent: index, activity: activity), for: ticks)
                }
            }
            builder.sound(sender ? .send : .receive)
            // In the field style the message moves into place over the start of the hold, one picture a tick.
            let arrival = inField ? min(Self.arrivalTicks(fps: pacing.fps), pacing.holdTicks - 1) : 0
            for step in 0..<arrival {
                builder.show(ChatFrameState(sent: index, activity: .arriving(message: index, step: step, of: arrival)), for: 1)
            }
            builder.show(ChatFrameState(sent: index + 1, activity: .idle), for: pacing.holdTicks - arrival)
        }
        builder.show(ChatFrameState(sent: input.conversation.messages.count, activity: .idle), for: pacing.endTicks)
        fps = pacing.fps
        totalTicks = builder.tick
        segments = builder.segments
        sounds = builder.sounds
    }

    /// The "…"'s phase at `step` of its wave: the first cycle's steps told apart from the later cycles' (which repeat),
    /// so that the "…" appearing can be eased in over its first steps.
    static func phase(step: Int) -> Int {
        step < indicatorPhases ? step : indicatorPhases + step % indicatorPhases
    }

    /// A sent message slides up from the input field, a received one rises into place, in a quarter of a second.
    static func arrivalTicks(fps: Int) -> Int { fps / 4 }

    public var durationSeconds: Double { Double(totalTicks) / Double(fps) }

    /// The picture at `tick` (clamped to the video).
    public func state(at tick: Int) -> ChatFrameState {
        let tick = min(max(tick, 0), totalTicks - 1)
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].start <= tick { low = middle } else { high = middle - 1 }
        }
        return segments[low].state
    }

    /// Appends pictures, merging a picture with the one before when they are the same.
    private struct Builder {
        var tick = 0
        var segments: [Segment] = []
        var sounds: [ChatSoundEvent] = []

        mutating func show(_ state: ChatFrameState, for ticks: Int) {
            guard ticks > 0 else { return }
            if let last = segments.last, last.state == state {
                segments[segments.count - 1] = Segment(state: state, start: last.start, length: last.length + ticks)
            } else {
                segments.append(Segment(state: state, start: tick, length: ticks))
            }
            tick += ticks
        }

        mutating func sound(_ kind: ChatSoundEvent.Kind) {
            sounds.append(ChatSoundEvent(tick: tick, kind: kind))
        }
    }
}
