#ifndef FTSEARCH_CSQLITE_SHIM_H
#define FTSEARCH_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro that Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
