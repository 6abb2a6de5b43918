import ControlAPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension ControlRoutes {
    /// The dashboard's page, script and style sheet, served from the binary; the page calls the API on the same
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

    static let page = DashboardAsset(contentType: "text/html; charset=utf-8", bytes: ByteBuffer(bytes: PackageResources.index_html))
    static let named: [String: DashboardAsset] = [
        "index.html": page,
        "app.js": DashboardAsset(contentType: "text/javascript; charset=utf-8", bytes: ByteBuffer(bytes: PackageResources.app_js)),
        "style.css": DashboardAsset(contentType: "text/css; charset=utf-8", bytes: ByteBuffer(bytes: PackageResources.style_css)),
        "icon.svg": DashboardAsset(contentType: "image/svg+xml", bytes: ByteBuffer(bytes: PackageResources.icon_svg)),
    ]

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
