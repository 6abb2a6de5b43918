// Without this define, sd_journal_send* are C macros that add the C caller's location, which Swift cannot call.
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-journal.h>
#include <systemd/sd-daemon.h>
