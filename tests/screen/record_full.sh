#!/bin/bash
# A recording on a full disk (a 16 KiB tmpfs, mounted where the test may:
# root; skipped otherwise): the status line says the recording stopped and
# why, and on exit the explorer says "no space left on device" with the
# file's name (never "Success") and exits 1.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
    echo "not root: no tmpfs mounted, a recording on a full disk is not tried"
    exit 77
fi
cd "$WORK/cwd" || exit 1
FULL=$WORK/cwd/full
mkdir "$FULL"
if ! mount -t tmpfs -o size=16k tmpfs "$FULL"; then
    echo "cannot mount a tmpfs: a recording on a full disk is not tried"
    exit 77
fi
# the explorer goes with the tmux server, then the file system is free
trap 'T kill-server >/dev/null 2>&1; sleep 0.3; umount "$FULL"; cleanup' EXIT
dd if=/dev/zero of="$FULL/filler" bs=4k count=16 2>/dev/null

start 100 30 -- --record full/new.rec
wait_for "The recording stopped: full/new.rec cannot be written (no space left on device)"
wait_for "recording stopped"
keys q
wait_exit 1
wait_for "full/new.rec: no space left on device"
check "no message says Success" bash -c "! tmux -L $SOCK capture-pane -p | grep -qF Success"
