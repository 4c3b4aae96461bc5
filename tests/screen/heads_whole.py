#!/usr/bin/env python3
"""heads_whole.py HEADS LEN < screen: every head of the training screen (of
each pane: HEADS is "2", or "2,4" for two panes side by side) is shown whole -- its title ("head N" or "hN"), its column numbers and one
labelled row per position of the sample -- above the lesson pane's title and
the last two lines (message and status).  Prints what is missing and exits 1,
or exits 0."""
import re
import sys

panes = [int(h) for h in sys.argv[1].split(",")]
length = int(sys.argv[2])
lines = sys.stdin.read().split("\n")
while lines and not lines[-1].strip():
    lines.pop()
# the training screen ends where the lesson pane below it starts, and above
# the message and status lines
# the messages; a lesson pane beside it (from its title's column) is cut off
end = len(lines) - 2
for i, line in enumerate(lines):
    m = re.search(r"(^| )Lesson \d+ · ", line)
    if m and m.start() <= 1 and i < end:
        end = i
    elif m and m.start() > 1:
        lines = [l[: m.start()] for l in lines]
        break
missing = []
for h in range(max(panes)):
    want = sum(1 for n in panes if n > h)
    titles = [
        (i, m.start())
        for i, line in enumerate(lines[:end])
        for m in re.finditer(r"(?:(?<=^)|(?<= ))(?:head %d|h%d)\b" % (h, h), line)
    ]
    if len(titles) < want:
        missing.append("head %d: %d of %d titles above line %d" % (h, len(titles), want, end))
        continue
    for row, col in titles:
        if row + 1 >= end or not re.match(r"\s*0", lines[row + 1][col:]):
            missing.append("head %d at column %d: no column numbers under its title" % (h, col))
            continue
        labels = 0
        for line in lines[row + 2 : end]:
            if len(line) > col and re.match(r"[A-Za-z]", line[col]):
                labels += 1
            if labels == length:
                break
        if labels < length:
            missing.append(
                "head %d at column %d: %d of %d rows above line %d" % (h, col, labels, length, end)
            )
if missing:
    print("\n".join(missing))
    sys.exit(1)
