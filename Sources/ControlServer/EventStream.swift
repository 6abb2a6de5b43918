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
    static func response(for session: Session) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                let events = await session.eventStream()
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

    static func frame(_ name: EventName, _ data: some Encodable) -> ByteBuffer {
        frame(name, json: (try? JSONEncoder.services.encode(data)) ?? Data("null".utf8))
    }

    static func frame(_ name: EventName, json: Data) -> ByteBuffer {
        ByteBuffer(string: "event: \(name.rawValue)\ndata: \(String(decoding: json, as: UTF8.self))\n\n")
    }
}
