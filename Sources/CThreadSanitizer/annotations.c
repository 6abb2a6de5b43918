// The annotations are static inline functions in include/CThreadSanitizer.h; SwiftPM builds a C target only from a
// source file, so this one is here to carry the header.
#include "CThreadSanitizer.h"
