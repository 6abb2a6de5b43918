import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient

/// `scenarioctl network`: switch a running session's network, as a browser's developer tools throttle a page.
struct Network: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or switch the session's network: offline, a fault for every request, or a delay added to every answer.",
        discussion: "Each switch replaces the last (`network delay 2s` after `network offline` is only the delay); `network normal` or a reset switches back. Each switch, and each request it answers or delays, is journaled.",
        subcommands: [Show.self, Offline.self, Fault.self, Delay.self, Normal.self], defaultSubcommand: Show.self)

    static func print(_ conditions: NetworkConditionsBody, _ options: ClientOptions) {
        options.output(conditions) {
            if conditions.offline == true { return "offline" + (conditions.delay.map { ", delay \($0)" } ?? "") }
            let parts = [conditions.fault.map { "fault \($0)" }, conditions.delay.map { "delay \($0)" }].compactMap { $0 }
            return parts.isEmpty ? "normal" : parts.joined(separator: ", ")
        }
    }

    /// Sets `conditions` on the session and prints what it is switched into.
    static func set(_ conditions: NetworkConditionsBody, _ options: ClientOptions, _ target: SessionOptions) async throws {
        try await options.run { client in print(try await client.setNetworkConditions(conditions, session: target.id), options) }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print what the session's network is switched into.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        func run() async throws {
            try await options.run { client in Network.print(try await client.networkConditions(session: target.id), options) }
        }
    }

    struct Offline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Fail every request with offline.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        func run() async throws { try await Network.set(.init(offline: true), options, target) }
    }

    struct Fault: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Fail every request with a transport error.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "timeout, connectionReset, connectionRefused, offline or cancelled.") var fault: String
        func run() async throws { try await Network.set(.init(fault: fault), options, target) }
    }

    struct Delay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a delay to every answer, on the session's clock.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "A duration: 250ms, 2s, 1m.") var delay: String
        func run() async throws { try await Network.set(.init(delay: delay), options, target) }
    }

    struct Normal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Switch back to the scenario's own network.", aliases: ["online"])
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        func run() async throws { try await Network.set(.init(), options, target) }
    }
}
