import Foundation
public import Services

/// The test Models of this module, for a registry.
public let taskModels: [any Model.Type] = [Kettle.self, Relay.self, FanOut.self, Racer.self, Escaper.self, Alarm.self, Metronome.self, Pendulum.self,
                                            Inbox.self, Ledger.self, Poller.self, MainTies.self, ActorTies.self,
                                            BookingDesk<CorrectBooking>.self, BookingDesk<CarelessBooking>.self, RefundDesk.self, Forgetful.self]

/// Writes a scenarios directory for the test Models into a new temporary directory and returns its path.
/// - Parameter extra: More scenarios, by name: their `scenario.yaml` text.
public func writeTaskModelScenarios(extra: [String: String] = [:]) throws -> String {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("task-models-\(UUID().uuidString.prefix(8))")
    let scenarios = taskModelScenarios.merging(extra) { _, new in new }
    for (name, text) in scenarios {
        let directory = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(to: directory.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
        if let properties = taskModelProperties[name] {
            try properties.write(to: directory.appendingPathComponent("properties.yaml"), atomically: true, encoding: .utf8)
        }
    }
    return root.path
}

/// The properties files of the planted-bug scenarios, by scenario name.
public let taskModelProperties: [String: String] = [
    "inbox": """
    always:
      - name: unread is never negative
        that: /unread >= 0
    """,
    "ledger": """
    always:
      - /balance == /applied
    """,
    "poller": """
    always:
      - /inFlight <= 1
    """,
    "booking": """
    always:
      - name: a released booking is not charged
        that: all(/bookings/*, @/status != "released" or @/charges == 0)
      - name: one charge per booking
        that: all(/bookings/*, @/charges <= 1) and sum(/bookings/*/charges) <= count(/bookings)
    """,
    "refund-desk": """
    always:
      - name: an expired booking is never refunded
        that: all(/bookings/*, @/status != "expired" or @/refunds == 0)
    walk:
      weights: { action: 3, clock: 2, network: 0 }
    """,
    "careless-booking": """
    always:
      - name: a released booking is not charged
        that: all(/bookings/*, @/status != "released" or @/charges == 0)
    """,
]

/// The routes of both tie scenarios: answers delayed alike, and a stream whose events come at the same offsets.
private let tieRoutes = """
network:
  routes:
    - name: answer
      request: { method: GET, urlPattern: 'https://ties\\.test/answer/[0-9]+' }
      response: { status: 200, body: "ok", delay: 10s }
    - name: stream
      request: { method: GET, url: "https://ties.test/stream" }
      response:
        status: 200
        stream:
          events:
            - { at: +1s, data: "one" }
            - { at: +2s, data: "two" }
"""

/// The shipped-with-the-tests scenarios, by name.
public let taskModelScenarios: [String: String] = [
    "booking": """
    description: A main-actor booking desk whose confirm and release timers fall due together.
    model: Booking
    """,
    "forgetful": """
    description: A Model whose every run differs from the last, through a number the process shares.
    model: Forgetful
    """,
    "refund-desk": """
    description: Bookings with random ids that expire after ten minutes; a refund of an expired one is the bug.
    model: RefundDesk
    random: { seed: 1 }
    """,
    "careless-booking": """
    description: The booking desk whose release timer releases a confirmed booking.
    model: CarelessBooking
    """,
    "main-ties": """
    description: A main-actor Model whose work of each kind becomes ready at one instant.
    model: MainTies
    \(tieRoutes)
    """,
    "actor-ties": """
    description: An actor Model whose work of each kind becomes ready at one instant.
    model: ActorTies
    \(tieRoutes)
    """,
    "kettle": """
    description: A cold kettle; boiling takes 90 seconds.
    model: Kettle
    """,
    "relay": """
    description: The relay's answer comes after 5 seconds.
    model: Relay
    network:
      routes:
        - name: answer
          request: { method: GET, url: "https://relay.test/answer" }
          response: { status: 200, body: "pong", delay: 5s }
    """,
    "fan-out": """
    description: Five branches, each waiting its own time.
    model: FanOut
    """,
    "race": """
    description: Runners start together; first-ready-first.
    model: Racer
    """,
    "race-seed-1": """
    description: Runners start together; seed 1 orders them.
    model: Racer
    schedule: { seed: 1 }
    """,
    "race-seed-2": """
    description: Runners start together; seed 2 orders them.
    model: Racer
    schedule: { seed: 2 }
    """,
    "escaper": """
    description: A Model that escapes its session in every way a session sees.
    model: Escaper
    """,
    "metronome": """
    description: A main-actor Model that ticks every second.
    model: Metronome
    """,
    "pendulum": """
    description: An actor Model that ticks every second.
    model: Pendulum
    """,
    "alarm": """
    description: An alarm that rings a bell, writes the store and posts when it fires.
    model: Alarm
    network:
      routes:
        - name: ring
          request: { method: POST, url: "https://alarm.test/ring" }
          response: { status: 204 }
    """,
    "inbox": """
    description: Three messages; a failed refresh is retried after 30 seconds.
    model: Inbox
    network:
      routes:
        - name: messages
          request: { method: GET, url: "https://inbox.test/messages" }
          response: { status: 200, body: '["m1","m2","m3"]' }
    """,
    "ledger": """
    description: A deposit of 10 and a charge of 5, both answered after a second.
    model: Ledger
    network:
      routes:
        - name: deposit
          request: { method: GET, url: "https://ledger.test/deposit" }
          response: { status: 200, body: "10", delay: 1s }
        - name: charge
          request: { method: GET, url: "https://ledger.test/charge" }
          response: { status: 200, body: "-5", delay: 1s }
    """,
    "poller": """
    description: A status answered after 90 seconds; the poller's timer ticks every minute.
    model: Poller
    network:
      routes:
        - name: status
          request: { method: GET, url: "https://poller.test/status" }
          response: { status: 200, body: "ok", delay: 90s }
    """,
]
