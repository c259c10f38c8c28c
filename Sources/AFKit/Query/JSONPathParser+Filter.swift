/// The filter grammar of RFC 9535 §2.3.5 and the well-typedness rules of §2.4.3.
extension JSONPathParser {
    /// `logical-or-expr = logical-and-expr *(S "||" S logical-and-expr)`.
    mutating func parseLogicalOr() throws(JSONPathError) -> JSONPathLogical {
        let terms = try parseTerms(separatedBy: "||") { parser throws(JSONPathError) in try parser.parseLogicalAnd() }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    /// `logical-and-expr = basic-expr *(S "&&" S basic-expr)`.
    mutating func parseLogicalAnd() throws(JSONPathError) -> JSONPathLogical {
        let terms = try parseTerms(separatedBy: "&&") { parser throws(JSONPathError) in try parser.parseBasic() }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    /// One `term` or more, each after the first preceded by `S separator S`.
    private mutating func parseTerms(
        separatedBy separator: String, _ term: (inout JSONPathParser) throws(JSONPathError) -> JSONPathLogical
    ) throws(JSONPathError) -> [JSONPathLogical] {
        var terms = [try term(&self)]
        while true {
            let start = index
            skipBlanks()
            guard looksAt(separator) else {
                index = start
                return terms
            }
            index += separator.unicodeScalars.count
            skipBlanks()
            terms.append(try term(&self))
        }
    }

    /// A parenthesised expression, a comparison or a test, each possibly negated.
    mutating func parseBasic() throws(JSONPathError) -> JSONPathLogical {
        if peek == "!" {
            index += 1
            skipBlanks()
            let operand = try nested { (parser: inout JSONPathParser) throws(JSONPathError) in
                try parser.parseNegatable()
            }
            return .not(operand)
        }
        if peek == "(" { return try parseParenthesised() }
        let start = index
        let operand = try parseOperand()
        let afterOperand = index
        skipBlanks()
        if let comparison = parseComparisonOperator() {
            skipBlanks()
            let rightStart = index
            let right = try comparable(try parseOperand(), at: rightStart)
            return .comparison(try comparable(operand, at: start), comparison, right)
        }
        index = afterOperand
        return try test(operand, at: start)
    }

    /// What may follow `!`: a parenthesised expression or a test (not a comparison).
    mutating func parseNegatable() throws(JSONPathError) -> JSONPathLogical {
        if peek == "(" { return try parseParenthesised() }
        let start = index
        return try test(try parseOperand(), at: start)
    }

    /// `"(" S logical-expr S ")"`.
    mutating func parseParenthesised() throws(JSONPathError) -> JSONPathLogical {
        index += 1
        skipBlanks()
        let inner = try nested { (parser: inout JSONPathParser) throws(JSONPathError) in try parser.parseLogicalOr() }
        skipBlanks()
        guard peek == ")" else { throw failure("expected ')'") }
        index += 1
        return inner
    }

    /// A comparison operator at the current position, consumed; nil when there is none.
    mutating func parseComparisonOperator() -> JSONPathComparison? {
        for comparison in [JSONPathComparison.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater]
        where looksAt(comparison.rawValue) {
            index += comparison.rawValue.unicodeScalars.count
            return comparison
        }
        return nil
    }

    /// A literal, a query (`@…`, `$…`) or a function call, before its role is known.
    mutating func parseOperand() throws(JSONPathError) -> JSONPathArgument {
        guard let scalar = peek else { throw failure("expected a value, a query or a function") }
        switch scalar {
        case "@", "$":
            index += 1
            let segments = try nested { (parser: inout JSONPathParser) throws(JSONPathError) in try parser.parseSegments() }
            return .query(JSONPathFilterQuery(isAbsolute: scalar == "$", segments: segments))
        case "\"", "'":
            return .literal(.string(try parseStringLiteral()))
        case "-", "0"..."9":
            return .literal(try parseNumber())
        case "a"..."z":
            for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)]
            where looksAt(word) && !isFunctionNameCharacter(at: index + word.count) {
                index += word.count
                return .literal(value)
            }
            return .function(try parseFunctionCall())
        default:
            throw failure("expected a value, a query or a function")
        }
    }

    /// `number = (int / "-0") [ frac ] [ exp ]`, kept as written.
    mutating func parseNumber() throws(JSONPathError) -> JSONValue {
        let start = index
        if peek == "-" { index += 1 }
        guard let first = peek, ("0"..."9").contains(first) else { throw failure("expected a digit") }
        index += 1
        if first == "0", let next = peek, ("0"..."9").contains(next) {
            throw failure("leading zeros are not allowed", at: start)
        }
        skipDigits()
        if peek == "." {
            index += 1
            guard skipDigits() > 0 else { throw failure("expected a digit after '.'") }
        }
        if peek == "e" || peek == "E" {
            index += 1
            if peek == "+" || peek == "-" { index += 1 }
            guard skipDigits() > 0 else { throw failure("expected a digit in the exponent") }
        }
        var literal = String.UnicodeScalarView()
        literal.append(contentsOf: scalars[start..<index])
        return .number(String(literal))
    }

    /// Skips ASCII digits and returns how many there were.
    @discardableResult
    mutating func skipDigits() -> Int {
        let start = index
        while let scalar = peek, ("0"..."9").contains(scalar) { index += 1 }
        return index - start
    }

    /// `function-name "(" S [function-argument *(S "," S function-argument)] S ")"`, type-checked.
    mutating func parseFunctionCall() throws(JSONPathError) -> JSONPathFunctionCall {
        let start = index
        var name = ""
        while index < scalars.count, isFunctionNameCharacter(at: index) {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard let function = JSONPathFunction(rawValue: name) else {
            throw failure(name.isEmpty ? "expected a value, a query or a function" : "unknown function '\(name)'", at: start)
        }
        guard peek == "(" else { throw failure("expected '(' after \(name)") }
        index += 1
        return try nested { (parser: inout JSONPathParser) throws(JSONPathError) in
            var arguments: [JSONPathArgument] = []
            var argumentStarts: [Int] = []
            parser.skipBlanks()
            if parser.peek != ")" {
                while true {
                    let argumentStart = parser.index
                    argumentStarts.append(argumentStart)
                    let position = arguments.count
                    guard position < function.parameters.count else {
                        throw parser.failure("\(name)() takes \(function.parameters.count) argument(s)", at: argumentStart)
                    }
                    let argument = try parser.parseArgument()
                    arguments.append(try parser.checked(argument, as: function.parameters[position], at: argumentStart))
                    parser.skipBlanks()
                    guard parser.peek == "," else { break }
                    parser.index += 1
                    parser.skipBlanks()
                }
            }
            guard parser.peek == ")" else { throw parser.failure("expected ',' or ')'") }
            guard arguments.count == function.parameters.count else {
                throw parser.failure("\(name)() takes \(function.parameters.count) argument(s)", at: start)
            }
            parser.index += 1
            var call = JSONPathFunctionCall(function: function, arguments: arguments)
            if function == .match || function == .search, case .literal(.string(let pattern)) = arguments[1] {
                call.pattern = try parser.pattern(pattern, of: name, at: argumentStarts[1])
            }
            return call
        }
    }

    /// The compiled pattern literal of `match()` or `search()`: nil when it is not an I-Regexp
    /// (RFC 9535 makes the function false then), an error when it goes past the matcher's limits.
    func pattern(_ pattern: String, of name: String, at position: Int) throws(JSONPathError) -> IRegexp? {
        do {
            return try IRegexp(pattern)
        } catch where error.isLimit {
            throw failure("\(name)() pattern refused: \(error.reason)", at: position)
        } catch {
            return nil
        }
    }

    /// `function-argument = literal / filter-query / logical-expr / function-expr`: an operand,
    /// unless an operator follows it, which makes it a logical expression.
    mutating func parseArgument() throws(JSONPathError) -> JSONPathArgument {
        let start = index
        if peek != "!", peek != "(" {
            let operand = try parseOperand()
            let afterOperand = index
            skipBlanks()
            let continues = looksAt("&&") || looksAt("||") || parseComparisonOperator() != nil
            index = continues ? start : afterOperand
            if !continues { return operand }
        }
        return .logical(try parseLogicalOr())
    }

    /// `argument` if it may stand for a parameter of `type`, else an error.
    func checked(_ argument: JSONPathArgument, as type: JSONPathType, at position: Int) throws(JSONPathError)
        -> JSONPathArgument
    {
        switch (type, argument) {
        case (.value, .literal), (.logical, .logical), (.nodes, .query), (.logical, .query):
            break
        case (.value, .query(let query)):
            guard query.isSingular else { throw failure("a non-singular query is not a value", at: position) }
        case (.value, .function(let call)):
            guard call.function.result == .value else {
                throw failure("\(call.function.rawValue)() does not return a value", at: position)
            }
        case (.logical, .function(let call)):
            guard call.function.result != .value else {
                throw failure("\(call.function.rawValue)() returns a value, not a logical result", at: position)
            }
        case (.nodes, .function(let call)):
            guard call.function.result == .nodes else {
                throw failure("\(call.function.rawValue)() does not return nodes", at: position)
            }
        default:
            throw failure("argument of the wrong type (expected \(type == .nodes ? "a query" : type == .value ? "a value" : "a logical expression"))", at: position)
        }
        return argument
    }

    /// An operand used as a side of a comparison: a literal, a singular query or a value function.
    func comparable(_ operand: JSONPathArgument, at position: Int) throws(JSONPathError) -> JSONPathComparable {
        switch try checked(operand, as: .value, at: position) {
        case .literal(let value): return .literal(value)
        case .query(let query): return .query(query)
        case .function(let call): return .function(call)
        case .logical: throw failure("a logical expression cannot be compared", at: position)
        }
    }

    /// An operand used as a test: a query (existence) or a function returning LogicalType/NodesType.
    func test(_ operand: JSONPathArgument, at position: Int) throws(JSONPathError) -> JSONPathLogical {
        switch operand {
        case .query(let query): return .exists(query)
        case .function(let call) where call.function.result != .value: return .function(call)
        case .function(let call):
            throw failure("\(call.function.rawValue)() returns a value: compare it", at: position)
        case .literal: throw failure("a literal is not a test: compare it", at: position)
        case .logical(let logical): return logical
        }
    }

    /// `function-name-char = LCALPHA / "_" / DIGIT` at `position`.
    func isFunctionNameCharacter(at position: Int) -> Bool {
        guard position < scalars.count else { return false }
        let scalar = scalars[position]
        return ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }
}
