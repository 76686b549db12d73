#!/usr/bin/env python3
"""Writes a version and commit into built cdstore programs (see Sources/CBuildStamp), in place.

    Scripts/stamp-version.py VERSION COMMIT PROGRAM...

Each program must hold the marker exactly once, followed by room that is still empty (NUL bytes): a program is
stamped once, from the build's copy, so that the same program and version give the same bytes.
"""
import sys

MARKER = b"@(#)cdstore-build-stamp:"
SIZE = 160  # CDSTORE_STAMP_SIZE in Sources/CBuildStamp/CBuildStamp.c


def stamp(path, text):
    data = bytearray(open(path, "rb").read())
    at = data.find(MARKER)
    if at < 0 or data.find(MARKER, at + 1) >= 0:
        sys.exit(f"stamp-version: {path} holds the marker {'more than once' if at >= 0 else 'nowhere'}")
    room = at + len(MARKER)
    end = at + SIZE - 1  # the last byte stays NUL
    if any(data[room:end + 1]):
        present = bytes(data[room:end]).split(b"\0")[0].decode()
        sys.exit(f"stamp-version: {path} is stamped already ({present})")
    if len(text) > end - room:
        sys.exit(f"stamp-version: '{text.decode()}' is longer than the {end - room} bytes the program has room for")
    data[room:room + len(text)] = text
    with open(path, "wb") as out:
        out.write(data)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip())
    version, commit, programs = sys.argv[1], sys.argv[2], sys.argv[3:]
    if not version or " " in version or " " in commit:
        sys.exit("stamp-version: VERSION must be one word and COMMIT a commit name")
    for path in programs:
        stamp(path, f"{version} {commit}".strip().encode())


main()
