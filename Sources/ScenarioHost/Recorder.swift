import ScenarioFormat
import Services

/// The live network of a recording session, keeping every exchange in full (bodies and all) for
/// ``RecordedScenario``. Unlike the journal it drops nothing, up to ``capacity`` exchanges; past that it still
/// forwards requests but the recording can no longer be saved whole, and saving says so.
actor Recorder: NetworkService {
    /// The most exchanges one recording keeps.
    static let capacity = 10_000

    private let live: any NetworkService
    private(set) var exchanges: [RecordedExchange] = []
    private(set) var overflowed = 0
    private var sequence = 0

    init(forwardingTo live: any NetworkService) {
        self.live = live
    }

    func send(_ request: NetworkRequest) async throws(TransportError) -> NetworkResponse {
        sequence += 1
        let number = sequence
        let result: Result<NetworkResponse, TransportError>
        do { result = .success(try await live.send(request)) } catch { result = .failure(error) }
        if exchanges.count < Self.capacity {
            exchanges.append(RecordedExchange(sequence: number, request: request, result: result))
        } else {
            overflowed += 1
        }
        return try result.get()
    }
}
