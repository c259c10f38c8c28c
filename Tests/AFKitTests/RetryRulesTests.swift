import AFCurl
import XCTest

@testable import AFKit

/// curl's retry rules and the waits servers name: which failures and methods are retried, the
/// backoff, `Retry-After` in both forms, the IETF draft's `RateLimit` fields in their three
/// shapes, and `X-RateLimit-Reset` as seconds or a Unix time.
final class RetryRulesTests: XCTestCase {
    private func head(_ status: Int, _ fields: [(String, String)]) -> ResponseHead {
        ResponseHead(statusCode: status, reasonPhrase: "", httpVersion: "HTTP/1.1", headers: fields)
    }

    // 2050-08-18 02:01:18 GMT.
    private let august2050: Double = 2_544_400_878

    func testTransientStatusesAndFailures() {
        let rules = RetryRules(retries: 3)
        XCTAssertEqual([408, 429, 500, 502, 503, 504].map { rules.reason(status: $0) }, [
            "HTTP 408", "HTTP 429", "HTTP 500", "HTTP 502", "HTTP 503", "HTTP 504",
        ])
        for status in [200, 301, 400, 401, 404, 501, 505] { XCTAssertNil(rules.reason(status: status), "\(status)") }
        XCTAssertEqual(rules.reason(error: CurlError(kind: .timeout, description: "t")), "timeout")
        XCTAssertEqual(rules.reason(error: CurlError(kind: .couldNotConnect, description: "c")), "connection failed")
        XCTAssertEqual(rules.reason(error: CurlError(kind: .couldNotResolve, description: "r")), "name not resolved")
        XCTAssertNil(rules.reason(error: CurlError(kind: .receiveFailed, description: "reset")))
        XCTAssertNil(rules.reason(error: CurlError.interrupted(signal: 2)))
        XCTAssertNil(rules.reason(error: HTTPClientError.tooManyRedirects(3)))
        let all = RetryRules(retries: 3, allErrors: true)
        XCTAssertEqual(all.reason(error: CurlError(kind: .receiveFailed, description: "reset")), "reset")
        XCTAssertNil(all.reason(error: CurlError.interrupted(signal: 2)), "an interrupt is never retried")
        XCTAssertNil(all.reason(error: CurlError(kind: .badURL, description: "u")))
    }

    func testOnlyIdempotentMethodsWithoutAllErrors() {
        let rules = RetryRules(retries: 1)
        for method in ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE", "get"] {
            XCTAssertTrue(rules.mayRetry(method: method), method)
        }
        for method in ["POST", "PATCH", "PROPFIND"] { XCTAssertFalse(rules.mayRetry(method: method), method) }
        XCTAssertTrue(RetryRules(retries: 1, allErrors: true).mayRetry(method: "POST"))
    }

    func testBackoffDoublesFromOneSecondWithJitterAndIsCapped() {
        let rules = RetryRules(retries: 30)
        XCTAssertEqual((1...5).map { rules.backoff(beforeRetry: $0, random: 0) }, [1, 2, 4, 8, 16])
        XCTAssertEqual(rules.backoff(beforeRetry: 3, random: 0.5), 3.6, accuracy: 1e-9)
        XCTAssertEqual(rules.backoff(beforeRetry: 11, random: 0), 600)
        XCTAssertEqual(rules.backoff(beforeRetry: 1000, random: 0), 600)
        XCTAssertEqual(RetryRules(retries: 3, delay: 0.25).backoff(beforeRetry: 3, random: 0.9), 0.25)
        XCTAssertEqual(RetryRules(retries: 3, maxTime: 10).longestWait(elapsed: 4), 6)
        XCTAssertEqual(RetryRules(retries: 3).longestWait(elapsed: 4), 600)
    }

    func testRetryAfterInSecondsAndAsADate() {
        XCTAssertEqual(ServerWait.retryAfter("120", now: 0), 120)
        XCTAssertEqual(ServerWait.retryAfter(" 2 ", now: 0), 2)
        XCTAssertEqual(ServerWait.retryAfter("Thu, 18 Aug 2050 02:01:18 GMT", now: august2050 - 30), 30)
        XCTAssertEqual(ServerWait.retryAfter("Thu, 18 Aug 2050 02:01:18 GMT", now: august2050 + 30), 0)
        for bad in ["", "-1", "soon", "1e9", "0x10", "Thu, 18 Aug 2050 02:01:18 UTC", "99999999999999999"] {
            XCTAssertNil(ServerWait.retryAfter(bad, now: 0), bad)
        }
        let wait = ServerWait.read(head(503, [("Retry-After", "7")]), now: 0)
        XCTAssertEqual(wait, ServerWait(seconds: 7, source: "Retry-After"))
    }

    func testRateLimitFieldsOfTheDraft() {
        // draft-ietf-httpapi-ratelimit-headers-08 and later: a list of policies with parameters.
        XCTAssertEqual(ServerWait.rateLimit("\"default\";r=0;t=30").remaining, 0)
        XCTAssertEqual(ServerWait.rateLimit("\"default\";r=0;t=30").reset, 30)
        let two = ServerWait.rateLimit("\"burst\";r=5;t=1, \"day\";r=0;t=3600")
        XCTAssertEqual(two.remaining, 0)
        XCTAssertEqual(two.reset, 3600, "the policy with the least quota left decides")
        XCTAssertEqual(ServerWait.rateLimit("\"default\";q=100;w=60").window, 60)
        // Earlier drafts: one dictionary.
        let dictionary = ServerWait.rateLimit("limit=10, remaining=0, reset=5")
        XCTAssertEqual(dictionary.remaining, 0)
        XCTAssertEqual(dictionary.reset, 5)

        XCTAssertEqual(
            ServerWait.read(head(200, [("RateLimit", "\"default\";r=0;t=12")]), now: 0),
            ServerWait(seconds: 12, source: "RateLimit"))
        XCTAssertEqual(
            ServerWait.read(head(200, [("RateLimit", "\"default\";r=3;t=12")]), now: 0), ServerWait(),
            "quota left: no wait")
        XCTAssertEqual(
            ServerWait.read(head(429, [("RateLimit", "\"default\";r=0"), ("RateLimit-Policy", "\"default\";q=10;w=40")]), now: 0),
            ServerWait(seconds: 40, source: "RateLimit"), "no reset: the policy's window")
        XCTAssertEqual(
            ServerWait.read(head(429, [("RateLimit-Remaining", "0"), ("RateLimit-Reset", "9")]), now: 0),
            ServerWait(seconds: 9, source: "RateLimit-Reset"))
    }

    func testXRateLimitResetAsSecondsOrAUnixTime() {
        XCTAssertEqual(ServerWait.resetSeconds("60", now: 1_700_000_000), 60)
        XCTAssertEqual(ServerWait.resetSeconds("1700000042", now: 1_700_000_000), 42)
        XCTAssertEqual(ServerWait.resetSeconds("1699999000", now: 1_700_000_000), 0)
        XCTAssertNil(ServerWait.resetSeconds("tomorrow", now: 0))
        XCTAssertEqual(
            ServerWait.read(head(200, [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1700000010")]), now: 1_700_000_000),
            ServerWait(seconds: 10, source: "X-RateLimit-Reset"))
        XCTAssertEqual(
            ServerWait.read(head(200, [("X-RateLimit-Remaining", "4"), ("X-RateLimit-Reset", "10")]), now: 0), ServerWait())
        XCTAssertEqual(
            ServerWait.read(head(429, [("X-RateLimit-Reset", "3")]), now: 0),
            ServerWait(seconds: 3, source: "X-RateLimit-Reset"), "a 429 waits for the reset whatever remains")
        // Retry-After wins over the rate-limit fields.
        XCTAssertEqual(
            ServerWait.read(head(429, [("X-RateLimit-Reset", "3"), ("Retry-After", "1")]), now: 0).seconds, 1)
    }
}
