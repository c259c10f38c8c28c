// The Linux file calls Glibc's Swift module does not show (they need _GNU_SOURCE).
#define _GNU_SOURCE
#include "cfile_shim.h"

#include <fcntl.h>

int cfile_open_direct(const char *path) {
    return open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
}

int cfile_allocate(int descriptor, off_t offset, off_t length) {
    return fallocate(descriptor, 0, offset, length);
}
