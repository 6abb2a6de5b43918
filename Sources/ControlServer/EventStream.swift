import ControlAPI
import Foundation
import Hummingbird
import NIOCore
import ScenarioHost
import ServiceLifecycle
import Services

/// A session's events as server-sent events: `event: NAME` and `data: JSON` per event, the current state first.
/// The stream ends when the session is deleted, the client goes away, or the daemon shuts down.
enum EventStream {
    /// - Parameter connection: The client's connection; the stream ends when the client goes away.
    /// - Throws: ``HostError`` `.tooManySubscribers` before anything is sent, so the client gets a plain refusal.
    static func response(for session: Session, connection: (any Channel)?) async throws(HostError) -> Response {
        let events = untilGone(try await session.eventStream(), connection: connection)
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                if let state = try? await session.state() {
                    try await writer.write(frame(.stateChanged, json: state.jsonData))
                }
                for await event in events.cancelOnGracefulShutdown() {
                    switch event {
                    case .stateChanged(let state): try await writer.write(frame(.stateChanged, json: state.jsonData))
                    case .requestJournaled(let exchange): try await writer.write(frame(.requestJournaled, exchange))
                    case .clockMoved(let now): try await writer.write(frame(.clockMoved, ClockBody(now: now)))
                    case .serviceChanged(let service, let state):
                        try await writer.write(frame(.serviceChanged, ServiceStateBody(service: service, state: state)))
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// `events` relayed until the client of `connection` goes away. The writer cannot leave its task, so the
    /// relay ends the stream it reads; ending it cancels the relay, which gives back the session's stream.
    private static func untilGone(_ events: AsyncStream<SessionEvent>, connection: (any Channel)?) -> AsyncStream<SessionEvent> {
        guard let connection else { return events }
        // The same bound as the session's streams: a slow reader loses the oldest events.
        let (relayed, sink) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .bufferingNewest(1_024))
        let relay = Task {
            for await event in events { sink.yield(event) }
            sink.finish()
        }
        sink.onTermination = { _ in relay.cancel() }
        ClientGoneWatch.future(of: connection).whenComplete { _ in sink.finish() }
        return relayed
    }

    static func frame(_ name: EventName, _ data: some Encodable) -> ByteBuffer {
        frame(name, json: (try? JSONEncoder.services.encode(data)) ?? Data("null".utf8))
    }

    static func frame(_ name: EventName, json: Data) -> ByteBuffer {
        ByteBuffer(string: "event: \(name.rawValue)\ndata: \(String(decoding: json, as: UTF8.self))\n\n")
    }
}
