import Foundation
import Glibc
import XCTest

@testable import AFCLI
@testable import AFKit

/// Every error afcli can throw, case by case, against the documented exit statuses (the man
/// page's EXIT STATUS, `ExitStatus`). The expected codes are written out here, not computed:
///
///   1 any other error (I/O, protocol, a failed --decrypt-cmd)   2 usage error or bad input
///   3/4/5 a final 3xx/4xx/5xx                                    6 a redirect not followed
///   7 timeout   8 resolve/connect   9 TLS   10 pin mismatch      11 response rejected
///   12 limit exceeded   13/14 envelope verdicts (not errors)     15 cache miss   130 interrupted
final class ErrorClassificationTests: XCTestCase {
    /// One error of each case of each error type, with the status the table gives it.
    private static let cases: [(error: any ClassifiedError, status: Int32)] = [
        // AFCLI
        (UsageError.unknownOption("--x", suggestion: nil), 2),
        (UsageError.missingValue(option: "--timeout", valueName: "SECONDS"), 2),
        (UsageError.invalidValue(option: "--timeout", value: "x", reason: "is not a number"), 2),
        (UsageError.unexpectedValue(option: "--follow"), 2),
        (UsageError.refusedFlag(option: "--http3", reason: "no"), 2),
        (UsageError.missingShell, 2),
        (UsageError.unknownShell("tcsh"), 2),
        (UsageError.unexpectedArgument(command: "version", argument: "x"), 2),
        (UsageError.missingURL, 2),
        (UsageError.missingSource, 2),
        (UsageError.unknownMethod("fetch"), 2),
        (UsageError.notForCommand(option: "--offline", command: "pin", reason: "r"), 2),
        (OptionValueError("is not a number"), 2),
        (OutputStream.WriteError(target: "standard output", code: EPIPE), 1),
        (CacheUsageError(description: "x"), 2),
        (DownloadUsageError.resumeToStandardOutput, 2),
        (DownloadUsageError.oneOutputForSeveralURLs(2), 2),
        (DownloadUsageError.oneDigestForSeveralURLs(2), 2),
        (EnvironmentUsageError.envUsage("x"), 2),
        (EnvironmentUsageError.configUsage("x"), 2),
        (EnvironmentUsageError.noConfigToShow("/c", skipped: false), 2),
        (EnvironmentUsageError.simulateWithLocal, 2),
        (EnvironmentUsageError.simulateAbsolute("http://h/"), 2),
        (EnvironmentUsageError.localNeedsDirectory(environment: nil), 2),
        (EnvironmentUsageError.localWithStore("--session"), 2),
        (LocatedError(origin: "stdin:1", underlying: UsageError.missingURL), 2),
        (LocatedError(origin: "stdin:1", underlying: LineReaderError.interrupted), 130),
        (LocatedError(origin: "a.http:3", underlying: CurlError(kind: .timeout, description: "t")), 7),
        (BatchError.unreadableFile(path: "a.http", reason: "r"), 2),
        (BatchError.runOption("--parallel"), 2),
        (BatchError.notARequest("help"), 2),
        (BatchError.standardInputBody, 2),
        (BatchError.danglingDirective("# @name a"), 2),
        (BatchError.missingName, 2),
        (BatchError.tooManyRequests(limit: 10), 2),
        (BatchError.terminalInput(source: "-"), 2),
        (BatchFileError.cannotWrite(path: "d/a.body", code: ENOSPC), 1),
        (BatchFileError.badDirectory(path: "f", reason: "not a directory"), 2),
        (ItemError.noSeparator(argument: "x"), 2),
        (ItemError.keySyntax(key: "a[", column: 2, reason: "r"), 2),
        (ItemError.typeClash(key: "a", columns: 0..<1, reason: "r"), 2),
        (ItemError.invalidJSON(item: "a:=x", column: 3, reason: "r"), 2),
        (ItemError.invalidHeader(item: "a b:c", reason: "r"), 2),
        (ItemError.emptyHeaderWithValue(item: "a;b"), 2),
        (ItemError.unreadableFile(item: "@f", path: "f", reason: "r"), 2),
        (ItemError.notText(item: "a=@f", path: "f"), 2),
        (ItemError.interrupted, 130),
        (ItemError.invalidFileOption(item: "@f;type=", reason: "r"), 2),
        (ItemError.conflictingBodies("r"), 2),
        (FileReadFailure(errno: ENOENT), 2),
        (FileReadFailure(errno: EINTR), 130),
        (LogFileError(path: "log", code: EACCES), 2),

        // AFKit
        (SecurityPolicyError.domainValidationNeedsPinning, 2),
        (SecurityPolicyError.pinningOverPlainHTTP(url: "http://h/"), 2),
        (SecurityPolicyError.mixedPinningModes, 2),
        (SecurityPolicyError.pinnedCertificatesWithTrustStore, 2),
        (SecurityPolicyError.clientKeyWithoutCertificate, 2),
        (SecurityPolicyError.malformedPublicKeyPin("x"), 2),
        (SecurityPolicyError.unreadableCertificateFile(path: "c", reason: "r"), 2),
        (SecurityPolicyError.notACertificate(path: "c"), 2),
        (SecurityPolicyError.missingTrustStore(path: "c"), 2),
        (ReachabilityError.invalidTarget("x", reason: "r"), 2),
        (ReachabilityError.probeNeedsHost, 2),
        (ReachabilityEvaluator.ResolutionError(reason: "r"), 1),
        (RouteLookup.Failure(reason: "r"), 1),
        (PropertyListError("r"), 1),
        (SessionError.malformed(path: "s", line: 1, column: 1, reason: "r"), 2),
        (SessionError.invalid(path: "s", reason: "r"), 2),
        (SessionError.unreadable(path: "s", reason: "r"), 2),
        (SessionError.cannotWrite(path: "s", reason: "r"), 1),
        (SessionError.invalidName(".."), 2),
        (SessionError.unusableCookieJar(path: "j", problem: .symbolicLink), 2),
        (SessionError.noConfigDirectory("s"), 2),
        (RequestCompressionError.unavailable, 1),
        (RequestCompressionError.zlibFailed, 1),
        (CacheError.unsafeDirectory(path: "c", reason: "r"), 1),
        (CacheError.cannotOpen(path: "c", code: EACCES), 1),
        (CacheError.database(path: "c", underlying: SQLiteError(operation: "open", code: 1, message: "m")), 1),
        (CacheError.unknownVersion(path: "c", version: 99), 1),
        (CacheError.cannotWrite(path: "c", code: ENOSPC), 1),
        (SQLiteError(operation: "exec", code: 11, message: "m"), 1),
        (CacheMissError(method: "GET", url: "http://h/"), 15),
        (WriteOutError.tooLong(limit: 1), 2),
        (DownloadStateProblem.unsafe(.symbolicLink), 1),
        (DownloadStateProblem.unreadable(EACCES), 1),
        (DownloadStateProblem.notAState, 1),
        (DownloadStateProblem.damaged("r"), 1),
        (DownloadStateProblem.belongsToAnotherFile, 1),
        (DownloadStateProblem.namesNoPartialFile, 1),
        (DownloadStateProblem.otherURL("http://h/"), 1),
        (ExistingDownload(path: "f"), 1),
        (DownloadError.httpStatus(code: 301, reason: ""), 3),
        (DownloadError.httpStatus(code: 404, reason: ""), 4),
        (DownloadError.httpStatus(code: 503, reason: ""), 5),
        (DownloadError.httpStatus(code: 101, reason: ""), 1),
        (DownloadError.unexpectedContentRange(value: nil, offset: 1, path: "f"), 1),
        (DownloadError.unsolicitedPartialContent, 1),
        (DownloadError.incomplete(received: 1, expected: 2, path: nil, detail: ""), 1),
        (DownloadError.checksumMismatch(expected: "a", actual: "b", path: "f", removed: true), 1),
        (DownloadError.checksumUnavailable(path: "f"), 1),
        (DownloadError.outputIsDirectory(path: "d"), 2),
        (DownloadError.directoryNotWritable(path: ".", code: EACCES), 1),
        (DownloadError.cannotOpen(path: "f", code: EACCES), 1),
        (DownloadError.cannotWrite(path: "f", code: ENOSPC), 1),
        (DownloadError.cannotRead(path: "f", code: EIO), 1),
        (DownloadError.cannotRename(from: "a", to: "b", code: EXDEV), 1),
        (DownloadError.busy(path: "f"), 1),
        (DownloadError.noFreeName("f"), 1),
        (DownloadError.cannotRestartStream(written: 1), 1),
        (DownloadError.cannotResumeStream(target: "/dev/null"), 2),
        (DownloadError.unsafeFile(path: "f", problem: .foreignOwner), 1),
        (DownloadError.totalChanged(expected: 1, now: 2, path: "f"), 1),
        (DownloadError.interrupted(signal: SIGINT, saved: 1, path: "f.part"), 130),
        (ConfigError.unreadable(file: "c", reason: "r"), 2),
        (ConfigError.tooLarge(file: "c", limit: 1), 2),
        (ConfigError.syntax(file: "c", line: 1, column: 1, reason: "r"), 2),
        (ConfigError.invalidValue(file: "c", path: "p", reason: "r"), 2),
        (ConfigError.invalidDefaultOption(file: "c", reason: "r"), 2),
        (ConfigError.unknownEnvironment(name: "e", file: "c", known: []), 2),
        (ConfigError.noConfig(name: "e", file: "c", skipped: true), 2),
        (SystemError(code: EIO), 1),
        (SystemError(code: EINTR), 130),
        (SmallFile.ReadError(reason: "r"), 2),
        (SmallFile.ReadError(reason: "interrupted system call", isInterrupt: true), 130),
        (CommandLineSplitError.unterminatedQuote("'", column: 1), 2),
        (CommandLineSplitError.trailingBackslash(column: 1), 2),
        (LineReaderError.lineTooLong(line: 1, limit: 1), 2),
        (LineReaderError.notUTF8(line: 1), 2),
        (LineReaderError.unreadable(reason: "r"), 2),
        (LineReaderError.interrupted, 130),
        (HTTPClientEnvironmentError.noFiles(environment: "e"), 2),
        (HTTPClientEnvironmentError.unknownEnvironment("e", known: []), 2),
        (HTTPClientEnvironmentError.malformed(file: "f", line: 1, reason: "r"), 2),
        (HTTPFileError(line: 1, reason: "r"), 2),
        (HTTPFileError.interrupted(line: 1), 130),
        (ResponseValidationError.unacceptableStatusCode(200, underlying: []), 11),
        (ResponseValidationError.unacceptableStatusCode(101, underlying: []), 11),
        (ResponseValidationError.unacceptableStatusCode(302, underlying: []), 3),
        (ResponseValidationError.unacceptableStatusCode(404, underlying: [.unacceptableContentType(nil)]), 4),
        (ResponseValidationError.unacceptableStatusCode(500, underlying: []), 5),
        (ResponseValidationError.unacceptableContentType("text/html"), 11),
        (LocalAnswerError.refusedPath(".."), 2),
        (LocalAnswerError.directory("d", SystemError(code: ENOENT)), 2),
        (LocalAnswerError.link("f"), 2),
        (LocalAnswerError.notRegular("f"), 2),
        (LocalAnswerError.unreadable("f", SystemError(code: EACCES)), 2),
        (HTTPClientError.tooManyRedirects(30), 6),
        (HTTPClientError.refusedRedirect(target: "file:///etc/passwd"), 6),
        (HTTPClientError.cannotResendBody(status: 307, underlying: SerializationError.notRewindable(path: "-")), 1),
        (RetryError.cannotResendBody(reason: "HTTP 503", underlying: SerializationError.notRewindable(path: "f")), 1),
        (SerializationError.invalidURL("x", reason: "r"), 2),
        (SerializationError.invalidHeader(name: "x", reason: "r"), 2),
        (SerializationError.framingHeader(name: "Host", reason: "r"), 2),
        (SerializationError.invalidJSONNumber("01"), 2),
        (SerializationError.propertyListNull(keyPath: "a"), 2),
        (SerializationError.conflictingBody, 2),
        (SerializationError.invalidBoundary("b", reason: "r"), 2),
        (SerializationError.invalidPartName("n", field: nil, reason: "r"), 2),
        (SerializationError.invalidPartContentType("t", field: "f"), 2),
        (SerializationError.filesNeedMultipart(encoding: "JSON"), 2),
        (SerializationError.filesNeedBodyMethod(method: "GET"), 2),
        (SerializationError.standardInputUsedTwice, 2),
        (SerializationError.unreadable(path: "f", reason: "r"), 2),
        (SerializationError.fileChangedSize(path: "f"), 2),
        (SerializationError.notRewindable(path: "-"), 2),
        (JSONParseError(offset: 0, reason: "r"), 2),
        (PipedCommandError(role: "encrypt", reason: "failed with exit status 1"), 2),
        (PipedCommandError(role: "auth", reason: "failed with exit status 1"), 2),
        (AuthStageError.badSigV4Scope("x", reason: "r"), 2),
        (AuthStageError.missingAWSKeys, 2),
        (AuthStageError.bodyNotReplayable(option: "--aws-sigv4"), 2),
        (AuthStageError.badHeaderLine(line: 1, text: "x"), 2),
        (AuthStageError.tooMuchOutput(limit: 1), 2),
        (AuthStageError.schemeUnsupported("ntlm"), 2),
        (AuthStageError.noKerberosTicket(cache: "/tmp/krb5cc_0"), 2),
        (OAuth2Error.missingTokenURL, 2),
        (OAuth2Error.missingClient, 2),
        (OAuth2Error.notForDownloads, 2),
        (OAuth2Error.refused(url: "u", status: 401, error: "invalid_client"), 1),
        (OAuth2Error.badResponse(url: "u", reason: "no access_token"), 1),
        (PipedCommandError(role: "decrypt", reason: "failed with exit status 1"), 1),
        (TemporaryFileError(directory: "/tmp", error: SystemError(code: ENOSPC)), 1),
        (EnvelopeError.tooLarge(limit: 1 << 20), 12),
        (EnvelopeError.notJSON(reason: "r"), 11),
        (EnvelopeError.notAnObject, 11),
        (EnvelopeError.missingStatus(key: "code"), 11),

        // AFCurl, classified in AFKit
        (CurlError(kind: .timeout, description: "t"), 7),
        (CurlError(kind: .badURL, description: "u"), 2),
        (CurlError.limitExceeded(.bodySize(limit: 10)), 12),
        (CurlError.limitExceeded(.headerCount(limit: 1000)), 12),
        (CurlError(kind: .couldNotResolve, description: "r"), 8),
        (CurlError(kind: .couldNotConnect, description: "c"), 8),
        (CurlError(kind: .tls, description: "t", tlsFailure: TLSFailure(reason: .untrustedCertificate, host: "h")), 9),
        (CurlError(kind: .tls, description: "t", tlsFailure: TLSFailure(reason: .pinMismatch, host: "h")), 10),
        (CurlError(kind: .tls, description: "t"), 9),
        (CurlError.interrupted(signal: SIGINT), 130),
        // Bytes of the body already went out: a failure, whatever the body source's error was.
        (CurlError.bodyReadFailed(SerializationError.fileChangedSize(path: "f")), 1),
        (CurlError(kind: .bodyReadFailed, description: "b"), 1),
        // A response handler's error is reported as itself.
        (CurlError.responseHandlerFailed(EnvelopeError.notAnObject), 11),
        (CurlError.responseHandlerFailed(OutputStream.WriteError(target: "standard output", code: EPIPE)), 1),
        (CurlError.responseHandlerFailed(DownloadError.interrupted(signal: SIGINT, saved: 1, path: "f")), 130),
        (CurlError(kind: .responseHandlerFailed, description: "h"), 1),
        (CurlError(kind: .sendFailed, description: "s"), 1),
        (CurlError(kind: .receiveFailed, description: "r"), 1),
        (CurlError(kind: .other, description: "o"), 1),
        (IDNAError(reason: "r"), 2),
        (JSONPathError(position: 0, reason: "r"), 2),
        (ResponseAssertionError(reason: "r"), 2),
        (RequestReferenceError("{{login.response.body.$.t}}: request login has no response"), 2),
        (ResponseAssertionError(reason: "r", needsJavaScript: true), 2),
        (ResponseCheck.Unreadable(reason: "the body is not JSON"), 11),
        (RunReportError(path: "r.xml", reason: "r", beforeSending: true), 2),
        (RunReportError(path: "r.xml", reason: "r", beforeSending: false), 1),
        (IRegexpError(position: 0, reason: "r"), 2),
        (IRegexpError(position: 0, reason: "r", isLimit: true), 2),
        (IRegexpStop.budgetSpent, 12),
        (IRegexpStop.interrupted, 130),
        (JSONPathLimitError(description: "d"), 12),
        (JSONPathLimitError(description: "interrupted", isInterrupt: true), 130),
        (JSONPathBodyError("d", failureClass: .responseRejected), 11),
        (JSONPathBodyError("d", failureClass: .limitExceeded), 12),
        (XPathError("d"), 2),
    ]

    func testEveryCaseExitsWithTheDocumentedStatus() {
        let documented = Set(ExitStatus.allCases.map(\.rawValue))
        for (error, status) in Self.cases {
            XCTAssertTrue(documented.contains(status), "\(status) is not in the documented table")
            XCTAssertEqual(ErrorReporter.classify(error).0.rawValue, status, "\(type(of: error)): \(error)")
        }
    }

    func testEveryCurlErrorKindIsCovered() {
        let kinds = Set(Self.cases.compactMap { ($0.error as? CurlError)?.kind })
        XCTAssertEqual(kinds, Set(CurlError.Kind.allCases))
    }

    /// Every error type declared in the sources is in the table above, so each states its class
    /// (the table's element type requires it) and has its statuses checked: a new error type
    /// that does not conform fails here instead of exiting with an unexplained 1.
    func testEveryErrorTypeInTheSourcesIsClassifiedAndListed() throws {
        let listed = Set(Self.cases.map { String(describing: type(of: $0.error)) })
        let declared = try Self.declaredErrorTypes()
        XCTAssertGreaterThan(declared.count, 40, "the scan of the sources found too few error types")
        XCTAssertEqual(declared.subtracting(listed), [], "error types without a case in this test")
        XCTAssertEqual(listed.subtracting(declared), [], "listed types the scan did not find")
    }

    func testWrappersKeepTheWrappedErrorsWords() {
        let located = LocatedError(
            origin: "stdin:2", underlying: ItemError.keySyntax(key: "a[b", column: 1, reason: "unclosed"))
        XCTAssertEqual(ErrorReporter.classify(located).1, "stdin:2: invalid nested key \"a[b\": unclosed")
        XCTAssertEqual(ErrorReporter.classify(located).2, "  a[b\n   ^")
        let upload = CurlError.bodyReadFailed(SerializationError.fileChangedSize(path: "f"))
        XCTAssertEqual(ErrorReporter.classify(upload).1, "\"f\" changed size while it was being sent")
        let limit = CurlError.limitExceeded(.bodySize(limit: 10))
        XCTAssertEqual(ErrorReporter.classify(limit).1, "response body exceeds --max-filesize 10")
        XCTAssertEqual(ErrorReporter.classify(CurlError.interrupted(signal: SIGTERM)).1, "interrupted")
        let decrypt = PipedCommandError(role: "decrypt", reason: "failed", standardError: "bad key\n")
        XCTAssertEqual(ErrorReporter.classify(decrypt).2, "bad key")
        XCTAssertEqual(
            ErrorReporter.classify(SecurityPolicyError.clientKeyWithoutCertificate).1, "--cert-key needs --cert")
    }

    /// The names of the types declared as errors (`: Error` or `: ClassifiedError`) in AFCurl,
    /// AFKit and AFCLI.
    private static func declaredErrorTypes() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let declaration = try NSRegularExpression(
            pattern: #"^\s*(?:\w+\s+)*(?:struct|enum|class)\s+(\w+)\s*:[^{]*\b(?:Classified)?Error\b"#,
            options: .anchorsMatchLines)
        var names: Set<String> = []
        for module in ["AFCurl", "AFKit", "AFCLI"] {
            let directory = root.appendingPathComponent(module)
            guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                let range = NSRange(text.startIndex..., in: text)
                for match in declaration.matches(in: text, range: range) {
                    guard let name = Range(match.range(at: 1), in: text) else { continue }
                    names.insert(String(text[name]))
                }
            }
        }
        return names
    }
}
