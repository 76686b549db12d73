#!/usr/bin/env python3
"""Fails when the last build left a compiler warning in the project's own files (Sources/, Tests/).

Usage: Scripts/compiler-warnings.py BUILD_DIR...   (e.g. .build/debug, .build/release)

The compiler writes each source file's diagnostics to a serialized-diagnostics file (.dia) next to its object
file, and rewrites it whenever it compiles that file again. Reading those files instead of the build's output
finds every warning after an incremental build too, where the output only shows the files compiled this time;
and it costs no second build. Which .dia belongs to which source comes from each module's
output-file-map.json, so files deleted from the project (whose .dia may linger) do not count.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
OWN = tuple(os.path.join(ROOT, folder) + os.sep for folder in ("Sources", "Tests"))
LEVELS = {1: "note", 2: "warning", 3: "error", 4: "fatal error", 5: "remark"}


class Bits:
    """An LLVM bitstream, read least significant bit first."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def read(self, width):
        value = 0
        for i in range(width):
            byte = self.data[(self.pos + i) >> 3]
            value |= ((byte >> ((self.pos + i) & 7)) & 1) << i
        self.pos += width
        return value

    def vbr(self, width):
        value, shift, high = 0, 0, 1 << (width - 1)
        while True:
            chunk = self.read(width)
            value |= (chunk & (high - 1)) << shift
            shift += width - 1
            if not chunk & high:
                return value

    def align32(self):
        self.pos = (self.pos + 31) & ~31

    def at_end(self):
        return self.pos + 32 > len(self.data) * 8


def read_abbrev(bits):
    ops = []
    for _ in range(bits.vbr(5)):
        if bits.read(1):
            ops.append(("literal", bits.vbr(8)))
        else:
            kind = bits.read(3)
            ops.append((kind, bits.vbr(5) if kind in (1, 2) else 0))
    return ops


def read_scalar(bits, op):
    kind, width = op
    return {1: lambda: bits.read(width), 2: lambda: bits.vbr(width), 4: lambda: bits.read(6)}[kind]()


def read_abbreviated(bits, ops):
    """The values of a record and its blob (bytes or None)."""
    values, blob = [], None
    i = 0
    while i < len(ops):
        kind, value = ops[i]
        if kind == "literal":
            values.append(value)
        elif kind == 3:  # array of the next operand
            values.extend(read_scalar(bits, ops[i + 1]) for _ in range(bits.vbr(6)))
            i += 1
        elif kind == 5:  # blob
            length = bits.vbr(6)
            bits.align32()
            start = bits.pos >> 3
            blob = bytes(bits.data[start:start + length])
            bits.pos += length * 8
            bits.align32()
        else:
            values.append(read_scalar(bits, ops[i]))
        i += 1
    return values, blob


def records(data):
    """(block id, record code, values, blob) of every record in a serialized-diagnostics file, in order."""
    if data[:4] != b"DIAG":
        raise ValueError("not a serialized diagnostics file")
    bits = Bits(data)
    bits.pos = 32
    block_info = {}                      # block id -> abbreviations from the BLOCKINFO block
    stack = [(None, 2, [])]              # (block id, abbreviation width, abbreviations)
    info_target = None
    while not bits.at_end():
        block, width, abbrevs = stack[-1]
        code = bits.read(width)
        if code == 0:                    # END_BLOCK
            bits.align32()
            stack.pop()
            if not stack:
                break
        elif code == 1:                  # ENTER_SUBBLOCK
            new_block, new_width = bits.vbr(8), bits.vbr(4)
            bits.align32()
            bits.read(32)                # length in words
            stack.append((new_block, new_width, list(block_info.get(new_block, []))))
        elif code == 2:                  # DEFINE_ABBREV
            abbrev = read_abbrev(bits)
            if block == 0:
                block_info.setdefault(info_target, []).append(abbrev)
            else:
                abbrevs.append(abbrev)
        elif code == 3:                  # UNABBREV_RECORD
            record, count = bits.vbr(6), bits.vbr(6)
            values = [bits.vbr(6) for _ in range(count)]
            if block == 0 and record == 1:   # SETBID
                info_target = values[0]
            else:
                yield block, record, values, None
        else:
            ops = abbrevs[code - 4]
            values, blob = read_abbreviated(bits, ops)
            yield block, values[0], values[1:], blob


def diagnostics(path):
    """(level, file, line, column, message) of each diagnostic in one .dia file."""
    files, found = {}, []
    for block, record, values, blob in records(open(path, "rb").read()):
        text = blob.decode("utf-8", "replace") if blob is not None else ""
        if block == 9 and record == 6:       # RECORD_FILENAME: id, size, time, name
            files[values[0]] = text
        elif block == 9 and record == 2:     # RECORD_DIAG: level, file id, line, column, offset, category, flag, text
            level, file_id, line, column = values[:4]
            file = os.path.realpath(files[file_id]) if file_id in files else "<unknown>"
            found.append((LEVELS.get(level, str(level)), file, line, column, text))
    return found


def main(build_dirs):
    checked, warnings = 0, []
    for build_dir in build_dirs:
        if not os.path.isdir(build_dir):
            sys.exit(f"warnings: no build in {build_dir}")
        for entry in sorted(os.listdir(build_dir)):
            file_map = os.path.join(build_dir, entry, "output-file-map.json")
            if not entry.endswith(".build") or not os.path.isfile(file_map):
                continue
            entries = json.load(open(file_map))
            sources = {os.path.realpath(key) for key in entries if key and os.path.realpath(key).startswith(OWN)}
            if not sources:
                continue
            # A .dia per file (debug builds); the module's own for a whole-module build (release) and for the
            # job that emits the module's interface. Each is rewritten whenever the module compiles again.
            module = os.path.join(build_dir, entry, entry[:-len(".build")])
            files = [(outputs.get("diagnostics"), {os.path.realpath(key)} & sources)
                     for key, outputs in entries.items() if key]
            files += [(module + ".dia", sources), (module + ".emit-module.dia", sources)]
            for dia, owners in files:
                if not owners or not dia or not os.path.isfile(dia):
                    continue
                checked += 1
                found = diagnostics(dia)
                for index, (level, file, line, column, text) in enumerate(found):
                    if level != "warning":
                        continue
                    if not file.startswith(ROOT):
                        # In code a macro expanded: a note leads back to the line in the source file.
                        notes = [n for n in found[index + 1:] if n[0] == "note" and n[1].startswith(ROOT)]
                        if not notes:
                            continue
                        file, line, column = notes[0][1:4]
                    # In batch mode a file's .dia also holds the other files' diagnostics of that compile; those
                    # count only in their own file's .dia, which is the one rewritten when that file compiles again.
                    if file in owners:
                        warnings.append(f"{os.path.relpath(file, ROOT)}:{line}:{column}: warning: {text}")
    if checked == 0:
        sys.exit(f"warnings: no diagnostics files of Sources/ or Tests/ under {' '.join(build_dirs)} (not built yet?)")
    for warning in sorted(set(warnings)):
        print(warning)
    if warnings:
        sys.exit(f"warnings: {len(set(warnings))} compiler warning(s) in Sources/ and Tests/ ({checked} diagnostics files read)")
    print(f"warnings: none ({checked} diagnostics files of Sources/ and Tests/ read)")


if __name__ == "__main__":
    main(sys.argv[1:] or [".build/debug"])
