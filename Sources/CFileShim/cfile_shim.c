// The Linux file calls Glibc's Swift module does not show (they need _GNU_SOURCE).
#define _GNU_SOURCE
#include "cfile_shim.h"

#include <fcntl.h>

int cfile_open_direct(const char *path) {
    // O_NOFOLLOW and O_NONBLOCK: a link or FIFO put at the name is refused, never waited on
    // (the caller checks that the descriptor is its partial file). O_NONBLOCK is cleared again,
    // so no write is ever cut short with EAGAIN.
    int descriptor = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (descriptor >= 0) {
        int flags = fcntl(descriptor, F_GETFL);
        if (flags >= 0) fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK);
    }
    return descriptor;
}

int cfile_allocate(int descriptor, off_t offset, off_t length) {
    return fallocate(descriptor, 0, offset, length);
}
