import Benchmark
import Foundation
import ScenarioHost
import Services

/// Issue 29: server-sent events delivered by a scenario's stream to the Assistant Model in process, beside the same
/// bytes through a plain AsyncStream to a reader doing the same work (parse, decode, append).
func streamBenchmarks() {
    // Each event due 1ms after the last: one clock move of 1s wakes the reader for every one of them.
    Benchmark("stream: 1,000 SSE events at offsets, to the Assistant on one clock move", configuration: .perOperation) { benchmark, host in
        await streamedReply(host, benchmark, scenario: "bench-stream-timed", move: .seconds(2))
    } setup: {
        try BenchmarkInputs.host(extra: ["bench-stream-timed": StreamBenchmarkInputs.scenario(spaced: true)])
    }

    // Every event due as the stream opens: the reader takes them all within the action.
    Benchmark("stream: 1,000 SSE events due at once, to the Assistant", configuration: .perOperation) { benchmark, host in
        await streamedReply(host, benchmark, scenario: "bench-stream-burst", move: nil)
    } setup: {
        try BenchmarkInputs.host(extra: ["bench-stream-burst": StreamBenchmarkInputs.scenario(spaced: false)])
    }

    Benchmark("stream baseline: the same 1,000 events through an AsyncStream", configuration: .perOperation) { benchmark in
        let (chunks, continuation) = AsyncStream<Data>.makeStream()
        for chunk in StreamBenchmarkInputs.chunks { continuation.yield(chunk) }
        continuation.finish()
        var parser = SSEParser()
        var text = ""
        for await chunk in chunks {
            for event in parser.consume(chunk) where event.event == "token" {
                guard let token = try? JSONDecoder.services.decode(StreamBenchmarkInputs.Token.self, from: Data(event.data.utf8)) else {
                    benchmark.error("a token did not decode")
                    return
                }
                text += token.text
            }
        }
        if text.count != StreamBenchmarkInputs.replyLength { benchmark.error("the baseline read \(text.count) characters") }
    }
}

/// One streamed reply: a session created, the message sent (whose settling reads every event due at once) and, for
/// events at offsets, the clock moved past them. The session's creation, about 1/100 of the whole, is measured too:
/// the plugin counts every stop of the measurement as a sample of its own.
private func streamedReply(_ host: SessionHost, _ benchmark: Benchmark, scenario: String, move: Duration?) async {
    do {
        let session = try await host.createSession(of: scenario)
        try await session.perform("send", arguments: ["text": "Hi"])
        if let move { try await session.advanceClock(by: move) }
        benchmark.stopMeasurement()
        let state = String(decoding: try await session.state().jsonData, as: UTF8.self)
        if !state.contains(#""status":"complete""#) { benchmark.error("the reply did not complete: \(state.prefix(200))") }
        try await host.deleteSession(session.id)
    } catch {
        benchmark.error("\(error)")
    }
}

enum StreamBenchmarkInputs {
    struct Token: Decodable { var text: String }
    static let count = 1_000
    static let word = "token "
    static var replyLength: Int { count * word.count }

    /// The events as the wire carries them, one chunk each.
    static let chunks: [Data] = (1...count).map {
        Data(SSEEvent(event: "token", id: "\($0)", data: #"{"text":"\#(word)"}"#).text.utf8)
    } + [Data(SSEEvent(event: "done", data: "{}").text.utf8)]

    /// An Assistant scenario whose reply is those events, each 1ms after the last when `spaced`, else all at once.
    static func scenario(spaced: Bool) -> String {
        var lines = """
            description: A reply of \(count) tokens, for the stream benchmark.
            model: Assistant
            clock:
              start: 2026-11-01T09:00:00Z
            network:
              routes:
                - name: reply
                  request: {method: POST, url: "https://assistant.example/v1/replies"}
                  response:
                    stream:
                      events:

            """
        for index in 1...count {
            let at = spaced ? "at: +\(index)ms, " : ""
            lines += "            - {\(at)event: token, id: \"\(index)\", data: {text: \"\(word)\"}}\n"
        }
        lines += "            - {\(spaced ? "at: +\(count + 1)ms, " : "")event: done, data: {}}\n"
        return lines
    }
}
