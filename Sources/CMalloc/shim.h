// glibc's allocator statistics (mallinfo2), which Swift's Glibc module does not include: the daemon's metrics tell
// memory in use from freed memory the allocator keeps.
#include <malloc.h>
