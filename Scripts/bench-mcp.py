#!/usr/bin/env python3
"""Latency of `cdstore mcp` as an assistant sees it: the Python MCP SDK (`mcp` on PyPI) calls `count` and a
50-object `fetch` CALLS times each (default 1,000) on the ROWS-row Person store (default 1,000,000, from
../shared/bench/gen_people.py and Schemas/People.json), and prints the median and p99 of each, in milliseconds.

    Scripts/bench-mcp.py .build/release/cdstore [--rows 1000000] [--calls 1000] [--store EXISTING.sqlite]

A store given with --store is used as it is (it must hold Person); otherwise one is built in a temporary folder
(not timed). Prints one Markdown table row per tool, for bench/RESULTS.md.
"""

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]


def build_store(cdstore, rows, folder):
    generator = ROOT.parent / "shared/bench/gen_people.py"
    subprocess.run([sys.executable, str(generator), "--rows", str(rows), "--out", str(folder)], check=True)
    store = folder / "people.sqlite"
    subprocess.run([cdstore, "insert", "Person", "--file", str(folder / "people.ndjson"), "--nl", "--store", str(store),
                    "--model", str(ROOT / "Schemas/People.json")], check=True, stdout=subprocess.DEVNULL)
    return store


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


async def measure(cdstore, store, calls):
    params = StdioServerParameters(command=cdstore, args=["mcp", "--store", str(store)])
    cases = {
        "count (age > 30 AND name BEGINSWITH \"A\")": ("count", {"entity": "Person", "where": 'age > 30 AND name BEGINSWITH "A"'}),
        "fetch 50 (age BETWEEN {30, 40}, sort -salary)": ("fetch", {"entity": "Person", "where": "age BETWEEN {30, 40}",
                                                                    "sort": ["-salary"], "limit": 50}),
        "fetch 50 (first page, no filter)": ("fetch", {"entity": "Person", "limit": 50}),
    }
    results = {}
    with open(os.devnull, "w") as errors:
        async with stdio_client(params, errlog=errors) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                for label, (tool, arguments) in cases.items():
                    await client.call_tool(tool, arguments)  # warm the page cache
                    samples = []
                    for _ in range(calls):
                        start = time.perf_counter()
                        result = await client.call_tool(tool, arguments)
                        samples.append((time.perf_counter() - start) * 1000)
                        assert not getattr(result, "is_error", getattr(result, "isError", False)), result.content[0].text
                    results[label] = samples
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cdstore")
    parser.add_argument("--rows", type=int, default=int(os.environ.get("ROWS", 1_000_000)))
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--store")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-mcp-") as folder:
        store = Path(arguments.store) if arguments.store else build_store(arguments.cdstore, arguments.rows, Path(folder))
        results = asyncio.run(measure(arguments.cdstore, store, arguments.calls))
    print(f"| `cdstore mcp` tool call ({arguments.calls} calls, Python MCP SDK over stdio) | median ms | p99 ms |")
    print("|---|---:|---:|")
    for label, samples in results.items():
        print(f"| {label} | {statistics.median(samples):.2f} | {percentile(samples, 0.99):.2f} |")


if __name__ == "__main__":
    main()
