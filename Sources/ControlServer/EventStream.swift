import ControlAPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ScenarioHost
import ServiceLifecycle
import Services

/// A session's events as server-sent events: `id: N`, `event: NAME` and `data: JSON` per event, the current state
/// first. A client that reconnects with the last id it saw (`Last-Event-ID`, as a browser's `EventSource` sends it,
/// or `?lastEventId=N`) gets the events it missed instead, or a `gap` event and the current state when they are no
/// longer retained. The stream ends when the session is deleted, the client goes away, or the daemon shuts down.
enum EventStream {
    /// - Parameters:
    ///   - lastEventID: The last id the client saw, when it is reconnecting.
    ///   - connection: The client's connection; the stream ends when the client goes away.
    /// - Throws: ``HostError`` `.tooManySubscribers` before anything is sent, so the client gets a plain refusal.
    static func response(for session: Session, after lastEventID: Int?, connection: (any Channel)?) async throws(HostError) -> Response {
        let subscription = try await session.eventStream(after: lastEventID)
        // The writer cannot leave its task, so the client's going ends the stream it reads, which gives back the
        // session's stream at once.
        if let connection { ClientGoneWatch.future(of: connection).whenComplete { _ in subscription.end() } }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                switch subscription.start {
                case .resumed:
                    break // the missed events come first on the stream itself
                case .gap(let oldest):
                    let message = "events after \(lastEventID ?? 0) are no longer retained"
                        + (oldest.map { " (the oldest kept is \($0))" } ?? "") + "; the current state follows."
                    try await writer.write(frame(.gap, id: subscription.openingIDs[0],
                                                 GapBody(lastEventId: lastEventID ?? 0, oldestRetained: oldest, message: message)))
                    fallthrough
                case .now:
                    if let state = try? await session.state() {
                        try await writer.write(frame(.stateChanged, id: subscription.openingIDs.last ?? 0, json: state.jsonData))
                    }
                }
                var lastWritten = subscription.openingIDs.last ?? lastEventID ?? 0
                for await numbered in subscription.events.cancelOnGracefulShutdown() {
                    let id = numbered.id
                    if let missed = subscription.takeMissed(before: numbered) {
                        try await writer.write(frame(.gap, id: lastWritten, Self.gap(missed, after: lastWritten)))
                    }
                    lastWritten = id
                    switch numbered.event {
                    case .stateChanged(let state): try await writer.write(frame(.stateChanged, id: id, json: state.jsonData))
                    case .requestJournaled(let exchange): try await writer.write(frame(.requestJournaled, id: id, exchange))
                    case .streamChanged(let exchange):
                        if let body = StreamBody(exchange) { try await writer.write(frame(.streamChanged, id: id, body)) }
                    case .clockMoved(let now): try await writer.write(frame(.clockMoved, id: id, ClockBody(now: now)))
                    case .serviceChanged(let service, let state):
                        try await writer.write(frame(.serviceChanged, id: id, ServiceStateBody(service: service, state: state)))
                    case .historyChanged(let newestStep):
                        try await writer.write(frame(.historyChanged, id: id, HistoryChangedBody(newestStep: newestStep)))
                    case .modelEscaped(let escape):
                        try await writer.write(frame(.modelEscaped, id: id, ModelEscapeBody(escape)))
                    }
                }
                try await writer.finish(nil)
            })
    }

    // A valid token, so the initializer cannot fail.
    private static let lastEventIDField = HTTPField.Name("Last-Event-ID")!

    /// The id a reconnecting client last saw: the `Last-Event-ID` header, else the `lastEventId` query item.
    /// - Throws: ``APIError`` 400 `invalidRequest` when it is not an id this daemon gives.
    static func lastEventID(of request: Request) throws -> Int? {
        guard let text = request.headers[Self.lastEventIDField] ?? request.uri.queryParameters["lastEventId"].map(String.init) else {
            return nil
        }
        guard let id = Int(text), id >= 0 else {
            throw APIError(.badRequest, .invalidRequest, "the last event id '\(text)' is not one this daemon gives: they are whole numbers from 1, the id: of each event; leave it out to start from the current state.")
        }
        return id
    }

    /// The `gap` a reader that fell behind gets before the next event it reads.
    static func gap(_ missed: MissedEvents.Run, after lastWritten: Int) -> GapBody {
        let message = "this reader fell behind: \(missed.count) event\(missed.count == 1 ? " was" : "s were") dropped, the last "
            + "\(missed.lastID) (a stream keeps the newest \(EventSubscription.bufferSize)); read the state again, or "
            + "reconnect with Last-Event-ID: \(lastWritten) to get those still retained."
        return GapBody(lastEventId: lastWritten, oldestRetained: nil, message: message, missed: missed.count, lastMissed: missed.lastID)
    }

    static func frame(_ name: EventName, id: Int, _ data: some Encodable) -> ByteBuffer {
        frame(named: name.rawValue, id: id, data)
    }

    static func frame(_ name: EventName, id: Int, json: Data) -> ByteBuffer {
        frame(named: name.rawValue, id: id, json: json)
    }

    /// A frame of an event outside a session's vocabulary (an exploration's).
    static func frame(named name: String, id: Int, _ data: some Encodable) -> ByteBuffer {
        frame(named: name, id: id, json: (try? JSONEncoder.services.encode(data)) ?? Data("null".utf8))
    }

    static func frame(named name: String, id: Int, json: Data) -> ByteBuffer {
        ByteBuffer(string: "id: \(id)\nevent: \(name)\ndata: \(String(decoding: json, as: UTF8.self))\n\n")
    }
}
