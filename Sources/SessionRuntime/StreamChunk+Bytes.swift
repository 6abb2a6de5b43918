import Fakes
import Foundation
import Services

/// A chunk or WebSocket message as the journal holds it: text as it is, binary in base64.
extension StreamChunk {
    init(time: Date, bytes: Data, binary: Bool, pushed: Bool = false, sent: Bool = false) {
        self.init(time: time, text: binary ? bytes.base64EncodedString() : String(decoding: bytes, as: UTF8.self),
                  pushed: pushed ? true : nil, sent: sent ? true : nil, binary: binary ? true : nil)
    }

    init(time: Date, message: WebSocketMessage, sent: Bool) {
        self.init(time: time, bytes: message.bytes, binary: message.isBinary, sent: sent)
    }
}
