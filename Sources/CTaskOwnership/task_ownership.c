// Hooks into the Swift concurrency runtime and libdispatch so that a session sees every task its Model starts and
// what escapes it (DESIGN §4, "Who owns scheduling"). Written in C because Swift cannot express it: functions that
// take the place of the runtime's and libdispatch's by name, with the runtime's calling convention.
//
// Each replaced function F comes twice, because the Swift runtime is linked two ways:
// - dynamically (debug builds, `swift test`): the weak definition F here is the program's own, so every call to F
//   (from the program and from the shared libraries) reaches it first; it calls the library's F found by dlsym.
// - statically (`--static-swift-stdlib`, as scripts/build-deb and the package-daemon plugin link): the runtime's
//   strong F replaces the weak one here, and the link passes `-Xlinker --wrap=F` (TaskOwnership.linkerFlags) so
//   that every call to F reaches __wrap_F, which calls __real_F, the runtime's.
// A binary linked statically without those flags still works but cannot own its Models' `Task {}`s; the daemon
// says so at start (TaskOwnership.isComplete).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "CTaskOwnership.h"

#define SWIFTCC __attribute__((swiftcall))
#define WEAK __attribute__((weak))

// libdispatch, declared here: its header sits inside the Swift toolchain, off the C compiler's default path.
struct dispatch_queue_s;
extern struct dispatch_queue_s _dispatch_main_q;

typedef struct { void *task; void *context; } AsyncTaskAndContext;
typedef struct TaskOptionRecord { size_t flags; struct TaskOptionRecord *parent; } TaskOptionRecord;
typedef struct { TaskOptionRecord base; CTaskExecutorRef executor; } TaskExecutorOptionRecord;

// The runtime's task option kinds (swift/ABI/TaskOptions.h) and task creation flags (swift/ABI/MetadataValues.h).
enum { OptionTaskExecutorUnowned = 5, OptionTaskExecutorOwned = 6 };
enum { FlagIsChildTask = 1 << 8, FlagCopyTaskLocals = 1 << 10 };

static CTaskOwnershipCallbacks callbacks;
static atomic_bool installed;
static atomic_bool creationSeen;
static atomic_long mainActorPending;

static int hooksInstalled(void) { return atomic_load_explicit(&installed, memory_order_acquire); }

// The library's definition after the program's, for the dynamic build; NULL when there is none (a fully static
// executable, where the weak definition here is the only one).
static void *lookUpNext(void *_Atomic *cache, const char *name) {
    void *symbol = atomic_load_explicit(cache, memory_order_acquire);
    if (!symbol) {
        symbol = dlsym(RTLD_NEXT, name);
        atomic_store_explicit(cache, symbol, memory_order_release);
    }
    return symbol;
}

// As lookUpNext, for a function with no other way to do its work: without one the binary cannot run, so it stops
// saying why rather than jump to address 0.
static void *nextSymbol(void *_Atomic *cache, const char *name) {
    void *symbol = lookUpNext(cache, name);
    if (!symbol) {
        fprintf(stderr, "scenariod: %s has no definition but scenariod's hook: this binary was linked without the Swift "
                        "runtime or libdispatch it needs; link it as TaskOwnership.linkerFlags says "
                        "(docs/who-owns-scheduling.md, Linking)\n", name);
        abort();
    }
    return symbol;
}

// MARK: Task creation

typedef SWIFTCC AsyncTaskAndContext (*TaskCreate)(size_t, TaskOptionRecord *, const void *, void *, void *);

// A task created inside a session, which copies the session's task-local, gets the session's executor as its
// preference, as a child task already inherits it: so its nonisolated work and the default actors it calls run
// where the session counts and orders them.
static AsyncTaskAndContext createTask(TaskCreate create, size_t flags, TaskOptionRecord *options, const void *resultType,
                                      void *closureEntry, void *closureContext) {
    atomic_store_explicit(&creationSeen, 1, memory_order_relaxed);
    if (!hooksInstalled() || (flags & FlagIsChildTask))
        return create(flags, options, resultType, closureEntry, closureContext);
    if (!(flags & FlagCopyTaskLocals)) {
        callbacks.detachedTaskCreated();
        return create(flags, options, resultType, closureEntry, closureContext);
    }
    for (TaskOptionRecord *record = options; record; record = record->parent) {
        size_t kind = record->flags & 0xff;
        if (kind == OptionTaskExecutorUnowned || kind == OptionTaskExecutorOwned)
            return create(flags, options, resultType, closureEntry, closureContext);
    }
    CTaskExecutorRef executor = callbacks.preferredExecutor();
    if (!executor.identity) return create(flags, options, resultType, closureEntry, closureContext);
    TaskExecutorOptionRecord record = { { OptionTaskExecutorOwned, options }, executor };
    return create(flags, &record.base, resultType, closureEntry, closureContext);
}

WEAK SWIFTCC AsyncTaskAndContext swift_task_create(size_t flags, TaskOptionRecord *options, const void *resultType,
                                                   void *closureEntry, void *closureContext) {
    static void *_Atomic cache;
    return createTask((TaskCreate)nextSymbol(&cache, "swift_task_create"), flags, options, resultType, closureEntry, closureContext);
}

extern WEAK SWIFTCC AsyncTaskAndContext __real_swift_task_create(size_t, TaskOptionRecord *, const void *, void *, void *);
SWIFTCC AsyncTaskAndContext __wrap_swift_task_create(size_t flags, TaskOptionRecord *options, const void *resultType,
                                                     void *closureEntry, void *closureContext) {
    return createTask(__real_swift_task_create, flags, options, resultType, closureEntry, closureContext);
}

int ctaskownership_creation_hooked(void) { return atomic_load_explicit(&creationSeen, memory_order_relaxed); }

// MARK: Dispatch

// The Swift runtime sleeps (`Task.sleep`, `ContinuousClock.sleep`) with dispatch_after_f, and
// `DispatchQueue.async`/`asyncAfter` call dispatch_async/dispatch_after. Each tells Swift, which asks whether the
// calling task belongs to a session, then calls libdispatch's own.
static __thread int infrastructure;
void ctaskownership_set_infrastructure(int on) { infrastructure = on; }

static int watching(void) { return hooksInstalled() && !infrastructure; }

typedef void (*AfterF)(uint64_t, struct dispatch_queue_s *, void *, void (*)(void *));
typedef void (*After)(uint64_t, struct dispatch_queue_s *, void *);
typedef void (*Async)(struct dispatch_queue_s *, void *);

WEAK void dispatch_after_f(uint64_t when, struct dispatch_queue_s *queue, void *context, void (*work)(void *)) {
    static void *_Atomic cache;
    if (watching()) callbacks.wallClockSleep();
    ((AfterF)nextSymbol(&cache, "dispatch_after_f"))(when, queue, context, work);
}

extern WEAK void __real_dispatch_after_f(uint64_t, struct dispatch_queue_s *, void *, void (*)(void *));
void __wrap_dispatch_after_f(uint64_t when, struct dispatch_queue_s *queue, void *context, void (*work)(void *)) {
    if (watching()) callbacks.wallClockSleep();
    __real_dispatch_after_f(when, queue, context, work);
}

WEAK void dispatch_after(uint64_t when, struct dispatch_queue_s *queue, void *block) {
    static void *_Atomic cache;
    if (watching()) callbacks.dispatchQueueUsed(1);
    ((After)nextSymbol(&cache, "dispatch_after"))(when, queue, block);
}

extern WEAK void __real_dispatch_after(uint64_t, struct dispatch_queue_s *, void *);
void __wrap_dispatch_after(uint64_t when, struct dispatch_queue_s *queue, void *block) {
    if (watching()) callbacks.dispatchQueueUsed(1);
    __real_dispatch_after(when, queue, block);
}

WEAK void dispatch_async(struct dispatch_queue_s *queue, void *block) {
    static void *_Atomic cache;
    if (watching()) callbacks.dispatchQueueUsed(0);
    ((Async)nextSymbol(&cache, "dispatch_async"))(queue, block);
}

extern WEAK void __real_dispatch_async(struct dispatch_queue_s *, void *);
void __wrap_dispatch_async(struct dispatch_queue_s *queue, void *block) {
    if (watching()) callbacks.dispatchQueueUsed(0);
    __real_dispatch_async(queue, block);
}

// MARK: The wall clock

// `Date()` reads clock_gettime(CLOCK_REALTIME). Only a read inside a task can be a Model's, so the check costs a
// thread-local load elsewhere (NIO's event loops, libdispatch); Swift then asks whether the task is a session's.
// The runtime's own clocks (ContinuousClock, SuspendingClock, Task.sleep's deadlines) read other clock ids.
// Only the weak definition, no __wrap_ variant: libc stays a shared library in a static Swift link too, and a
// definition in the program takes a shared library's place at link time.
extern SWIFTCC void *swift_task_getCurrent(void);
typedef int (*ClockGettime)(clockid_t, struct timespec *);

WEAK int clock_gettime(clockid_t clock, struct timespec *time) {
    static void *_Atomic cache;
    if (clock == CLOCK_REALTIME && watching() && swift_task_getCurrent()) {
        // The report reads no clock, but whatever it calls must not come back here.
        infrastructure = 1;
        callbacks.wallClockRead();
        infrastructure = 0;
    }
    ClockGettime next = (ClockGettime)lookUpNext(&cache, "clock_gettime");
    // In a fully static executable (`-static-executable`) this definition is libc's only one, and dlsym finds none:
    // ask the kernel, as libc would.
    return next ? next(clock, time) : (int)syscall(SYS_clock_gettime, clock, time);
}

// MARK: The main actor

// The main actor is one per process, but a session's jobs on it are the session's: the runtime sends main-actor jobs
// to the main dispatch queue with dispatch_async_f (Swift 6.3's MainActor executor calls it directly, not through the
// runtime's enqueueMainExecutor hook), so every function sent there is counted, and the one sent from a job of a
// session's (`owner`, set while the job runs) is counted as that session's.
//
// A session's job runs one at a time wherever it runs: a main-actor job sent from a job of the session is held until
// that job returns and only then sent, and the session's executor takes no job while one of its main-actor jobs is
// pending (SessionExecutor). So what becomes ready, and in what order, follows from the session's own steps, never
// from how two threads happen to race: the schedule seed then names one run for a `@MainActor` Model as for an actor.
typedef void (*AsyncF)(struct dispatch_queue_s *, void *, void (*)(void *));
typedef struct MainQueueWork {
    void *context;
    void (*work)(void *);
    void *owner;
    AsyncF send;
    struct MainQueueWork *next;
} MainQueueWork;

static __thread void *owner;
static void runMainQueueWork(void *given);
// Main-actor jobs sent by the running job of a session's, to send once it returns, oldest first.
static __thread MainQueueWork *heldFirst, *heldLast;

static void sendHeld(void) {
    while (heldFirst) {
        MainQueueWork *work = heldFirst;
        heldFirst = work->next;
        if (!heldFirst) heldLast = NULL;
        work->next = NULL;
        work->send(&_dispatch_main_q, work, runMainQueueWork);
    }
}

void *ctaskownership_begin_job(void *session) {
    void *previous = owner;
    owner = session;
    return previous;
}

void ctaskownership_end_job(void *previous) {
    sendHeld();
    owner = previous;
}

void *ctaskownership_current_owner(void) { return owner; }

static void runMainQueueWork(void *given) {
    MainQueueWork *work = given;
    if (!work->owner) {
        void *context = work->context;
        void (*function)(void *) = work->work;
        free(work);
        function(context);
        if (atomic_fetch_sub(&mainActorPending, 1) == 1) callbacks.mainActorDrained();
        return;
    }
    // The session's job, on the main thread: what it sends to the main queue is the session's too.
    void *previous = ctaskownership_begin_job(work->owner);
    work->work(work->context);
    ctaskownership_end_job(previous);
    void *session = work->owner;
    free(work);
    callbacks.mainActorJobRan(session);
}

static void asyncF(AsyncF original, struct dispatch_queue_s *queue, void *context, void (*work)(void *)) {
    MainQueueWork *counted = queue == &_dispatch_main_q && hooksInstalled() ? malloc(sizeof *counted) : NULL;
    if (!counted) {
        original(queue, context, work);
        return;
    }
    *counted = (MainQueueWork){ context, work, owner, original, NULL };
    // Counted before it is sent: the job that sent it is still running, so no settle sees a gap.
    if (!owner) {
        atomic_fetch_add(&mainActorPending, 1);
        original(queue, counted, runMainQueueWork);
        return;
    }
    callbacks.mainActorJobSent(owner);
    if (heldLast) heldLast->next = counted; else heldFirst = counted;
    heldLast = counted;
}

WEAK void dispatch_async_f(struct dispatch_queue_s *queue, void *context, void (*work)(void *)) {
    static void *_Atomic cache;
    asyncF((AsyncF)nextSymbol(&cache, "dispatch_async_f"), queue, context, work);
}

extern WEAK void __real_dispatch_async_f(struct dispatch_queue_s *, void *, void (*)(void *));
void __wrap_dispatch_async_f(struct dispatch_queue_s *queue, void *context, void (*work)(void *)) {
    asyncF(__real_dispatch_async_f, queue, context, work);
}

static pthread_mutex_t installing = PTHREAD_MUTEX_INITIALIZER;

void ctaskownership_install(CTaskOwnershipCallbacks given) {
    pthread_mutex_lock(&installing);
    if (!hooksInstalled()) {
        callbacks = given;
        atomic_store_explicit(&installed, 1, memory_order_release);
    }
    pthread_mutex_unlock(&installing);
}

long ctaskownership_main_actor_pending(void) { return atomic_load(&mainActorPending); }
