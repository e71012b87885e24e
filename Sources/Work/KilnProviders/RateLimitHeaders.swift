public import CurlClient
public import Foundation

/// What a provider's rate-limit headers say about the room left: Anthropic's `anthropic-ratelimit-{requests,tokens}-
/// {remaining,reset}` (the reset an RFC 3339 time) and OpenAI's `x-ratelimit-{remaining,reset}-{requests,tokens}`
/// (the reset a Go duration such as `6m0s` or `20ms`). Read from every answer, so workers slow down before the 429.
public enum RateLimitHeaders {
    /// How long no request can succeed, when the headers say the requests or tokens left reached zero: the reset of
    /// the exhausted one (the later, if both). `nil` while there is room, or when the provider sends no such headers.
    public static func exhaustedFor(_ headers: HTTPHeaders, now: Date = Date()) -> Duration? {
        var waits: [Duration] = []
        for dimension in ["requests", "tokens"] {
            if headers["anthropic-ratelimit-\(dimension)-remaining"].flatMap(Int.init) == 0,
                let reset = headers["anthropic-ratelimit-\(dimension)-reset"].flatMap(Self.rfc3339)
            {
                waits.append(ProviderWait.milliseconds(max(0, reset.timeIntervalSince(now)) * 1000) ?? .zero)
            }
            if headers["x-ratelimit-remaining-\(dimension)"].flatMap(Int.init) == 0,
                let reset = headers["x-ratelimit-reset-\(dimension)"].flatMap(Self.goDuration)
            {
                waits.append(reset)
            }
        }
        return waits.max()
    }

    private static func rfc3339(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// A Go `time.Duration` as OpenAI writes it: `1h2m3.5s`, `6m0s`, `20ms`, `1.5s` (at most ``ProviderWait/longest``).
    static func goDuration(_ text: String) -> Duration? {
        var milliseconds = 0.0
        var number = ""
        var rest = Substring(text)
        guard !rest.isEmpty else { return nil }
        while let character = rest.first {
            if character.isNumber || character == "." {
                number.append(character)
                rest = rest.dropFirst()
                continue
            }
            let unit: Double
            if rest.hasPrefix("ms") {
                unit = 1
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("h") || rest.hasPrefix("m") || rest.hasPrefix("s") {
                unit = rest.first == "h" ? 3_600_000 : rest.first == "m" ? 60_000 : 1000
                rest = rest.dropFirst()
            } else {
                return nil
            }
            guard let value = Double(number) else { return nil }
            milliseconds += unit * value
            number = ""
        }
        return number.isEmpty ? ProviderWait.milliseconds(milliseconds) : nil
    }
}
