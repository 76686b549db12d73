#!/usr/bin/env bash
# Benchmarks come with the speed issue; until then this says so.
echo "no benchmarks yet"
