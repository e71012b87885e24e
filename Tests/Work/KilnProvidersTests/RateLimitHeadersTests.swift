import CurlClient
import Foundation
import KilnProviders
import Testing

@Suite struct RateLimitHeadersTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z

    @Test func anthropicsExhaustedRequestsWaitForTheirReset() {
        let headers: HTTPHeaders = [
            "anthropic-ratelimit-requests-remaining": "0", "anthropic-ratelimit-requests-reset": "2023-11-14T22:13:27Z",
            "anthropic-ratelimit-tokens-remaining": "120000", "anthropic-ratelimit-tokens-reset": "2023-11-14T22:14:00Z",
        ]
        #expect(RateLimitHeaders.exhaustedFor(headers, now: self.now) == .seconds(7))
    }

    @Test func openAIsExhaustedTokensWaitForTheirGoDuration() {
        let headers: HTTPHeaders = [
            "x-ratelimit-remaining-requests": "59", "x-ratelimit-reset-requests": "1s",
            "x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "6m0s",
        ]
        #expect(RateLimitHeaders.exhaustedFor(headers, now: self.now) == .seconds(360))
    }

    @Test func roomLeftOrNoHeadersMeansNoWait() {
        #expect(RateLimitHeaders.exhaustedFor(["x-ratelimit-remaining-requests": "3", "x-ratelimit-reset-requests": "1s"]) == nil)
        #expect(RateLimitHeaders.exhaustedFor([:]) == nil)
    }

    /// Longer resets than a day count as a day: a `Duration` cannot hold what a header may say.
    @Test(arguments: [
        ("20ms", Duration.milliseconds(20)), ("1.5s", .milliseconds(1500)), ("1h2m3s", .seconds(3723)), ("6m0s", .seconds(360)),
        ("3000000000000h", .seconds(86_400)), ("100000000000000000000s", .seconds(86_400)),
    ])
    func goDurationsAreRead(text: String, duration: Duration) {
        let headers: HTTPHeaders = ["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": text]
        #expect(RateLimitHeaders.exhaustedFor(headers) == duration)
    }
}
