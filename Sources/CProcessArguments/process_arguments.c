// The argument vector for Swift's CommandLine, taken from glibc instead of /proc/self/maps.
//
// On Linux the Swift runtime finds argv from a C++ static constructor that reads and parses
// /proc/self/maps to locate the initial stack, then walks back from `environ`. With the ~35
// shared objects libcurl brings in, that file is ~180 lines and building it in the kernel plus
// scanning it costs about a quarter of a millisecond on every run: a few percent of a local
// request. glibc passes (argc, argv, envp) to every function in the executable's .init_array, so
// afcli records them there and defines the runtime's two argv entry points itself. The linker
// then never pulls the runtime's CommandLine object out of the static libswiftCore.a.
//
// The two functions below keep the runtime's contract (Swift calling convention, the override
// taking precedence). This target is linked into the afcli executable only, never into tests.
#include "process_arguments.h"

#include <stddef.h>

static char **recorded_argv;
static int recorded_argc;
static char **override_argv;
static int override_argc;
static char *empty_argv[] = {NULL};

static void record_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    recorded_argc = argc;
    recorded_argv = argv;
}

// Runs before any Swift code, as the runtime's own constructor would have.
__attribute__((section(".init_array"), used)) static void (*const record_arguments_entry)(
    int, char **, char **) = record_arguments;

__attribute__((swiftcall, visibility("hidden"))) void _swift_stdlib_overrideUnsafeArgvArgc(
    char **argv, int argc) {
    override_argv = argv;
    override_argc = argc;
}

__attribute__((swiftcall, visibility("hidden"))) char **_swift_stdlib_getUnsafeArgvArgc(
    int *outArgLen) {
    if (override_argv != NULL) {
        *outArgLen = override_argc;
        return override_argv;
    }
    if (recorded_argv == NULL) {
        *outArgLen = 0;
        return empty_argv;
    }
    *outArgLen = recorded_argc;
    return recorded_argv;
}
