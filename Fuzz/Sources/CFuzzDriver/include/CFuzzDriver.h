#ifndef CFUZZDRIVER_H
#define CFUZZDRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (in the runtime linked by -sanitize=fuzzer): parses libFuzzer's command line and runs
/// `callback` on each input. The fuzz targets call it from their `@main`, since SwiftPM renames an executable's
/// entry point and libFuzzer's own `main` is then not the one that runs.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
