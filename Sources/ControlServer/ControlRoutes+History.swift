import ControlAPI
import Fakes
import Foundation
import HTTPTypes
import Hummingbird
import ScenarioHost
import Services

extension ControlRoutes {
    func addHistoryRoutes(to router: EndpointRouter) {
        router.get("/v1/sessions/:session/history") { _, context in
            let session = try await session(context)
            let history = await session.history()
            return JSONResponse.make(HistoryBody(session: session.id, notRewindable: await session.notRewindableBecause,
                                                 steps: history.steps.map(HistoryBody.Step.init)))
        }
        router.post("/v1/sessions/:session/rewind") { request, context in
            let value = try await JSONBody.value(of: request)
            // A number past Int's range would be refused as "not valid JSON" by the decoder; say what is wrong.
            if case .object(let fields) = value, case .double(let step)? = fields["step"] {
                throw APIError(.badRequest, .invalidRequest, "step must be a whole number from 0 to \(SessionHistory.limit), got \(step).")
            }
            let body = try JSONBody.decode(RewindRequest.self, from: value, fields: ["step"], required: ["step"])
            guard (0...SessionHistory.limit).contains(body.step) else {
                throw APIError(.badRequest, .invalidRequest, "step must be a whole number from 0 to \(SessionHistory.limit), got \(body.step).")
            }
            let session = try await session(context)
            return JSONResponse.make(json: try await session.rewind(to: body.step).jsonData)
        }
    }
}

extension HistoryBody.Step {
    init(_ step: SessionHistory.Step) {
        let (kind, summary, parameters): (String, String, [String: JSONValue]) = switch step.change {
        case .start: ("start", "the session started", [:])
        case .action(let name, let arguments):
            ("action", "action \(name)\(arguments == .object([:]) ? "" : " \(String(decoding: arguments.jsonData, as: UTF8.self))")",
             ["action": .string(name), "arguments": arguments])
        case .advanceClock(let duration):
            ("advanceClock", "advance the clock by \(DurationText.format(duration))", ["by": .string(DurationText.format(duration))])
        case .play(let moves): Self.play(moves)
        case .setClock(let instant):
            ("setClock", "set the clock to \(InstantText.format(instant))", ["now": .string(InstantText.format(instant))])
        case .setKeyValue(let key, let value): ("setKeyValue", "set key \(key)", ["key": .string(key), "value": value])
        case .removeKeyValue(let key): ("removeKeyValue", "remove key \(key)", ["key": .string(key)])
        case .replaceServiceState(let service, let state):
            ("replaceServiceState", "replace the state of service \(service)", ["service": .string(service), "state": state])
        case .patchServiceState(let service, let patch, _):
            ("patchServiceState", "patch the state of service \(service) with \(String(decoding: patch.jsonData, as: UTF8.self))",
             ["service": .string(service), "patch": patch])
        case .setRoute(let name, let json, _): ("setRoute", "set route \(name)", ["route": .string(name), "body": json])
        case .removeRoute(let name): ("removeRoute", "remove route \(name)", ["route": .string(name)])
        case .setNetworkConditions(let conditions):
            ("setNetworkConditions", "network conditions \(conditions)", ["conditions": .string(conditions.description)])
        case .pushToStream(let stream, let bytes):
            ("pushToStream", "push \(bytes.count) byte\(bytes.count == 1 ? "" : "s") into stream \(stream)",
             ["stream": .int(stream), "text": .string(String(decoding: bytes, as: UTF8.self))])
        case .closeStream(let stream, let fault, let frame):
            ("closeStream", fault.map { "drop stream \(stream) with \($0.rawValue)" } ?? "close stream \(stream)\(frame.map { " (\($0.code))" } ?? "")",
             ["stream": .int(stream)].merging(fault.map { ["fault": .string($0.rawValue)] } ?? [:]) { $1 }
                .merging(frame.map { ["code": .int($0.code), "reason": .string($0.reason)] } ?? [:]) { $1 })
        case .sendRequest(let request):
            ("sendRequest", "send \(request.head.method) \(request.url) from outside",
             ["method": .string(request.head.method.rawValue), "url": .string(request.url),
              "headers": .array(request.head.headerFields.map { .string("\($0.name): \($0.value)") })]
                .merging(request.body.isEmpty ? [:] : ["body": .string(String(decoding: request.body, as: UTF8.self))]) { $1 })
        case .openSocket(let request):
            ("openSocket", "open a WebSocket to \(request.url) from outside",
             ["url": .string(request.url), "headers": .array(request.head.headerFields.map { .string("\($0.name): \($0.value)") })])
        case .sendToSocket(let socket, let message):
            ("sendToSocket", "send \(message.bytes.count) byte\(message.bytes.count == 1 ? "" : "s") on WebSocket \(socket) from outside",
             ["socket": .int(socket)].merging(Self.messageField(message)) { $1 })
        case .closeSocket(let socket, let frame):
            ("closeSocket", "close WebSocket \(socket) from outside (\(frame.code))",
             ["socket": .int(socket), "code": .int(frame.code), "reason": .string(frame.reason)])
        case .clearJournal: ("clearJournal", "clear the journal", [:])
        case .reset: ("reset", "reset to the scenario's start", [:])
        }
        self.init(step: step.number, kind: kind, summary: summary, parameters: parameters, time: step.time, requests: step.requests)
    }

    /// A WebSocket message as a step's parameter: `text`, or binary as `base64`.
    private static func messageField(_ message: WebSocketMessage) -> [String: JSONValue] {
        switch message {
        case .text(let text): ["text": .string(text)]
        case .binary(let data): ["base64": .string(data.base64EncodedString())]
        }
    }

    /// A play's step: its moves' total and how many there were.
    private static func play(_ moves: [Duration]) -> (String, String, [String: JSONValue]) {
        let total = DurationText.format(moves.reduce(.zero, +))
        return ("playClock", "play the clock for \(total) (\(moves.count) move\(moves.count == 1 ? "" : "s"))",
                ["by": .string(total), "moves": .int(moves.count)])
    }
}
