import ControlAPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension ControlRoutes {
    /// The dashboard's page, its script modules and style sheet, served from the binary; the page calls the API on the same
    /// origin (the socket, or `scenarioctl dashboard`'s bridge to it).
    func addDashboardRoutes(to router: EndpointRouter) {
        // `/dashboard/` is the same route to Hummingbird; the page names its files by absolute path.
        router.get("/dashboard") { _, _ in DashboardAsset.page.response }
        router.get("/dashboard/:asset") { _, context in
            let name = try parameter("asset", of: context)
            guard let asset = DashboardAsset.named[name] else {
                throw APIError(.notFound, .noSuchEndpoint, "the dashboard has no file '\(name)'; its files are \(DashboardAsset.named.keys.sorted().joined(separator: ", ")).")
            }
            return asset.response
        }
    }
}

/// One of the dashboard's files, with its content type and the headers every one of them is sent with.
struct DashboardAsset: Sendable {
    let contentType: String
    let bytes: ByteBuffer

    static let page = named["index.html"]!

    /// The dashboard's files by name: the one list of them. Package.swift embeds the whole Dashboard directory, and
    /// Tests/system/test_dashboard.py serves every file of it, so a file added there and not here fails that test.
    static let named: [String: DashboardAsset] = Dictionary(uniqueKeysWithValues: [
        ("index.html", PackageResources.index_html), ("style.css", PackageResources.style_css), ("icon.svg", PackageResources.icon_svg),
        ("app.js", PackageResources.app_js), ("api.js", PackageResources.api_js), ("dom.js", PackageResources.dom_js),
        ("leaving.js", PackageResources.leaving_js), ("pages.js", PackageResources.pages_js),
        ("session-page.js", PackageResources.session_page_js), ("session-state.js", PackageResources.session_state_js),
        ("session-journal.js", PackageResources.session_journal_js), ("session-streams.js", PackageResources.session_streams_js),
        ("session-clock.js", PackageResources.session_clock_js), ("session-network.js", PackageResources.session_network_js),
        ("session-actions.js", PackageResources.session_actions_js), ("session-store.js", PackageResources.session_store_js),
        ("session-history.js", PackageResources.session_history_js), ("explorations-page.js", PackageResources.explorations_page_js),
    ].map { name, bytes in (name, DashboardAsset(contentType: contentType(of: name), bytes: ByteBuffer(bytes: bytes))) })

    /// The content type a file's extension says.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }

    /// Only the daemon's own files and API: no inline script or style, no other origin, no framing.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    var response: Response {
        Response(status: .ok, headers: [
            .contentType: contentType,
            .contentSecurityPolicy: Self.contentSecurityPolicy,
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            .cacheControl: "no-cache",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            // A page of another origin that opens the dashboard (in the tab that showed it) gets no handle on it,
            // and the popup no copy of the tab's sessionStorage, where the bridge's token is.
            HTTPField.Name("Cross-Origin-Opener-Policy")!: "same-origin",
        ], body: ResponseBody(byteBuffer: bytes))
    }
}
