/*
 * csqlite_shim.h: the few SQLite calls the response cache makes, behind opaque handles.
 *
 * SQLite is opened with dlopen on first use (see csqlite_shim.c), so a run that does not use the
 * cache pays nothing for it; only this shim's .c file includes <sqlite3.h>.
 */
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct afsql_db afsql_db;
typedef struct afsql_stmt afsql_stmt;

enum {
    AFSQL_OK = 0,
    AFSQL_BUSY = 5,
    AFSQL_ROW = 100,
    AFSQL_DONE = 101,
    /* Returned when libsqlite3 cannot be loaded. */
    AFSQL_UNAVAILABLE = -1,
};

enum {
    AFSQL_NULL = 5,
};

/*
 * Opens (creating when `create` is nonzero) the database at `path` read-write, refusing a symbolic
 * link at the path (SQLITE_OPEN_NOFOLLOW), with a busy timeout of `busy_ms`. Sets *db to NULL on
 * failure; returns an SQLite result code, or AFSQL_UNAVAILABLE.
 */
int afsql_open(const char *path, int create, int busy_ms, afsql_db **db);
void afsql_close(afsql_db *db);
/*
 * Keeps the -wal and -shm files when the last connection closes (SQLITE_FCNTL_PERSIST_WAL), so
 * that the next afcli neither deletes nor recreates them.
 */
int afsql_persist_wal(afsql_db *db);
/* Runs one or more statements without results. */
int afsql_exec(afsql_db *db, const char *sql);
/* The last error's message (valid until the next call on `db`). */
const char *afsql_errmsg(afsql_db *db);
/* Rows changed by the last statement. */
int afsql_changes(afsql_db *db);

int afsql_prepare(afsql_db *db, const char *sql, afsql_stmt **stmt);
int afsql_step(afsql_stmt *stmt);
int afsql_reset(afsql_stmt *stmt);
void afsql_finalize(afsql_stmt *stmt);

/* Binding: indexes start at 1; text and blobs are copied. */
int afsql_bind_text(afsql_stmt *stmt, int index, const char *text, int length);
int afsql_bind_blob(afsql_stmt *stmt, int index, const void *bytes, int length);
int afsql_bind_int64(afsql_stmt *stmt, int index, int64_t value);
int afsql_bind_double(afsql_stmt *stmt, int index, double value);
int afsql_bind_null(afsql_stmt *stmt, int index);

/* Columns: indexes start at 0. */
int afsql_column_type(afsql_stmt *stmt, int index);
int64_t afsql_column_int64(afsql_stmt *stmt, int index);
double afsql_column_double(afsql_stmt *stmt, int index);
/* The column's bytes (text or blob) and their length; NULL with length 0 for NULL or empty. */
const void *afsql_column_bytes(afsql_stmt *stmt, int index, int *length);

#ifdef __cplusplus
}
#endif

#endif /* CSQLITE_SHIM_H */
