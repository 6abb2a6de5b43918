public import Foundation
public import Services

/// A streamed answer as a scenario writes it: chunks (server-sent events, or raw text) each due at an offset from the
/// moment the stream opens, and how the stream ends.
public struct StreamScript: Sendable, Hashable {
    /// One scripted chunk.
    public struct Item: Sendable, Hashable {
        /// How long after the stream opens the chunk is due, on the session's clock.
        public var offset: Duration
        /// The bytes the Model reads.
        public var bytes: Data

        /// Creates a chunk of `bytes` due at `offset`.
        public init(offset: Duration, bytes: Data) {
            self.offset = offset
            self.bytes = bytes
        }

        /// Creates a chunk holding `event` in the wire format, due at `offset`.
        public init(offset: Duration, event: SSEEvent) {
            self.init(offset: offset, bytes: event.bytes)
        }
    }

    /// How the stream ends once its last chunk is delivered.
    public enum End: Sendable, Hashable {
        /// The server closes it: the Model's loop ends normally.
        case close
        /// It breaks off: the Model's next read throws the error.
        case drop(TransportError)
        /// It stays open and sends nothing more, until a test closes it or the Model lets go.
        case stall
    }

    /// The chunks, in the order of their offsets.
    public var items: [Item]
    /// How it ends.
    public var end: End
    /// When it ends, from the moment it opens; at least the last chunk's offset.
    public var endOffset: Duration

    /// Creates a script; `endOffset` defaults to the last chunk's offset.
    public init(items: [Item], end: End = .close, endOffset: Duration? = nil) {
        self.items = items
        self.end = end
        self.endOffset = max(endOffset ?? .zero, items.last?.offset ?? .zero)
    }

    /// Every chunk's bytes, in order: the body a Model that does not stream receives.
    public var body: Data { items.reduce(into: Data()) { $0.append($1.bytes) } }
}
