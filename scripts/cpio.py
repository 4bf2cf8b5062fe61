#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Write an initramfs: a newc cpio archive from a list in the format of the
# kernel's usr/gen_init_cpio, so that no kernel source is needed and
# device nodes are made without root privileges.
#
#   scripts/cpio.py SPEC OUT
#
# SPEC's lines: "dir NAME MODE UID GID", "file NAME SOURCE MODE UID GID",
# "nod NAME MODE UID GID c|b MAJOR MINOR". newc: a 110-byte ASCII header
# per entry (magic 070701, then 13 fields of 8 hex digits), the name, the
# data, each padded to 4 bytes; then TRAILER!!!. The kernel unpacks in
# order: every directory comes before what it holds.

import stat
import sys

out = open(sys.argv[2], "wb")
ino = 0


def pad(n):
    out.write(b"\0" * (-n % 4))


def entry(name, mode, uid=0, gid=0, nlink=1, data=b"", rdev=(0, 0)):
    global ino
    ino += 1
    name = name.lstrip("/").encode() + b"\0"
    fields = (ino, mode, uid, gid, nlink, 0, len(data), 0, 0, rdev[0],
              rdev[1], len(name), 0)
    out.write(b"070701" + b"".join(b"%08X" % f for f in fields) + name)
    pad(110 + len(name))
    out.write(data)
    pad(len(data))


for line in open(sys.argv[1]):
    w = line.split()
    if w[0] == "dir":
        entry(w[1], stat.S_IFDIR | int(w[2], 8), int(w[3]), int(w[4]), 2)
    elif w[0] == "file":
        with open(w[2], "rb") as f:
            entry(w[1], stat.S_IFREG | int(w[3], 8), int(w[4]), int(w[5]),
                  data=f.read())
    elif w[0] == "nod" and w[5] in "cb":
        kind = stat.S_IFCHR if w[5] == "c" else stat.S_IFBLK
        entry(w[1], kind | int(w[2], 8), int(w[3]), int(w[4]),
              rdev=(int(w[6]), int(w[7])))
    else:
        sys.exit(f"cpio.py: cannot write {line.strip()!r}")
entry("TRAILER!!!", 0)
out.close()
