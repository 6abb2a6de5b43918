// Public only so that the inlinable lock can call the annotations; nothing of it is in Services' API.
public import CThreadSanitizer
public import Synchronization

extension Mutex where Value: ~Copyable {
    /// `withLock`, told to ThreadSanitizer: the standard library's Mutex locks with atomics TSan does not see, so
    /// under `swift test --sanitize=thread` every access under a plain `withLock` is reported as a race and a real
    /// race hides among them. scenariod's code locks its Mutexes with this; outside a sanitized build it costs two
    /// tests of a NULL function pointer.
    @inlinable
    package borrowing func withCheckedLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        // The Mutex's own address (it is never moved: a Mutex is borrowed in place) names the lock to the sanitizer.
        let address = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
        return try withLock { (value: inout sending Value) throws(E) -> sending Result in
            cthreadsanitizer_acquire(address)
            defer { cthreadsanitizer_release(address) }
            return try body(&value)
        }
    }
}
