#ifndef CDSTORE_BUILD_STAMP_H
#define CDSTORE_BUILD_STAMP_H

/// The version and commit stamped into a built program by `Scripts/stamp-version.py` ("0.1.0+3.g1a2b3c4 1a2b3c4…"),
/// or "" in a program nobody stamped (a plain `swift build`).
const char *cdstore_build_stamp(void);

#endif
