import Foundation

/// Who may use the control socket beyond what its file mode allows: an optional allow-list of users and groups.
/// With an empty list, everyone who can open the socket (owner and group, mode 0660) may use it.
public struct AccessPolicy: Sendable, Hashable {
    /// Users allowed by uid.
    public var uids: Set<UInt32>
    /// Groups allowed by gid: a caller whose primary or supplementary groups include one is allowed.
    public var gids: Set<UInt32>

    /// No allow-list: the socket's file mode decides.
    public static let open = AccessPolicy(uids: [], gids: [])

    /// Creates a policy.
    public init(uids: Set<UInt32>, gids: Set<UInt32>) {
        self.uids = uids
        self.gids = gids
    }

    /// Whether there is an allow-list at all.
    public var isRestricted: Bool { !uids.isEmpty || !gids.isEmpty }

    /// Whether `peer` may use the socket. The daemon's own user always may.
    public func allows(_ peer: PeerCredentials) -> Bool {
        guard isRestricted else { return true }
        if peer.uid == geteuid() || uids.contains(peer.uid) || gids.contains(peer.gid) { return true }
        return !gids.isDisjoint(with: Self.groups(ofUser: peer.uid))
    }

    /// The supplementary groups of the user `uid` (from the user and group databases), empty when unknown.
    static func groups(ofUser uid: UInt32) -> Set<UInt32> {
        guard let entry = getpwuid(uid) else { return [] }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(entry.pointee.pw_name, entry.pointee.pw_gid, &groups, &count) == -1 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(entry.pointee.pw_name, entry.pointee.pw_gid, &groups, &count) != -1 else { return [] }
        }
        return Set(groups.prefix(Int(count)))
    }

    /// The sentence a refused caller reads.
    func refusal(for peer: PeerCredentials) -> String {
        let users = uids.sorted().map(String.init).joined(separator: ", ")
        let groups = gids.sorted().map { gid in getgrgid(gid).map { String(cString: $0.pointee.gr_name) } ?? String(gid) }
            .joined(separator: ", ")
        return "\(peer) is not allowed to use this socket; scenariod allows uids [\(users)] and groups [\(groups)] (--allow-uid, --allow-group). Ask its administrator to add you."
    }
}
