import AFKit
import Foundation
import XCTest

/// Reading config.json: every environment field, errors with file, line and column, unknown keys,
/// limits, the lookup order and the secrets check.
final class ConfigFileTests: TemporaryDirectoryTestCase {
    private func decode(_ text: String) throws -> ConfigFile {
        try ConfigFileDecoder.decode(Array(text.utf8), path: "/c/config.json")
    }

    private func error(_ text: String) -> String {
        do {
            _ = try decode(text)
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    func testDecodesEveryEnvironmentField() throws {
        let file = try decode(
            """
            {"default_options": ["--follow", "--timeout", "5"],
             "environments": {
               "dev": {"base_url": "http://h/api/", "params": {"v": "1", "n": 2, "o": {"a": [true, null]}},
                       "headers": {"X-Client": "afcli"},
                       "envelope": {"status": "code", "message": "msg", "result": "data", "success": ["0", 1],
                                    "common_failure": 5},
                       "encrypt": "enc", "decrypt": "dec", "simulate_domain": "http://s/", "local_dir": "/m",
                       "cache": "cache-first", "cache_namespace": "1200"},
               "prod": {}}}
            """)
        XCTAssertEqual(file.defaultOptions, ["--follow", "--timeout", "5"])
        XCTAssertEqual(file.environments.map(\.name), ["dev", "prod"])
        let dev = try XCTUnwrap(file.environment(named: "dev"))
        XCTAssertEqual(dev.baseURL, "http://h/api/")
        XCTAssertEqual(
            dev.parameters,
            [
                CommonParameter(name: "v", value: .text("1")), CommonParameter(name: "n", value: .json("2")),
                CommonParameter(name: "o", value: .json(#"{"a":[true,null]}"#)),
            ])
        XCTAssertEqual(dev.headers, [HTTPField(name: "X-Client", value: "afcli")])
        var envelope = EnvelopeSpec()
        envelope.statusKey = "code"
        envelope.messageKey = "msg"
        envelope.resultKey = "data"
        envelope.success = ["0", "1"]
        envelope.commonFailure = ["5"]
        XCTAssertEqual(dev.envelope, envelope)
        XCTAssertEqual(dev.encryptCommand, "enc")
        XCTAssertEqual(dev.decryptCommand, "dec")
        XCTAssertEqual(dev.simulateDomain, "http://s/")
        XCTAssertEqual(dev.localDirectory, "/m")
        XCTAssertEqual(dev.cachePolicy, "cache-first")
        XCTAssertEqual(dev.cacheNamespace, "1200")
        XCTAssertEqual(file.environment(named: "prod"), EnvironmentProfile(name: "prod"))
        XCTAssertTrue(file.unknownKeys.isEmpty)
    }

    func testEnvelopeKeysDefault() throws {
        let envelope = try XCTUnwrap(decode(#"{"environments": {"e": {"envelope": {}}}}"#).environments[0].envelope)
        XCTAssertEqual([envelope.statusKey, envelope.messageKey, envelope.resultKey], ["status", "message", "result"])
    }

    func testSyntaxErrorsNameFileLineAndColumn() {
        XCTAssertEqual(
            error("{\n  \"environments\": {\n    \"dev\": {\"base_url\": \"x\",}\n}}"),
            "/c/config.json:3:29: the config file is not valid JSON: expected a string key")
        XCTAssertEqual(error(""), "/c/config.json:1:1: the config file is not valid JSON: expected a value")
        // Columns count characters, not bytes.
        XCTAssertEqual(
            error("{\"é\": ?}"), "/c/config.json:1:7: the config file is not valid JSON: expected a value")
    }

    func testWrongKindsNameTheKey() {
        XCTAssertEqual(error("[]"), "/c/config.json: the top level must be an object")
        XCTAssertEqual(
            error(#"{"default_options": "--follow"}"#), "/c/config.json: default_options must be a list of strings")
        XCTAssertEqual(error(#"{"environments": []}"#), "/c/config.json: environments must be an object")
        XCTAssertEqual(
            error(#"{"environments": {"d": {"base_url": 1}}}"#),
            "/c/config.json: environments.d.base_url must be a string")
        XCTAssertEqual(
            error(#"{"environments": {"d": {"headers": {"X": 1}}}}"#),
            "/c/config.json: environments.d.headers.X must be a string")
        XCTAssertEqual(
            error(#"{"environments": {"d": {"headers": {"X Y": "1"}}}}"#),
            "/c/config.json: environments.d.headers.X Y is not a header name (letters, digits and !#$%&'*+-.^_`|~)")
        XCTAssertEqual(
            error(#"{"environments": {"d": {"headers": {"X": "a\r\nB: c"}}}}"#),
            "/c/config.json: environments.d.headers.X contains a line break or NUL")
        XCTAssertEqual(
            error(#"{"environments": {"d": {"envelope": {"success": [true]}}}}"#),
            "/c/config.json: environments.d.envelope.success must hold strings or numbers")
        XCTAssertEqual(
            error(#"{"environments": {"": {}}}"#), "/c/config.json: environments. is an environment without a name")
    }

    func testUnknownKeysAreCollected() throws {
        let file = try decode(#"{"colour": 1, "environments": {"d": {"basse_url": "x", "envelope": {"state": "s"}}}}"#)
        XCTAssertEqual(file.unknownKeys, ["colour", "environments.d.basse_url", "environments.d.envelope.state"])
    }

    func testLookupOrder() throws {
        XCTAssertEqual(
            ConfigLoader.path(["AFCLI_CONFIG_DIR": "/a", "XDG_CONFIG_HOME": "/x", "HOME": "/h"]), "/a/config.json")
        XCTAssertEqual(ConfigLoader.path(["XDG_CONFIG_HOME": "/x", "HOME": "/h"]), "/x/afcli/config.json")
        XCTAssertEqual(ConfigLoader.path(["AFCLI_CONFIG_DIR": "", "HOME": "/h"]), "/h/.config/afcli/config.json")
        // A relative XDG_CONFIG_HOME is ignored (XDG spec); HOME unset or relative is the password
        // database's home, never the working directory.
        XCTAssertEqual(ConfigLoader.path(["XDG_CONFIG_HOME": ".config", "HOME": "/h"]), "/h/.config/afcli/config.json")
        let account = String(cString: try XCTUnwrap(getpwuid(geteuid())?.pointee.pw_dir))
        for environment in [[:], ["HOME": ""], ["HOME": "."], ["HOME": "rel"], ["XDG_CONFIG_HOME": "x"]] {
            XCTAssertEqual(ConfigLoader.path(environment), account + "/.config/afcli/config.json", "\(environment)")
        }
    }

    func testMissingFileIsNoConfig() throws {
        XCTAssertNil(try ConfigLoader.load(path: directory.path + "/none/config.json"))
    }

    func testLocalDirectoryIsRelativeToTheConfigFile() throws {
        let path = try makeFile(
            "config.json",
            Array(
                #"{"environments": {"a": {"local_dir": "./mocks"}, "b": {"local_dir": "~/m"}, "c": {"local_dir": "/abs"}}}"#
                    .utf8))
        let file = try XCTUnwrap(ConfigLoader.load(path: path, environment: ["HOME": "/home/u"])).file
        XCTAssertEqual(file.environments.map(\.localDirectory), [directory.path + "/mocks", "/home/u/m", "/abs"])
    }

    func testTooLargeAndNotRegular() throws {
        let big = try makeFile("config.json", [UInt8](repeating: 0x20, count: ConfigLoader.maximumBytes + 1))
        XCTAssertThrowsError(try ConfigLoader.load(path: big)) {
            XCTAssertEqual(($0 as? ConfigError)?.description, "the config file \(big) is larger than 1024 KiB")
        }
        XCTAssertThrowsError(try ConfigLoader.load(path: directory.path)) {
            XCTAssertEqual(
                ($0 as? ConfigError)?.description,
                "cannot read the config file \(self.directory.path): it is not a regular file")
        }
    }

    func testSecretsReadableByOthersAreFlagged() throws {
        let secret = #"{"environments": {"d": {"headers": {"Authorization": "Bearer x"}}}}"#
        let path = try makeFile("config.json", Array(secret.utf8))
        chmod(path, 0o644)
        XCTAssertEqual(try ConfigLoader.load(path: path)?.exposesSecrets, true)
        chmod(path, 0o600)
        XCTAssertEqual(try ConfigLoader.load(path: path)?.exposesSecrets, false)
        let plain = try makeFile("plain.json", Array(#"{"environments": {"d": {"headers": {"X-Client": "a"}}}}"#.utf8))
        chmod(plain, 0o644)
        XCTAssertEqual(try ConfigLoader.load(path: plain)?.exposesSecrets, false)
        let command = try makeFile(
            "command.json", Array(#"{"environments": {"d": {"decrypt": "openssl enc -d"}}}"#.utf8))
        chmod(command, 0o640)
        XCTAssertEqual(try ConfigLoader.load(path: command)?.exposesSecrets, true)
    }

    func testRedaction() {
        XCTAssertTrue(SecretRedaction.isSecretHeader(name: "authorization", value: "x"))
        XCTAssertTrue(SecretRedaction.isSecretHeader(name: "X-Api-Key", value: "x"))
        XCTAssertTrue(SecretRedaction.isSecretHeader(name: "X-Thing", value: "Bearer abc"))
        XCTAssertTrue(SecretRedaction.isSecretHeader(name: "X-Thing", value: "eyJhbGciOiJIUzI1NiJ9.abc123"))
        XCTAssertFalse(SecretRedaction.isSecretHeader(name: "X-Client", value: "afcli"))
        XCTAssertFalse(SecretRedaction.isSecretHeader(name: "Accept", value: "application/json; charset=utf-8"))
        XCTAssertEqual(
            SecretRedaction.command("openssl enc -aes-256-cbc -pass pass:hunter2 -base64"),
            "openssl enc -aes-256-cbc -pass pass:<redacted> -base64")
        XCTAssertEqual(SecretRedaction.command("openssl enc -pass env:KEY"), "openssl enc -pass env:KEY")
        XCTAssertEqual(SecretRedaction.command("openssl enc -K 00ff -iv 01"), "openssl enc -K <redacted> -iv 01")
        XCTAssertEqual(SecretRedaction.command("tool --password=s3cret x"), "tool --password=<redacted> x")
    }
}
