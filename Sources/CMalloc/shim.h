// glibc's allocator statistics (mallinfo2), which Swift's Glibc module does not include: the daemon's metrics tell
// memory in use from freed memory the allocator keeps.
#include <malloc.h>

// Swift imports both `struct mallinfo2` and the function `mallinfo2()` under one name, and may take `mallinfo2()`
// for the struct's zero initializer (it did, once the module graph grew): this name is only the function.
static inline struct mallinfo2 scenariod_mallinfo2(void) { return mallinfo2(); }
