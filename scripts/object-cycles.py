#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The calls between the object files of a built perfkmod must run one way:
#
#   scripts/object-cycles.py MODFILE
#
# MODFILE is the module's .mod file, which Kbuild writes beside the module
# and which lists its object files (tests/ and the link's own perfkmod.o
# and perfkmod.mod.o are not in it). nm reads each: object A depends on
# object B when A has an undefined symbol that B defines, the exported API
# included (a lower file that calls perfkmod_counter_disable() calls the
# counter core). Every cycle of that graph is printed, one a line, with
# the symbols of each of its edges; the exit status is 1 when there is
# one.

import os
import subprocess
import sys


def symbols(obj):
    """The global symbols @obj defines, and those it leaves undefined."""
    out = subprocess.run(["nm", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] == "U":
            undefined.add(f[1])
        elif len(f) == 3 and f[1].isupper() and f[1] not in "UVW":
            defined.add(f[2])
    return defined, undefined


def main():
    here = os.path.dirname(os.path.abspath(sys.argv[1]))
    objs = [os.path.join(here, w) for w in open(sys.argv[1]).read().split()
            if w.endswith(".o")]
    base = os.path.commonpath([os.path.dirname(o) for o in objs])
    name = {o: os.path.relpath(o, base) for o in objs}
    syms = {o: symbols(o) for o in objs}
    owner = {}
    for o in objs:
        for s in syms[o][0]:
            owner[s] = o
    edges = {o: {} for o in objs}
    for a in objs:
        for s in sorted(syms[a][1]):
            b = owner.get(s)
            if b and b != a:
                edges[a].setdefault(b, []).append(s)

    # Tarjan's strongly connected components: a cycle lies within one.
    index, low, stack, on, sccs = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                sccs.append(scc)

    sys.setrecursionlimit(10000)
    for o in objs:
        if o not in index:
            visit(o)

    # Each cycle once: the elementary cycles of each component, each
    # begun at its first object in link order.
    cycles = []
    for scc in sccs:
        members = [o for o in objs if o in scc]
        for i, start in enumerate(members):
            allowed = set(members[i:])

            def walk(path):
                for w in edges[path[-1]]:
                    if w == start:
                        cycles.append(list(path))
                    elif w in allowed and w not in path:
                        walk(path + [w])
            walk([start])
    for cyc in cycles:
        hops = []
        for a, b in zip(cyc, cyc[1:] + cyc[:1]):
            hops.append("%s -> %s (%s)" % (name[a], name[b],
                                          ", ".join(edges[a][b])))
        print("cycle: " + "; ".join(hops))
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main())
