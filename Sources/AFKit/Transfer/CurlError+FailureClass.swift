import AFCurl

// AFCurl's errors reach AFCLI through AFKit (TransportVocabulary.swift names them), and AFCurl
// cannot see AFKit's `ClassifiedError`: their classes are stated here, next to nothing else.

extension CurlError: ClassifiedError {
    /// The outcome of a failed transfer, from its kind; a failure inside a response handler is the
    /// handler's own error's.
    package var failureClass: FailureClass {
        switch kind {
        case .timeout: return .timeout
        case .couldNotResolve, .couldNotConnect: return .connectionFailed
        case .tls: return isPinMismatch ? .pinMismatch : .tlsFailure
        case .interrupted: return .interrupted
        // libcurl refused the URL before connecting: bad input, nothing sent.
        case .badURL: return .badInput
        case .limitExceeded: return .limitExceeded
        // Bytes of the body already went out, so this is no longer bad input: a file that changed
        // size or failed mid-upload is an ordinary failure, whatever its error says.
        case .bodyReadFailed: return .failure
        case .responseHandlerFailed: return underlyingError.map { FailureClass.of(wrapped: $0) } ?? .failure
        case .sendFailed, .receiveFailed, .other: return .failure
        }
    }
}

extension IDNAError: ClassifiedError {
    /// A host name of the user's that IDNA cannot convert.
    package var failureClass: FailureClass { .badInput }
}
