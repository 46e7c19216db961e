#!/bin/sh
# Lint the files named on the command line.
for f in "$@"; do
  echo "checking $f"
done
