package import Fakes
package import Foundation
import HTTPTypes
package import Services

/// A gRPC route's answerer: the method it answers (from the scenario's descriptor set), its script with the
/// messages already encoded, and the codec that shows the client's messages as JSON.
package struct GRPCEndpoint: RPCAnswerer {
    package let method: String
    package let script: RPCScript
    private let requestType: String
    private let responseType: String
    private let codec: ProtobufJSON

    /// The endpoint of `method` in `pool`, answering with `script`.
    package init(method: DescriptorPool.Method, pool: DescriptorPool, script: RPCScript) {
        self.method = method.path
        self.script = script
        requestType = method.input
        responseType = method.output
        codec = ProtobufJSON(pool: pool)
    }

    package func requestJSON(_ message: Data) -> Result<JSONValue, RPCDecodingError> {
        Result { () throws(RPCDecodingError) in try codec.json(of: message, type: requestType) }
    }

    package func responseJSON(_ message: Data) -> Result<JSONValue, RPCDecodingError> {
        Result { () throws(RPCDecodingError) in try codec.json(of: message, type: responseType) }
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
