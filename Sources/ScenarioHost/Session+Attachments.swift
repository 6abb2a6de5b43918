// What lives as long as a session but is not the engine's to run: a session endpoint's listener (ControlServer).
// The host knows nothing of sockets, so it holds each as something to close with the session.

/// Something that lives as long as its session and is closed with it, however the session ends.
public protocol SessionAttachment: AnyObject, Sendable {
    /// Called once, as the session closes (deleted, or the daemon stopping).
    func sessionClosed() async
}

extension Session {
    /// Ties `attachment` to the session's life: ``SessionAttachment/sessionClosed()`` is called as the session closes.
    /// - Returns: false, having called nothing, when the session is already closing; the caller closes it itself.
    public func attach(_ attachment: any SessionAttachment) -> Bool {
        guard !isClosing else { return false }
        attachments.append(attachment)
        return true
    }

    /// The session's attachment of type `type`, if it has one.
    public func attachment<Attachment: SessionAttachment>(_ type: Attachment.Type) -> Attachment? {
        attachments.lazy.compactMap { $0 as? Attachment }.first
    }

    /// Closes every attachment, newest first.
    func closeAttachments() async {
        let closing = attachments.reversed()
        attachments = []
        for attachment in closing { await attachment.sessionClosed() }
    }
}
