#include "CBuildStamp.h"

// A marker followed by room for the text, in the program's read-only data. The version comes from git, which a
// compiler flag cannot carry into Swift without rebuilding every module, so Scripts/stamp-version.py writes it into
// the built program's copy instead: it finds the marker (which must occur once) and fills the room after it.
#define CDSTORE_STAMP_MARKER "@(#)cdstore-build-stamp:"
#define CDSTORE_STAMP_SIZE 160

const char cdstore_build_stamp_area[CDSTORE_STAMP_SIZE] = CDSTORE_STAMP_MARKER;

const char *cdstore_build_stamp(void) {
    return cdstore_build_stamp_area + sizeof(CDSTORE_STAMP_MARKER) - 1;
}
