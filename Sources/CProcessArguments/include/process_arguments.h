// afcli's executable hands its argument vector to the Swift runtime (see process_arguments.c).
// Nothing here is called from Swift: the target only defines the runtime's argv entry points.
#ifndef AFCLI_PROCESS_ARGUMENTS_H
#define AFCLI_PROCESS_ARGUMENTS_H
#endif
