#ifndef FTSEARCH_CSQLITE_SHIM_H
#define FTSEARCH_CSQLITE_SHIM_H

#include <sqlite3.h>
#include <stddef.h>

/// SQLITE_TRANSIENT is a cast macro that Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// The connection's FTS5 API, or NULL when FTS5 is missing.
/// See https://sqlite.org/fts5.html#extending_fts5 ("SELECT fts5(?1)" with a bound pointer).
static inline fts5_api *csqlite_fts5_api(sqlite3 *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) != SQLITE_OK) {
        return NULL;
    }
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    return api;
}

/// sqlite3_db_config for the options that take an int and an int* (variadic in C, so not
/// importable): https://sqlite.org/c3ref/c_dbconfig_defensive.html
static inline int csqlite_db_config_int(sqlite3 *db, int option, int value) {
    return sqlite3_db_config(db, option, value, (int *)NULL);
}

#endif
