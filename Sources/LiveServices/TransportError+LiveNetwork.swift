import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import Services
import WSClient

extension TransportError {
    /// The transport error a Model sees for an error of AsyncHTTPClient, swift-websocket or SwiftNIO.
    /// TLS failures and malformed responses have no case of their own: they read as `connectionReset`.
    init(_ error: any Error) {
        switch error {
        case is CancellationError:
            self = .cancelled
        case let error as HTTPClientError:
            switch error {
            case .cancelled, .requestStreamCancelled: self = .cancelled
            case .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded, .tlsHandshakeTimeout,
                 .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
                self = .timeout
            default: self = .connectionReset
            }
        case let error as NIOConnectionError:
            // Every address failed to connect: the first failure tells why; no address at all means no DNS answer.
            if let first = error.connectionErrors.first {
                self = TransportError(first.error)
            } else {
                self = .offline
            }
        case let error as IOError:
            self = TransportError(errno: error.errnoCode)
        case let error as WebSocketClientError:
            // A server that answers the handshake without upgrading does not take WebSocket connections there.
            self = error == .webSocketUpgradeFailed ? .connectionRefused : .connectionReset
        case let error as ChannelError:
            if case .connectTimeout = error { self = .timeout } else { self = .connectionReset }
        default:
            self = .connectionReset
        }
    }

    /// What the underlying error says, for the log. NIO's own `IOError` text has a stray parenthesis
    /// (`reason: Connection refused) (errno: 111)`), so a system error is described here from its errno.
    static func cause(of error: any Error) -> String {
        switch error {
        case let error as NIOConnectionError:
            return error.connectionErrors.first.map { cause(of: $0.error) } ?? "no address to connect to"
        case let error as IOError:
            return "\(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))"
        default:
            return "\(error)"
        }
    }

    private init(errno code: Int32) {
        switch code {
        case ECONNREFUSED: self = .connectionRefused
        case ETIMEDOUT: self = .timeout
        case ENETUNREACH, EHOSTUNREACH, ENETDOWN, EADDRNOTAVAIL: self = .offline
        default: self = .connectionReset
        }
    }
}
