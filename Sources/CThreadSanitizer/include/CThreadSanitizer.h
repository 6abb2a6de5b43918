#ifndef CTHREADSANITIZER_H
#define CTHREADSANITIZER_H

// ThreadSanitizer's annotations of a happens-before edge, for locks it cannot see: Synchronization.Mutex takes its
// futex with atomics in the (uninstrumented) standard library, so TSan would call every access under it a race.
// The functions are weak: in a binary without the sanitizer's runtime they are NULL and these calls do nothing.

void __tsan_acquire(void *_Nonnull address) __attribute__((weak));
void __tsan_release(void *_Nonnull address) __attribute__((weak));

/// A lock at `address` was taken: what the last holder did before releasing it happened before what follows.
static inline void cthreadsanitizer_acquire(void *_Nonnull address) {
    if (__tsan_acquire) __tsan_acquire(address);
}

/// The lock at `address` is about to be released.
static inline void cthreadsanitizer_release(void *_Nonnull address) {
    if (__tsan_release) __tsan_release(address);
}

#endif
