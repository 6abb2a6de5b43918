#ifndef CTASKOWNERSHIP_H
#define CTASKOWNERSHIP_H

// scenariod builds for Linux only (Package.swift names no other platform): these hooks take the place of Swift runtime
// and libdispatch functions through the GNU linker's --wrap, and the daemon reads SO_PEERCRED, glibc's mallinfo2 and
// libsystemd. Every engine module depends on this one, so a build elsewhere stops here with the reason.
#if !defined(__linux__)
#error "scenariod builds for Linux only: its engine replaces Swift runtime functions through the GNU linker's --wrap, and its daemon needs SO_PEERCRED and libsystemd."
#endif

#include <stddef.h>
#include <stdint.h>

/// A task executor as the runtime's owned task-executor option holds it: an `any TaskExecutor`, the executor object
/// and its `TaskExecutor` witness table.
typedef struct {
    const void *_Nullable identity;
    uintptr_t implementation;
} CTaskExecutorRef;

/// What the runtime hooks ask of Swift. Each is called on the thread that does the work, inside the task that
/// does it, so a task-local read there names the session.
typedef struct {
    /// For a `Task {}` that copies task-locals and names no executor: a +1 executor to prefer, or identity NULL.
    CTaskExecutorRef (*_Nonnull preferredExecutor)(void);
    /// A `Task.detached` was created (it copies no task-locals, so its session cannot see it).
    void (*_Nonnull detachedTaskCreated)(void);
    /// A job was enqueued to run after a wall-clock delay (`Task.sleep` on the continuous or suspending clock).
    void (*_Nonnull wallClockSleep)(void);
    /// A task read the wall clock (`Date()`: `clock_gettime(CLOCK_REALTIME)`).
    void (*_Nonnull wallClockRead)(void);
    /// A block was sent to a dispatch queue: `DispatchQueue.async` (0) or `asyncAfter` (1).
    void (*_Nonnull dispatchQueueUsed)(int afterDelay);
    /// The main actor's queue ran its last pending job sent from outside any session's job.
    void (*_Nonnull mainActorDrained)(void);
    /// A job of the session `owner` (the value given to `ctaskownership_begin_job`) sent a job to the main actor's
    /// queue: it is held until the sending job returns, then sent.
    void (*_Nonnull mainActorJobSent)(void *_Nonnull owner);
    /// A main-actor job of the session `owner` has run, and what it sent to the main queue has been sent.
    void (*_Nonnull mainActorJobRan)(void *_Nonnull owner);
} CTaskOwnershipCallbacks;

/// Installs the hooks once per process; later calls do nothing.
void ctaskownership_install(CTaskOwnershipCallbacks callbacks);

/// Marks the calling thread as running a job of the session `owner` (NULL: of none) until
/// `ctaskownership_end_job`, and returns the mark it had (for `end_job`): a main-actor job the job sends is the
/// session's, and is held until the job returns.
void *_Nullable ctaskownership_begin_job(void *_Nullable owner);

/// Ends the job `begin_job` marked: sends the main-actor jobs it held, in the order it sent them, and puts back the
/// mark `previous`.
void ctaskownership_end_job(void *_Nullable previous);

/// The session whose job the calling thread is running (the mark `begin_job` set), or NULL.
void *_Nullable ctaskownership_current_owner(void);

/// The main-actor jobs sent from outside any session's job and not yet finished, process-wide.
long ctaskownership_main_actor_pending(void);

/// Whether a task creation has passed through the hook since the process started: false in a binary linked with a
/// static Swift runtime but without `--wrap=swift_task_create`.
int ctaskownership_creation_hooked(void);

/// Marks the calling thread as doing scenariod's own dispatch work (1) or not (0): a session's executor queues its
/// jobs with `DispatchQueue.async`, which is no escape of the Model's.
void ctaskownership_set_infrastructure(int on);

#endif
