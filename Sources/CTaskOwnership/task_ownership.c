// Hooks into the Swift concurrency runtime so that a session sees every task its Model starts (DESIGN §4, "Who
// owns scheduling"). Written in C because two of the three need what Swift cannot express: a function that
// replaces a runtime entry point by name, and the runtime's hook variables with its calling convention.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include "CTaskOwnership.h"

#define SWIFTCC __attribute__((swiftcall))

// libdispatch, declared here: its header sits inside the Swift toolchain, off the C compiler's default path.
struct dispatch_queue_s;
extern struct dispatch_queue_s _dispatch_main_q;
extern void dispatch_async_f(struct dispatch_queue_s *queue, void *context, void (*work)(void *));

typedef struct Job Job;
typedef struct { void *task; void *context; } AsyncTaskAndContext;
typedef struct TaskOptionRecord { size_t flags; struct TaskOptionRecord *parent; } TaskOptionRecord;
typedef struct { TaskOptionRecord base; CTaskExecutorRef executor; } TaskExecutorOptionRecord;
typedef struct { const void *identity; uintptr_t implementation; } SerialExecutorRef;

// The runtime's task option kinds (swift/ABI/TaskOptions.h) and task creation flags (swift/ABI/MetadataValues.h).
enum { OptionTaskExecutorUnowned = 5, OptionTaskExecutorOwned = 6 };
enum { FlagIsChildTask = 1 << 8, FlagCopyTaskLocals = 1 << 10 };

static CTaskOwnershipCallbacks callbacks;
static atomic_bool installed;
static atomic_long mainActorPending;

typedef SWIFTCC AsyncTaskAndContext (*TaskCreate)(size_t, TaskOptionRecord *, const void *, void *, void *);

// Every `Task {}` compiled into this executable calls this definition rather than the runtime's (the static
// linker binds the program's own symbol first). A task created inside a session, which copies the session's
// task-local, gets the session's executor as its preference, as a child task already inherits it: so its
// nonisolated work and the default actors it calls run where the session counts and orders them.
SWIFTCC AsyncTaskAndContext swift_task_create(size_t flags, TaskOptionRecord *options, const void *resultType,
                                              void *closureEntry, void *closureContext) {
    static _Atomic(TaskCreate) runtimeCreate;
    TaskCreate create = atomic_load_explicit(&runtimeCreate, memory_order_acquire);
    if (!create) {
        create = (TaskCreate)dlsym(RTLD_NEXT, "swift_task_create");
        atomic_store_explicit(&runtimeCreate, create, memory_order_release);
    }
    if (!atomic_load_explicit(&installed, memory_order_acquire) || (flags & FlagIsChildTask))
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

// The main actor is one per process, so its count of pending jobs is too: a session whose Model is isolated to it
// is settled only once the main actor's queue is empty. Main-actor jobs go to the main dispatch queue, as the
// runtime's own main executor sends them, counted in and out.
extern SWIFTCC void swift_job_run(Job *job, SerialExecutorRef executor);
extern SWIFTCC SerialExecutorRef swift_task_getMainExecutor(void);

static void runMainActorJob(void *job) {
    swift_job_run((Job *)job, swift_task_getMainExecutor());
    if (atomic_fetch_sub(&mainActorPending, 1) == 1) callbacks.mainActorDrained();
}

typedef SWIFTCC void (*EnqueueOriginal)(Job *);
static SWIFTCC void enqueueMainExecutor(Job *job, EnqueueOriginal original) {
    (void)original;
    atomic_fetch_add(&mainActorPending, 1);
    dispatch_async_f(&_dispatch_main_q, job, runMainActorJob);
}

typedef SWIFTCC void (*EnqueueDelayOriginal)(unsigned long long, Job *);
static SWIFTCC void enqueueGlobalWithDelay(unsigned long long delay, Job *job, EnqueueDelayOriginal original) {
    callbacks.wallClockSleep();
    original(delay, job);
}

typedef SWIFTCC void (*EnqueueDeadlineOriginal)(long long, long long, long long, long long, int, Job *);
static SWIFTCC void enqueueGlobalWithDeadline(long long sec, long long nsec, long long tsec, long long tnsec, int clock,
                                              Job *job, EnqueueDeadlineOriginal original) {
    callbacks.wallClockSleep();
    original(sec, nsec, tsec, tnsec, clock, job);
}

extern SWIFTCC void (*swift_task_enqueueMainExecutor_hook)(Job *, EnqueueOriginal);
extern SWIFTCC void (*swift_task_enqueueGlobalWithDelay_hook)(unsigned long long, Job *, EnqueueDelayOriginal);
extern SWIFTCC void (*swift_task_enqueueGlobalWithDeadline_hook)(long long, long long, long long, long long, int, Job *,
                                                                EnqueueDeadlineOriginal);

static pthread_mutex_t installing = PTHREAD_MUTEX_INITIALIZER;

void ctaskownership_install(CTaskOwnershipCallbacks given) {
    pthread_mutex_lock(&installing);
    if (!atomic_load_explicit(&installed, memory_order_acquire)) {
        callbacks = given;
        swift_task_enqueueMainExecutor_hook = enqueueMainExecutor;
        swift_task_enqueueGlobalWithDelay_hook = enqueueGlobalWithDelay;
        swift_task_enqueueGlobalWithDeadline_hook = enqueueGlobalWithDeadline;
        atomic_store_explicit(&installed, 1, memory_order_release);
    }
    pthread_mutex_unlock(&installing);
}

long ctaskownership_main_actor_pending(void) { return atomic_load(&mainActorPending); }
