import Foundation
import Logging

/// The soft limit on open files is often 1024 while the hard limit is far higher (systemd sets 1024:524288); each
/// client connection is a descriptor, so the daemon raises its soft limit to the hard one to serve many at once.
enum OpenFileLimit {
    static func raiseToHardLimit(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        let before = limit.rlim_cur
        limit.rlim_cur = limit.rlim_max
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            logger.debug("open-file limit raised from \(before) to \(limit.rlim_max)")
        } else {
            logger.notice("cannot raise the open-file limit from \(before): \(String(cString: strerror(errno)))")
        }
    }
}
