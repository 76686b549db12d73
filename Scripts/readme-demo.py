#!/usr/bin/env python3
"""The README's "What `make demo` prints" block, kept equal to what Scripts/demo.sh prints.

    Scripts/readme-demo.py BINARY           rewrite the block in README.md from a demo run with BINARY
    Scripts/readme-demo.py BINARY --check   exit 1, showing the difference, when the block is stale

`make readme-demo` runs the first with the release binary; DocumentationTests checks the same with the debug one.
"""
import difflib
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HEADING = "## What `make demo` prints\n\n```\n"


def block_bounds(text):
    """Where the block's text starts and ends (inside the fence)."""
    start = text.index(HEADING) + len(HEADING)
    return start, text.index("\n```\n", start) + 1


def main():
    if len(sys.argv) < 2 or sys.argv[2:] not in ([], ["--check"]):
        sys.exit(__doc__)
    demo = subprocess.run([str(ROOT / "Scripts/demo.sh"), sys.argv[1]], capture_output=True, text=True, check=True)
    # The demo ends each command's output with a blank line; the block does not end with one.
    printed = demo.stdout.rstrip("\n") + "\n"
    readme = ROOT / "README.md"
    text = readme.read_text()
    start, end = block_bounds(text)
    if text[start:end] == printed:
        return
    if sys.argv[2:] == ["--check"]:
        sys.stdout.writelines(difflib.unified_diff(text[start:end].splitlines(True), printed.splitlines(True),
                                                   "README.md", "Scripts/demo.sh"))
        print("README.md's demo block is stale: run `make readme-demo`")
        sys.exit(1)
    readme.write_text(text[:start] + printed + text[end:])
    print("README.md: demo block rewritten")


if __name__ == "__main__":
    main()
