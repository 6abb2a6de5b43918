import CMalloc
import Foundation
import Prometheus
import ScenarioHost
import Services
import Synchronization

/// The daemon's own figures for `GET /metrics`, in Prometheus's text format and named as its conventions say
/// (`scenariod_` prefix, `_total` counters, base units): what a soak or an operator plots to see that a daemon
/// running for days holds steady. Requests are counted as they are answered; the rest is read at each scrape.
///
/// A registry of its own, handed to the server: no global metrics system is bootstrapped.
final class DaemonMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let sessions: Gauge
    private let eventStreams: Gauge
    private let eventsDropped: Counter
    private let connections: Gauge
    private let ownership: Gauge
    private let residentBytes: Gauge
    private let heapBytes: Gauge
    private let openDescriptors: Gauge
    private let threads: Gauge
    /// What every session's stores hold, by store (`journal`, `history`, `events`, `recording`).
    private let heldBytes: [(store: HeldBytes.Store, gauge: Gauge)]
    /// State reads answered on the event loop (``DirectReadResponder``): counters made once, for the hot path.
    private let settledReads: (ok: Counter, notModified: Counter)
    /// Journal reads answered on the event loop (``DirectReadResponder``), all and unmatched only.
    private let directJournalReads: (all: Counter, unmatched: Counter)
    /// The request counters made so far (a few dozen: methods × routes × statuses), by what they count.
    private let requestCounters = Mutex<[RequestKey: Counter]>([:])
    /// Connections open now, counted as they open and close.
    private let openConnections = Atomic<Int>(0)
    /// The host's count of dropped events as last reported, so the counter goes up by what was dropped since.
    private let reportedDrops = Mutex(0)

    init() {
        let registry = registry
        func gauge(_ namespace: String, _ name: String, unit: String = "", help: String) -> Gauge {
            registry.makeGauge(descriptor: MetricNameDescriptor(namespace: namespace, metricName: name, unitName: unit, helpText: help))
        }
        sessions = gauge("scenariod", "sessions", help: "Sessions open.")
        eventStreams = gauge("scenariod", "event_streams", help: "Event streams (GET …/events) open across all sessions.")
        eventsDropped = registry.makeCounter(descriptor: MetricNameDescriptor(
            namespace: "scenariod", metricName: "events_dropped", unitName: "total",
            helpText: "Events dropped for event-stream readers that fell behind (each told by an event: gap)."))
        connections = gauge("scenariod", "connections", help: "Connections to the control socket open.")
        ownership = gauge("scenariod", "task_ownership_complete", help: "1 when every way a Model starts work is owned by its session (GET /v1/health), else 0.")
        residentBytes = gauge("process", "resident_memory", unit: "bytes", help: "Resident memory size in bytes.")
        heapBytes = gauge("scenariod", "heap_in_use", unit: "bytes",
                          help: "Bytes malloc has handed out and not had back (glibc mallinfo2): resident memory without what freed memory the allocator keeps.")
        openDescriptors = gauge("process", "open_fds", help: "Number of open file descriptors.")
        threads = gauge("process", "threads", help: "Number of OS threads in the process.")
        let held = MetricNameDescriptor(namespace: "scenariod", metricName: "held", unitName: "bytes",
                                        helpText: "Bytes every session's stores hold, by store (each bounded per session by a --*-bytes flag, all by --max-held-bytes).")
        heldBytes = HeldBytes.Store.allCases.map { ($0, registry.makeGauge(descriptor: held, labels: [("store", $0.rawValue)])) }
        let read = [("method", "GET"), ("route", Self.stateRoute)]
        settledReads = (registry.makeCounter(descriptor: Self.requests, labels: read + [("status", "200")]),
                        registry.makeCounter(descriptor: Self.requests, labels: read + [("status", "304")]))
        let journal = { (route: String) in registry.makeCounter(descriptor: Self.requests, labels: [("method", "GET"), ("route", route), ("status", "200")]) }
        directJournalReads = (journal("/v1/sessions/{session}/journal"), journal("/v1/sessions/{session}/journal/unmatched"))
    }

    /// Counts one answered request: `route` is the endpoint's path template (`/v1/sessions/{session}/state`), or
    /// `unmatched`.
    func countRequest(method: String, route: String, status: Int) {
        let key = RequestKey(method: method, route: route, status: status)
        // Each counter is made once and kept: the registry's make builds its name and label strings and looks them up
        // under its lock, 2.4 % of a daemon's CPU under the test benchmark (perf, issue 52).
        let counter = requestCounters.withLock { counters in
            if let known = counters[key] { return known }
            let made = registry.makeCounter(descriptor: Self.requests, labels: [("method", method), ("route", route), ("status", String(status))])
            counters[key] = made
            return made
        }
        counter.increment()
    }

    /// What a request is counted by: its method, the route's template and the status answered.
    private struct RequestKey: Hashable {
        let method: String, route: String, status: Int
    }

    func countSettledStateRead(notModified: Bool) {
        (notModified ? settledReads.notModified : settledReads.ok).increment()
    }

    func countDirectJournalRead(unmatchedOnly: Bool) {
        (unmatchedOnly ? directJournalReads.unmatched : directJournalReads.all).increment()
    }

    /// The state read's route as the router names it.
    private static let stateRoute = "/v1/sessions/{session}/state"

    // Computed: the descriptor is not Sendable, and making one is cheap.
    private static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "scenariod", metricName: "http_requests", unitName: "total",
            helpText: "Requests answered on the control socket, by method, route and status.")
    }

    func connectionOpened() { openConnections.add(1, ordering: .relaxed) }
    func connectionClosed() { openConnections.subtract(1, ordering: .relaxed) }

    /// The text of a scrape, with every figure read now.
    func scrape(host: SessionHost, ownershipComplete: Bool) async -> [UInt8] {
        sessions.set(to: Double(await host.openSessions().count))
        eventStreams.set(to: Double(host.eventStreamsOpen))
        let dropped = host.eventsDropped
        eventsDropped.increment(by: Int64(reportedDrops.withCheckedLock { reported in defer { reported = dropped }; return dropped - reported }))
        connections.set(to: Double(openConnections.load(ordering: .relaxed)))
        ownership.set(to: ownershipComplete ? 1 : 0)
        let held = host.heldBytes
        for (store, gauge) in heldBytes { gauge.set(to: Double(held[store])) }
        let process = ProcessFigures.read()
        residentBytes.set(to: Double(process.residentBytes))
        heapBytes.set(to: Double(process.heapInUseBytes))
        openDescriptors.set(to: Double(process.openDescriptors))
        threads.set(to: Double(process.threads))
        var buffer: [UInt8] = []
        buffer.reserveCapacity(4096)
        registry.emit(into: &buffer)
        return buffer
    }
}

/// The process's own figures, read from /proc and glibc (Linux).
struct ProcessFigures {
    var residentBytes = 0
    /// Allocated and not freed, which tells a leak (it grows) from an allocator keeping freed pages (only RSS grows).
    var heapInUseBytes = 0
    var openDescriptors = 0
    var threads = 0

    static func read() -> ProcessFigures {
        var figures = ProcessFigures()
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
            for line in status.split(separator: "\n") {
                let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                if line.hasPrefix("VmRSS:"), parts.count >= 2, let kilobytes = Int(parts[1]) { figures.residentBytes = kilobytes * 1024 }
                if line.hasPrefix("Threads:"), parts.count >= 2, let count = Int(parts[1]) { figures.threads = count }
            }
        }
        let heap = scenariod_mallinfo2()
        figures.heapInUseBytes = Int(heap.uordblks + heap.hblkhd)
        figures.openDescriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return figures
    }
}
