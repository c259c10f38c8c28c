/*
 * csqlite_shim.c: SQLite behind csqlite_shim.h.
 *
 * libsqlite3 is opened with dlopen on first use instead of being linked, as zlib and libxml2 are:
 * a DT_NEEDED entry would make the dynamic loader search one more object for every symbol of every
 * run, for a cache most requests never open. sqlite3.h is included for the types only.
 */
#define _GNU_SOURCE
#include "csqlite_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sqlite3.h>

static struct {
    __typeof__(&sqlite3_open_v2) open_v2;
    __typeof__(&sqlite3_close_v2) close_v2;
    __typeof__(&sqlite3_exec) exec;
    __typeof__(&sqlite3_errmsg) errmsg;
    __typeof__(&sqlite3_changes) changes;
    __typeof__(&sqlite3_busy_timeout) busy_timeout;
    __typeof__(&sqlite3_prepare_v2) prepare_v2;
    __typeof__(&sqlite3_step) step;
    __typeof__(&sqlite3_reset) reset;
    __typeof__(&sqlite3_finalize) finalize;
    __typeof__(&sqlite3_bind_text) bind_text;
    __typeof__(&sqlite3_bind_blob) bind_blob;
    __typeof__(&sqlite3_bind_int64) bind_int64;
    __typeof__(&sqlite3_bind_double) bind_double;
    __typeof__(&sqlite3_bind_null) bind_null;
    __typeof__(&sqlite3_column_type) column_type;
    __typeof__(&sqlite3_column_int64) column_int64;
    __typeof__(&sqlite3_column_double) column_double;
    __typeof__(&sqlite3_column_blob) column_blob;
    __typeof__(&sqlite3_column_bytes) column_bytes;
    __typeof__(&sqlite3_file_control) file_control;
} lib;

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static int lib_loaded = 0;

#define LOAD(field, name)                                                                          \
    do {                                                                                           \
        lib.field = (__typeof__(lib.field))dlsym(handle, name);                                    \
        if (!lib.field) return;                                                                    \
    } while (0)

/*
 * RTLD_DEEPBIND: SQLite's few imports are looked up in its own dependencies (libc, libm) first
 * instead of through the ~40 libraries libcurl brings in, which is most of what opening it costs
 * on a cache hit. Sanitizer runtimes refuse it, and they interpose malloc anyway.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define AFSQL_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define AFSQL_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)
#endif
#endif
#ifndef AFSQL_DLOPEN_FLAGS
#define AFSQL_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)
#endif

static void lib_load(void) {
    void *handle = dlopen("libsqlite3.so.0", AFSQL_DLOPEN_FLAGS);
    if (!handle) return;
    LOAD(open_v2, "sqlite3_open_v2");
    LOAD(close_v2, "sqlite3_close_v2");
    LOAD(exec, "sqlite3_exec");
    LOAD(errmsg, "sqlite3_errmsg");
    LOAD(changes, "sqlite3_changes");
    LOAD(busy_timeout, "sqlite3_busy_timeout");
    LOAD(prepare_v2, "sqlite3_prepare_v2");
    LOAD(step, "sqlite3_step");
    LOAD(reset, "sqlite3_reset");
    LOAD(finalize, "sqlite3_finalize");
    LOAD(bind_text, "sqlite3_bind_text");
    LOAD(bind_blob, "sqlite3_bind_blob");
    LOAD(bind_int64, "sqlite3_bind_int64");
    LOAD(bind_double, "sqlite3_bind_double");
    LOAD(bind_null, "sqlite3_bind_null");
    LOAD(column_type, "sqlite3_column_type");
    LOAD(column_int64, "sqlite3_column_int64");
    LOAD(column_double, "sqlite3_column_double");
    LOAD(column_blob, "sqlite3_column_blob");
    LOAD(column_bytes, "sqlite3_column_bytes");
    LOAD(file_control, "sqlite3_file_control");
    lib_loaded = 1;
}

int afsql_open(const char *path, int create, int busy_ms, afsql_db **db) {
    *db = NULL;
    pthread_once(&lib_once, lib_load);
    if (!lib_loaded) return AFSQL_UNAVAILABLE;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW;
    if (create) flags |= SQLITE_OPEN_CREATE;
    sqlite3 *handle = NULL;
    int result = lib.open_v2(path, &handle, flags, NULL);
    if (result != SQLITE_OK) {
        if (handle) lib.close_v2(handle);
        return result;
    }
    lib.busy_timeout(handle, busy_ms);
    *db = (afsql_db *)handle;
    return SQLITE_OK;
}

void afsql_close(afsql_db *db) {
    if (db) lib.close_v2((sqlite3 *)db);
}

int afsql_persist_wal(afsql_db *db) {
    int on = 1;
    return lib.file_control((sqlite3 *)db, "main", SQLITE_FCNTL_PERSIST_WAL, &on);
}

int afsql_exec(afsql_db *db, const char *sql) {
    return lib.exec((sqlite3 *)db, sql, NULL, NULL, NULL);
}

const char *afsql_errmsg(afsql_db *db) {
    return lib.errmsg((sqlite3 *)db);
}

int afsql_changes(afsql_db *db) {
    return lib.changes((sqlite3 *)db);
}

int afsql_prepare(afsql_db *db, const char *sql, afsql_stmt **stmt) {
    return lib.prepare_v2((sqlite3 *)db, sql, -1, (sqlite3_stmt **)stmt, NULL);
}

int afsql_step(afsql_stmt *stmt) {
    return lib.step((sqlite3_stmt *)stmt);
}

int afsql_reset(afsql_stmt *stmt) {
    return lib.reset((sqlite3_stmt *)stmt);
}

void afsql_finalize(afsql_stmt *stmt) {
    if (stmt) lib.finalize((sqlite3_stmt *)stmt);
}

int afsql_bind_text(afsql_stmt *stmt, int index, const char *text, int length) {
    return lib.bind_text((sqlite3_stmt *)stmt, index, text, length, SQLITE_TRANSIENT);
}

int afsql_bind_blob(afsql_stmt *stmt, int index, const void *bytes, int length) {
    return lib.bind_blob((sqlite3_stmt *)stmt, index, bytes, length, SQLITE_TRANSIENT);
}

int afsql_bind_int64(afsql_stmt *stmt, int index, int64_t value) {
    return lib.bind_int64((sqlite3_stmt *)stmt, index, value);
}

int afsql_bind_double(afsql_stmt *stmt, int index, double value) {
    return lib.bind_double((sqlite3_stmt *)stmt, index, value);
}

int afsql_bind_null(afsql_stmt *stmt, int index) {
    return lib.bind_null((sqlite3_stmt *)stmt, index);
}

int afsql_column_type(afsql_stmt *stmt, int index) {
    return lib.column_type((sqlite3_stmt *)stmt, index);
}

int64_t afsql_column_int64(afsql_stmt *stmt, int index) {
    return lib.column_int64((sqlite3_stmt *)stmt, index);
}

double afsql_column_double(afsql_stmt *stmt, int index) {
    return lib.column_double((sqlite3_stmt *)stmt, index);
}

const void *afsql_column_bytes(afsql_stmt *stmt, int index, int *length) {
    const void *bytes = lib.column_blob((sqlite3_stmt *)stmt, index);
    *length = lib.column_bytes((sqlite3_stmt *)stmt, index);
    return bytes;
}
