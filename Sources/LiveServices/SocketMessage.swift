import Services

/// The services' WebSocket message, by a name of its own: swift-websocket's `WSCore` has a `WebSocketMessage` too,
/// and `Services.WebSocketMessage` would name a member of the `Services` struct.
typealias SocketMessage = WebSocketMessage
