/// How a response body goes out, step by step; faults shape it. Planning is pure, so each fault's bytes are
/// tested without a socket, and ``play(on:requestBody:)`` only executes the steps.
struct Transmission: Sendable, Equatable {
    enum Step: Sendable, Equatable {
        case write([UInt8])
        case pause(Duration)
        /// Send nothing more and keep the connection open until the client leaves (or ``stallLimit``).
        case stall
        /// Drop the connection without ending the body: no terminating chunk, or fewer bytes than the
        /// `Content-Length` announced.
        case cut
        case finish
    }

    /// Longest a `stall` or `hang` holds a connection whose client stays.
    static let stallLimit = Duration.seconds(600)

    var steps: [Step]

    /// Plans an SSE stream.
    /// - Parameters:
    ///   - stream: the provider's events and fault substitutes.
    ///   - fault: the request's fault, if any; modes that do not concern streams are ignored.
    ///   - interval: pause between two events.
    init(stream: EventStream, fault: FaultSpec?, interval: Duration) {
        let lineEnding = fault?.mode == .crlf ? "\r\n" : "\n"
        var events = stream.events
        var ending = Step.finish
        switch fault?.mode {
        case .noFinalEvent?:
            events.removeLast(min(stream.terminalEvents, events.count))
        case .streamError?:
            events = Array(events.prefix(fault?.integer("after_events", default: 3) ?? 3)) + [stream.inBandError]
        case .malformed?:
            let position = min(max(fault?.integer("after_events", default: 3) ?? 3, 0), events.count)
            events.insert(stream.malformed, at: position)
        case .stall?:
            events = Array(events.prefix(max(fault?.integer("after_events", default: 2) ?? 2, 0)))
            ending = .stall
        case .cut?:
            events = Array(events.prefix(max(fault?.integer("after_events", default: 3) ?? 3, 0)))
            ending = .cut
        default:
            break
        }
        var steps: [Step] = []
        if fault?.mode == .keepalive, let fault {
            let pause = Duration.milliseconds(fault.integer("interval_ms", default: 100))
            for _ in 0..<max(fault.integer("count", default: 3), 0) {
                steps.append(.write(stream.keepAlive.bytes(lineEnding: lineEnding)))
                steps.append(.pause(pause))
            }
        }
        for (index, event) in events.enumerated() {
            if index > 0, interval > .zero { steps.append(.pause(interval)) }
            steps.append(.write(event.bytes(lineEnding: lineEnding)))
        }
        steps.append(ending)
        self.steps = Self.trickled(steps, fault: fault)
    }

    /// Plans a body sent whole (a JSON answer or an image); `stall` and `cut` send its first half first.
    init(body: [UInt8], fault: FaultSpec?) {
        switch fault?.mode {
        case .stall?:
            self.steps = [.write(Array(body.prefix(body.count / 2))), .stall]
        case .cut?:
            self.steps = [.write(Array(body.prefix(body.count / 2))), .cut]
        default:
            self.steps = Self.trickled([.write(body), .finish], fault: fault)
        }
    }

    /// With `trickle`, every write is cut into `bytes`-sized pieces (default 16) sent `interval_ms` apart
    /// (default 5), so lines, JSON and UTF-8 sequences arrive split.
    private static func trickled(_ steps: [Step], fault: FaultSpec?) -> [Step] {
        guard let fault, fault.mode == .trickle else { return steps }
        let size = max(fault.integer("bytes", default: 16), 1)
        let pause = Duration.milliseconds(fault.integer("interval_ms", default: 5))
        var output: [Step] = []
        for step in steps {
            guard case .write(let bytes) = step else {
                output.append(step)
                continue
            }
            var start = 0
            while start < bytes.count {
                if start > 0 { output.append(.pause(pause)) }
                output.append(.write(Array(bytes[start..<min(start + size, bytes.count)])))
                start += size
            }
            output.append(.pause(pause))
        }
        return output
    }
}
