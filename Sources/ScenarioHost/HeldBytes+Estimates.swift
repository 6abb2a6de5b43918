import Fakes
import Foundation
import HTTPTypes
import ScenarioFormat
import Services

// What each kept thing holds, in bytes, for HeldBytes: the text and data it keeps plus a fixed share for its
// fields, counted without encoding it (an entry's JSON is written only when someone reads it).

/// The bytes a kept value's fields cost beyond its text and data: an estimate, so that many small values count.
private let overhead = 64

extension NetworkExchange {
    var heldBytes: Int {
        var bytes = 4 * overhead + method.utf8.count + url.utf8.count + (body?.utf8.count ?? 0) + (sentBody?.utf8.count ?? 0)
            + (route?.utf8.count ?? 0) + (fault?.utf8.count ?? 0) + (outcome?.utf8.count ?? 0) + (condition?.utf8.count ?? 0)
        bytes += headers.reduce(0) { $0 + $1.utf8.count + 16 }
        bytes += nearMisses?.reduce(0) { $0 + overhead + $1.route.utf8.count + $1.field.utf8.count + $1.expected.utf8.count + $1.actual.utf8.count } ?? 0
        if let stream { bytes += overhead + stream.keptTextBytes }
        return bytes
    }
}

extension JSONValue {
    var heldBytes: Int {
        switch self {
        case .null, .bool, .int, .double: 16
        case .string(let text): 16 + text.utf8.count
        case .array(let items): items.reduce(overhead) { $0 + $1.heldBytes }
        case .object(let fields): fields.reduce(overhead) { $0 + 16 + $1.key.utf8.count + $1.value.heldBytes }
        }
    }
}

extension SessionHistory.Change {
    var heldBytes: Int {
        overhead + {
            switch self {
            case .start, .advanceClock, .setClock, .removeKeyValue, .removeRoute, .setNetworkConditions, .closeStream, .closeSocket, .clearJournal, .reset: 0
            case .action(let name, let arguments): name.utf8.count + arguments.heldBytes
            case .play(let moves): moves.count * 16
            case .setKeyValue(let key, let value): key.utf8.count + value.heldBytes
            case .replaceServiceState(let service, let state): service.utf8.count + state.heldBytes
            case .patchServiceState(let service, let patch, let state): service.utf8.count + patch.heldBytes + state.heldBytes
            // The route as read is counted as its JSON again: it keeps what the JSON said.
            case .setRoute(let name, let json, _): name.utf8.count + 2 * json.heldBytes
            case .pushToStream(_, let bytes): bytes.count
            case .sendRequest(let request), .openSocket(let request):
                request.url.utf8.count + request.body.count + request.head.headerFields.heldBytes
            case .sendToSocket(_, let message): message.bytes.count
            }
        }()
    }
}

extension RecordedExchange {
    var heldBytes: Int {
        var bytes = 2 * overhead + request.url.utf8.count + request.body.count
        bytes += request.head.headerFields.heldBytes
        if case .success(let response) = result { bytes += response.body.count + response.head.headerFields.heldBytes }
        bytes += stream?.items.reduce(0) { $0 + 32 + $1.bytes.count } ?? 0
        bytes += conversation?.messages.reduce(0) { total, message in
            switch message.message {
            case .text(let text): total + 32 + text.utf8.count
            case .binary(let data): total + 32 + data.count
            }
        } ?? 0
        return bytes
    }
}

extension SessionEvent {
    var heldBytes: Int {
        overhead + {
            switch self {
            case .stateChanged(let state): state.jsonData.count
            case .requestJournaled(let exchange): exchange.heldBytes
            // Its chunks are the journal entry's own, shared, not copied.
            case .streamChanged(let exchange): exchange.heldBytes - (exchange.stream?.keptTextBytes ?? 0)
            case .serviceChanged(let service, let state): service.utf8.count + state.heldBytes
            case .clockMoved, .historyChanged: 0
            case .modelEscaped(let escape): escape.detail.utf8.count + escape.remedy.utf8.count + (escape.during?.utf8.count ?? 0)
            }
        }()
    }
}

extension HTTPFields {
    var heldBytes: Int { reduce(0) { $0 + 16 + $1.name.rawName.utf8.count + $1.value.utf8.count } }
}
