import CurlClient
import Foundation
import KilnJSON
import KilnProviders
import Testing

@Suite struct ProviderFailureClassifierTests {
    let classifier = ProviderFailureClassifier(provider: "test")

    func error(_ status: Int, _ headers: HTTPHeaders = [:], body: String = "{}") -> ProviderError {
        self.classifier.error(status: status, headers: headers, body: Array(body.utf8), now: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test(arguments: [
        (400, ProviderError.Kind.invalidRequest, false), (401, .authentication, false), (402, .quotaExhausted, false),
        (403, .authentication, false), (404, .invalidRequest, false), (408, .timeout, true), (409, .server, true),
        (413, .invalidRequest, false), (422, .invalidRequest, false), (429, .rateLimited, true), (500, .server, true),
        (502, .server, true), (503, .overloaded, true), (504, .server, true), (529, .overloaded, true),
    ])
    func statusesFollowTheRetryTable(status: Int, kind: ProviderError.Kind, retryable: Bool) {
        let error = self.error(status)
        #expect(error.kind == kind)
        #expect(error.isRetryable == retryable)
    }

    @Test func moneyRelated429sAreNotRetried() {
        let openAI = self.error(
            429, body: #"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#)
        #expect(openAI.kind == .quotaExhausted)
        #expect(!openAI.isRetryable)
        let anthropic = self.error(
            429,
            body:
                #"{"type":"error","error":{"type":"rate_limit_error","message":"spend limit","details":{"error_code":"enforced_spend_limit_reached"}},"request_id":"req_1"}"#
        )
        #expect(anthropic.kind == .quotaExhausted)
        #expect(anthropic.requestID == "req_1")
    }

    @Test func geminisDailyQuotaIsNotRetriedButItsPerMinuteOneIs() {
        func body(_ quotaID: String) -> String {
            #"{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"\#(quotaID)"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"30s"}]}}"#
        }
        let daily = self.error(429, body: body("GenerateRequestsPerDayPerProjectPerModel-FreeTier"))
        #expect(daily.kind == .quotaExhausted)
        #expect(!daily.isRetryable)
        let perMinute = self.error(429, body: body("GenerateRequestsPerMinutePerProjectPerModel-FreeTier"))
        #expect(perMinute.kind == .rateLimited)
        #expect(perMinute.retryAfter == .seconds(30))
    }

    @Test func shouldRetryHeaderOverrulesTheTable() {
        #expect(!self.error(500, ["x-should-retry": "false"]).isRetryable)
        #expect(self.error(400, ["x-should-retry": "true"]).isRetryable)
        #expect(!self.error(503, ["X-Fal-Retryable": "false"]).isRetryable)
    }

    @Test func retryAfterIsReadInEveryForm() {
        #expect(self.error(429, ["retry-after": "7"]).retryAfter == .seconds(7))
        #expect(self.error(429, ["retry-after-ms": "1500", "retry-after": "7"]).retryAfter == .milliseconds(1500))
        // 1,700,000,000 is Tue, 14 Nov 2023 22:13:20 GMT.
        #expect(self.error(429, ["retry-after": "Tue, 14 Nov 2023 22:13:50 GMT"]).retryAfter == .seconds(30))
        #expect(self.error(429, ["retry-after": "soon"]).retryAfter == nil)
        let gemini = self.error(
            429,
            body:
                #"{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"22s"}]}}"#
        )
        #expect(gemini.retryAfter == .seconds(22))
        #expect(gemini.code == "RESOURCE_EXHAUSTED")
    }

    /// An answer may ask for anything; a worker that built a `Duration` of infinity crashed with every job on it.
    @Test func aWaitNoDurationCanHoldIsNoneOrADay() {
        for headers: HTTPHeaders in [["retry-after": "inf"], ["retry-after": "-3"], ["retry-after-ms": "nan"], ["retry-after-ms": "inf"]] {
            #expect(self.error(429, headers).retryAfter == nil, "\(headers)")
        }
        #expect(self.error(429, ["retry-after": "1e300"]).retryAfter == .seconds(86_400))
        #expect(self.error(429, ["retry-after": "10000000000000000"]).retryAfter == .seconds(86_400))
        #expect(self.error(429, ["retry-after": "Fri, 31 Dec 9999 23:59:59 GMT"]).retryAfter == .seconds(86_400))
        for delay in ["infs", "1e30s"] {
            let body = #"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"RetryInfo","retryDelay":"\#(delay)"}]}}"#
            #expect(self.error(429, body: body).retryAfter == (delay == "infs" ? nil : .seconds(86_400)))
        }
    }

    @Test func errorBodiesOfEachProviderAreRead() {
        let anthropic = self.error(
            529, ["request-id": "req_9"], body: #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#)
        #expect(anthropic.code == "overloaded_error")
        #expect(anthropic.message == "Overloaded")
        #expect(anthropic.requestID == "req_9")
        let fal = self.error(422, body: #"{"detail":[{"loc":["body","prompt"],"msg":"field required","type":"value_error.missing"}]}"#)
        #expect(fal.message == "body.prompt: field required")
        let html = self.error(502, ["content-type": "text/html"], body: "<html><body>Bad gateway</body></html>")
        #expect(html.message.contains("not JSON"))
        #expect(html.isRetryable)
    }

    @Test func inStreamErrorsAreJudgedByTheirType() throws {
        let overloaded = try #require(JSONValue.parse(#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#))
        let error = self.classifier.streamError(overloaded, headers: [:])
        #expect(error.kind == .overloaded)
        #expect(error.isRetryable)
    }

    @Test func transferFailuresAreRetriedUnlessTheRequestIsWrong() {
        let timeout = self.classifier.error(HTTPClientError(kind: .timeout, message: "no data for 400 ms")) as? ProviderError
        #expect(timeout?.kind == .timeout)
        #expect(timeout?.isRetryable == true)
        let cut = self.classifier.error(HTTPClientError(kind: .transport, code: 18, message: "transfer closed")) as? ProviderError
        #expect(cut?.isRetryable == true)
        let badURL = self.classifier.error(HTTPClientError(kind: .transport, code: 3, message: "malformed URL")) as? ProviderError
        #expect(badURL?.isRetryable == false)
        #expect(self.classifier.error(HTTPClientError(kind: .cancelled, message: "cancelled")) is CancellationError)
    }
}
