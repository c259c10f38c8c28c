extension ManualText {
    /// Streaming responses: server-sent events and JSON lines as they arrive.
    static let streamingSections: [ManualSection] = [
        ManualSection(
            "STREAMING RESPONSES",
            [
                .paragraph(
                    "--jsonpath QUERY applies to the data of each server-sent event on its own, as it arrives: "
                        + "`--jsonpath '$.choices[0].delta.content'` prints a language model's tokens, one compact JSON "
                        + "value a line, as they come; an event whose data is not JSON ([DONE]) prints nothing."),
                .paragraph(
                    "A text/event-stream body (server-sent events) and a JSON-lines body (application/x-ndjson, "
                        + "application/jsonl, application/json-seq) are written as they arrive, never held back "
                        + "in a buffer: the output is flushed after every part of the body that is received, so "
                        + "a language model's answer or an event API shows each event as soon as the server sends "
                        + "it. `--stream` does the same for any other body."),
                .paragraph(
                    "On a terminal, or in a pipe with `--pretty`, each event is shown on its own, followed by a "
                        + "blank line: its `event:`, `id:` and `retry:` lines dimmed, then its data, formatted and "
                        + "coloured as JSON when it is one JSON value, else as text. The `data: [DONE]` that ends "
                        + "a language model's stream is shown dimmed as the end of the stream. Comments (`: ping`) "
                        + "are not shown. The stream is read as the HTML standard's EventSource reads it: a "
                        + "leading byte order mark is skipped, lines end in CR, LF or CRLF, `data:` lines are "
                        + "joined with line feeds, a blank line ends an event, and an event the stream's end cuts "
                        + "short is not shown (with a warning). A JSON-lines body is shown one formatted value at "
                        + "a time; application/json-seq's record separators are dropped."),
                .paragraph(
                    "Piped without `--pretty`, the body is written exactly as received. `--events=json` writes "
                        + "one compact JSON object per event instead, {\"event\":…,\"id\":…,\"data\":…} (event is "
                        + "\"message\" when the stream names none, id the last event ID or null, data the parsed "
                        + "value when it is JSON, else a string), and one compact JSON value per line for a "
                        + "JSON-lines body, each line flushed as it is complete, for jq: "
                        + "`afcli post --events=json URL prompt=hi | jq -r .data.text`."),
                .paragraph(
                    "Memory stays flat however long the stream runs: one event at a time is held, and an event "
                        + "keeps at most 8 MiB of data (an `event:`, `id:` or `retry:` value at most 4 KiB); the "
                        + "rest of a longer one is dropped and a warning counts the events cut short. Ctrl-C ends "
                        + "the stream at once with exit status 130."),
                .paragraph(
                    "`--reconnect` with `--retry N` connects a GET event stream again when it drops (the "
                        + "connection fails or is cut before the stream's end, or a stream without Content-Length "
                        + "or chunking, which only a close ends, is closed), up to N times, as EventSource "
                        + "does: the new request carries `Last-Event-ID` with the last event ID seen, and goes out "
                        + "after the stream's `retry:` time (else `--retry-delay`, else 3 seconds). The new "
                        + "connection's head is not shown again and its events go on where the output stopped, "
                        + "so no event is shown twice. The body goes on one whole event at a time (an event once its "
                        + "blank line has come; one longer than 8 MiB as it comes), so an event the drop cut off is "
                        + "dropped with the connection, as the HTML standard discards an event not ended by a blank "
                        + "line. A reconnection answered by anything but a 200 event stream ends the stream with "
                        + "the drop's error, and a stream whose framing marks its end (its last chunk, its "
                        + "Content-Length) is not reconnected. `-v` notes each reconnection."),
                .example(
                    "A language model's answer on a terminal, each event as it arrives (the event: and id: lines dimmed):",
                    "$ afcli post :8080/v1/chat stream:=true prompt=hi\n"
                        + "event: delta\n"
                        + "id: 1\n"
                        + "{\n"
                        + "    \"text\": \"Hel\"\n"
                        + "}\n"
                        + "\n"
                        + "[DONE] (end of stream)"),
                .example(
                    "The events as JSON lines for jq, and the tokens alone:",
                    "afcli post --events=json :8080/v1/chat prompt=hi | jq -r .data.text\n"
                        + "afcli post --jsonpath '$.choices[0].delta.content' \\\n"
                        + "    :8080/v1/chat stream:=true"),
                .example(
                    "Follow an event stream, connecting again (with Last-Event-ID) when it drops:",
                    "afcli get :8080/events --reconnect --retry 5"),
            ])
    ]
}
