import AFKit
import XCTest

/// Builds a JSON object from members written in order.
func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
    .object(members.map { JSONMember(key: $0.key, value: $0.value) })
}

/// A JSON string value.
func str(_ text: String) -> JSONValue { .string(text) }

/// A JSON number value from its literal.
func num(_ literal: String) -> JSONValue { .number(literal) }

/// The UTF-8 bytes of `text`, for comparing bodies.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Asserts that `body` throws a `SerializationError` equal to `expected` and described as `description`.
func assertSerializationError<T>(
    _ body: @autoclosure () throws -> T, _ expected: SerializationError, description: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertThrowsError(try body(), file: file, line: line) { error in
        XCTAssertEqual(error as? SerializationError, expected, file: file, line: line)
        XCTAssertEqual("\(error)", description, file: file, line: line)
    }
}
