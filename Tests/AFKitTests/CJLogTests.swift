import AFKit
import XCTest

/// The CJNetwork log block, byte-exact to the template in spec/CJNETWORK.md §1.
final class CJLogTests: XCTestCase {
    func testSpecExampleBlock() {
        let log = CJRequestLog(
            address: "https://suggest.example.com/sug", originalParameters: #"{"code":"utf-8","q":"玩具车"}"#,
            finalParameters: CJRequestLog.finalParametersFallback, result: #"{"result":[["玩具车","1024"]]}"#)
        let expected =
            "\n\n  >>>>>>>>>>>>  网络请求Start  >>>>>>>>>>>>  \n地址：https://suggest.example.com/sug \n"
            + "原始参数：{\"code\":\"utf-8\",\"q\":\"玩具车\"} \n最终参数：未获取到，请以原始参数为准... \n"
            + "结果：{\"result\":[[\"玩具车\",\"1024\"]]} \n\n  <<<<<<<<<<<<<  网络请求End  <<<<<<<<<<<<<  \n\n\n"
        XCTAssertEqual(log.text, expected)
        XCTAssertEqual(Array(log.text.utf8), Array(expected.utf8))
        XCTAssertTrue(log.text.contains("\u{FF1A}"))
    }

    func testAddressHidesTheURLsCredentials() {
        XCTAssertEqual(CJRequestLog.address("https://ann:s3cret@h.test/a?b=1"), "https://ann:***@h.test/a?b=1")
        XCTAssertEqual(CJRequestLog.address("https://TOKEN@h.test:8443/"), "https://***@h.test:8443/")
        XCTAssertEqual(CJRequestLog.address("http://a:b:c@h.test"), "http://a:***@h.test")
        // An @ after the authority is not user information.
        XCTAssertEqual(CJRequestLog.address("http://h.test/u@x?m=a@b#c@d"), "http://h.test/u@x?m=a@b#c@d")
        XCTAssertEqual(CJRequestLog.address("http://h.test"), "http://h.test")
        XCTAssertEqual(CJRequestLog.address("no scheme@h"), "no scheme@h")
    }

    func testOriginalParameters() {
        XCTAssertEqual(CJRequestLog.originalParameters(nil, queryItems: []), "(null)")
        XCTAssertEqual(
            CJRequestLog.originalParameters(.object([JSONMember(key: "q", value: .string("玩具车"))]), queryItems: []),
            #"{"q":"玩具车"}"#)
        XCTAssertEqual(
            CJRequestLog.originalParameters(
                .object([JSONMember(key: "n", value: .number("1"))]),
                queryItems: [
                    QueryItem(name: "code", value: "utf-8"), QueryItem(name: "t", value: "a"),
                    QueryItem(name: "t", value: "b"),
                ]),
            #"{"code":"utf-8","t":["a","b"],"n":1}"#)
    }

    func testFinalParameters() {
        XCTAssertEqual(CJRequestLog.finalParameters(bodyBytes: Array(#"{"q":"玩具车"}"#.utf8)), #"{"q":"玩具车"}"#)
        XCTAssertEqual(CJRequestLog.finalParameters(bodyBytes: nil), "未获取到，请以原始参数为准...")
        XCTAssertEqual(CJRequestLog.finalParameters(bodyBytes: []), "未获取到，请以原始参数为准...")
        XCTAssertEqual(CJRequestLog.finalParameters(bodyBytes: [0xFF, 0xFE]), "未获取到，请以原始参数为准...")
    }

    func testFailureTable() {
        let table: [(Int?, String)] = [
            (nil, "无法连接服务器"), (400, "语法错误"), (401, "未通过验证"), (403, "拒绝请求"), (404, "找不到请求的页面"),
            (500, "服务不可用(500 Internal Server Error)，服务器内部错误"), (501, "服务不可用(501)，服务器不具有请求功能"),
            (502, "服务不可用(502 Bad Gateway)，错误网关"),
            (503, "服务不可用(503 Service Unavailable)，可能是服务器正在维护或者暂停"),
            (504, "服务不可用(504 Gateway Time-out)，网关超时"), (418, "未知网络错误"), (302, "未知网络错误"),
        ]
        for (code, text) in table { XCTAssertEqual(CJRequestLog.failureText(statusCode: code), text) }
    }

    func testSuccessText() {
        XCTAssertEqual(
            CJRequestLog.successText(body: Array("{ \"a\" : [1, 2] }\n".utf8), truncated: false), #"{"a":[1,2]}"#)
        XCTAssertEqual(CJRequestLog.successText(body: Array("hello".utf8), truncated: false), "hello")
        XCTAssertEqual(CJRequestLog.successText(body: [], truncated: false), "(null)")
        XCTAssertEqual(CJRequestLog.successText(body: [0xFF, 0x00], truncated: false), "<2 bytes of binary data>")
    }
}
