#!/usr/bin/env bash
# Builds h2spec, the HTTP/2 conformance suite the tests run (H2specTest), into .brisk/tools/h2spec,
# at the versions go.mod and go.sum here pin, from the Go module proxy. Needs a Go toolchain (1.19 or
# newer: .ci/run installs Debian's golang-go when none is there). Does nothing when the binary is
# already built from this go.sum. Prints the binary's path; exit 1 (with a reason) when it cannot build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tools="$root/.brisk/tools"
bin="$tools/h2spec"
stamp="$tools/h2spec.sum"
if [ -x "$bin" ] && [ -f "$stamp" ] && cmp -s "$stamp" "$here/go.sum"; then
  echo "$bin"
  exit 0
fi
command -v go >/dev/null 2>&1 || { echo "h2spec: no Go toolchain on the PATH" >&2; exit 1; }
mkdir -p "$tools"
# the pinned go.mod and go.sum, read-only; no toolchain download
(cd "$here" && GOFLAGS=-mod=readonly GOTOOLCHAIN=local CGO_ENABLED=0 \
   timeout 600 go build -o "$bin" github.com/summerwind/h2spec/cmd/h2spec) >&2 \
  || { echo "h2spec: go build failed" >&2; exit 1; }
cp "$here/go.sum" "$stamp"
echo "$bin"
