package import Fakes
package import Foundation
import HTTPTypes
package import Services

/// A gRPC route's answerer: the method it answers (from the scenario's descriptor set), its script with the
/// messages already encoded, and the codec that shows the client's messages as JSON.
package struct GRPCEndpoint: RPCAnswerer {
    package let method: String
    package let script: RPCScript
    private let pool: DescriptorPool
    private let codec: ProtobufJSON

    /// The endpoint of `method` in `pool`, answering with `script`.
    package init(method: DescriptorPool.Method, pool: DescriptorPool, script: RPCScript) {
        self.method = method.path
        self.script = script
        self.pool = pool
        codec = ProtobufJSON(pool: pool)
    }

    package func knows(_ path: String) -> Bool { pool.methods[path] != nil }

    package func requestJSON(_ message: Data, of path: String) -> Result<JSONValue, RPCDecodingError> {
        json(of: message, type: pool.methods[path]?.input, method: path)
    }

    package func responseJSON(_ message: Data, of path: String) -> Result<JSONValue, RPCDecodingError> {
        json(of: message, type: pool.methods[path]?.output, method: path)
    }

    private func json(of message: Data, type: String?, method path: String) -> Result<JSONValue, RPCDecodingError> {
        guard let type else { return .failure(RPCDecodingError("the descriptor set has no method \(path)")) }
        return Result { () throws(RPCDecodingError) in try codec.json(of: message, type: type) }
    }

    package func makeState() -> any Sendable { 0 }

    /// A request that is not a gRPC call (a plain POST to the method's URL) gets what a gRPC server gives it: 415.
    package func answer(_ request: NetworkRequest, state: any Sendable) async -> ComputedAnswer {
        var response = NetworkResponse(status: 415, body: Data("\(method) answers gRPC calls (content-type application/grpc)\n".utf8))
        response.head.headerFields[.contentType] = "text/plain; charset=utf-8"
        return ComputedAnswer(response, refusal: NearMiss.Difference(field: "/headers/content-type", expected: "application/grpc",
                                                                      actual: request.head.headerFields[.contentType] ?? "none"))
    }
}
