// afcli's executable hands its argument vector to the Swift runtime (see process_arguments.c).
// Nothing here is called from Swift; the header exists because SwiftPM C targets need one.
#ifndef AFCLI_PROCESS_ARGUMENTS_H
#define AFCLI_PROCESS_ARGUMENTS_H

/// The number of arguments glibc passed to the executable's constructors (0 before they ran).
int afcli_process_argument_count(void);

#endif
