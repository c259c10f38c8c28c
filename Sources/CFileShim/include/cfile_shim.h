#ifndef CFILE_SHIM_H
#define CFILE_SHIM_H

#include <sys/types.h>

/// Opens `path` for writing with O_DIRECT (and O_CLOEXEC, O_NOFOLLOW, O_NONBLOCK); -1 with errno
/// set when it cannot.
int cfile_open_direct(const char *path);

/// fallocate(2) with mode 0: allocates [offset, offset + length) and grows the file to cover
/// it; -1 with errno set when the file system cannot (never emulated by writing zeros, unlike
/// posix_fallocate).
int cfile_allocate(int descriptor, off_t offset, off_t length);

#endif
