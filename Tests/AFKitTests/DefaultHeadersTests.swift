import AFKit
import XCTest

/// Spec §3 default-header vectors: Accept-Language, User-Agent, basic authorization, base64.
final class DefaultHeadersTests: XCTestCase {
    func testSixLanguagesSpecVector() {
        XCTAssertEqual(
            DefaultHeaders.acceptLanguage(languages: ["en", "fr", "de", "zh-Hans", "zh-Hant", "ja"]),
            "en;q=1, fr;q=0.9, de;q=0.8, zh-Hans;q=0.7, zh-Hant;q=0.6, ja;q=0.5")
    }

    func testLanguageListFromEnvironmentStopsAtSix() {
        let environment = ["LANGUAGE": "en:fr:de:zh_Hans:zh_Hant:ja:it", "LANG": "ru_RU.UTF-8"]
        XCTAssertEqual(
            DefaultHeaders.acceptLanguage(environment: environment),
            "en;q=1, fr;q=0.9, de;q=0.8, zh-Hans;q=0.7, zh-Hant;q=0.6, ja;q=0.5")
    }

    func testLangWithCodeset() {
        XCTAssertEqual(DefaultHeaders.acceptLanguage(environment: ["LANG": "en_US.UTF-8"]), "en-US;q=1")
    }

    func testPrecedenceOfLocaleVariables() {
        let all = ["LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE", "LANG": "en_US.UTF-8"]
        XCTAssertEqual(DefaultHeaders.acceptLanguage(environment: all), "fr-FR;q=1")
        XCTAssertEqual(
            DefaultHeaders.acceptLanguage(environment: ["LC_MESSAGES": "de_DE", "LANG": "en_US"]), "de-DE;q=1")
        XCTAssertEqual(
            DefaultHeaders.acceptLanguage(environment: ["LANGUAGE": "pt_BR:pt", "LC_ALL": "fr_FR.UTF-8"]),
            "pt-BR;q=1, pt;q=0.9")
        XCTAssertEqual(DefaultHeaders.acceptLanguage(environment: ["LC_ALL": "", "LANG": "it_IT"]), "it-IT;q=1")
    }

    func testModifiersDuplicatesAndUnusableEntries() {
        XCTAssertEqual(DefaultHeaders.languageTag(fromLocale: "sr_RS.UTF-8@latin"), "sr-RS")
        XCTAssertEqual(DefaultHeaders.languageTag(fromLocale: "de_DE@euro"), "de-DE")
        XCTAssertNil(DefaultHeaders.languageTag(fromLocale: "C.UTF-8"))
        XCTAssertNil(DefaultHeaders.languageTag(fromLocale: "POSIX"))
        XCTAssertNil(DefaultHeaders.languageTag(fromLocale: "en US"))
        XCTAssertEqual(
            DefaultHeaders.acceptLanguage(environment: ["LANGUAGE": "en_US:en_US.UTF-8::C:fr"]), "en-US;q=1, fr;q=0.9")
    }

    func testFallbackIsEnglish() {
        XCTAssertEqual(DefaultHeaders.acceptLanguage(environment: [:]), "en;q=1")
        XCTAssertEqual(DefaultHeaders.acceptLanguage(environment: ["LANG": "C"]), "en;q=1")
        XCTAssertEqual(
            DefaultHeaders.acceptLanguage(environment: ["LANGUAGE": "C", "LANG": "de_DE.UTF-8"]), "de-DE;q=1")
    }

    func testUserAgent() {
        XCTAssertEqual(AFKitVersion.current, "0.1.0")
        XCTAssertEqual(DefaultHeaders.userAgent, "afcli/0.1.0")
    }

    func testBasicAuthorizationSpecVector() {
        XCTAssertEqual(
            DefaultHeaders.basicAuthorization(user: "user", password: "password"), "Basic dXNlcjpwYXNzd29yZA==")
    }

    func testBearerAuthorization() {
        XCTAssertEqual(DefaultHeaders.bearerAuthorization(token: "abc.def"), "Bearer abc.def")
    }

    func testBase64RFC4648Vectors() {
        XCTAssertEqual(Base64.encode(""), "")
        XCTAssertEqual(Base64.encode("f"), "Zg==")
        XCTAssertEqual(Base64.encode("fo"), "Zm8=")
        XCTAssertEqual(Base64.encode("foo"), "Zm9v")
        XCTAssertEqual(Base64.encode("foob"), "Zm9vYg==")
        XCTAssertEqual(Base64.encode("fooba"), "Zm9vYmE=")
        XCTAssertEqual(Base64.encode("foobar"), "Zm9vYmFy")
        XCTAssertEqual(Base64.encode([0xFB, 0xFF, 0xBF] as [UInt8]), "+/+/")
        XCTAssertEqual(Base64.encode("ü:ö"), "w7w6w7Y=")
    }
}
