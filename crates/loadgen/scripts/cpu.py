#!/usr/bin/env python3
"""Prints, every INTERVAL seconds until killed, the CPU (% of one core) and RSS of each parchis-server
process and the totals of PostgreSQL, nats-server and parchis-loadgen, and the whole machine's busy CPU
and load: where a load run's CPU goes. PostgreSQL's backends come and go with the pools' connections: what
a process used before it ended is read from its parent's children's time (cutime), less what was already
counted of it (a sum over the live processes alone fell, and read 0 %, when backends were replaced).

usage: cpu.py INTERVAL"""
import os
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024
GROUPS = ("postgres", "nats-server", "parchis-loadgen")


def sample():
    """{pid: (group, own ticks, ticks of its ended children, RSS KiB, parent pid)}"""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        own = int(fields[11]) + int(fields[12])  # utime, stime
        children = int(fields[13]) + int(fields[14])  # cutime, cstime: children it has reaped
        ppid = fields[1]
        rss = int(fields[21]) * PAGE_KIB
        if comm.startswith("parchis-server"):
            key = f"server:{pid}"
        elif comm.startswith("parchis-loadgen") or comm.startswith("parchis-loadge"):
            key = "parchis-loadgen"
        elif comm in GROUPS:
            key = comm
        else:
            key = "other"
        out[pid] = (key, own, children, rss, ppid)
    return out


def by_group(prev, cur):
    """{group: (ticks used between the two readings, RSS KiB now)}"""
    used = {}
    counted = {}  # parent pid -> ticks already counted of its children that ended since
    for pid, (key, own, children, _, ppid) in prev.items():
        if pid not in cur:
            counted[ppid] = counted.get(ppid, 0) + own + children
    out = {}
    for pid, (key, own, children, rss, _) in cur.items():
        before = prev.get(pid)
        if before and before[0] == key:
            ticks = own - before[1] + max(0, children - before[2] - counted.get(pid, 0))
        else:
            ticks = own  # born since: all of it is new (its ended children too, when it reaps them)
        t, r = out.get(key, (0, 0))
        out[key] = (t + max(0, ticks), r + rss)
    return out


def machine():
    """(busy, all) ticks of the whole machine."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def main():
    interval = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    prev, t0, m0 = sample(), time.time(), machine()
    cores = os.cpu_count() or 1
    while True:
        time.sleep(interval)
        cur, t1, m1 = sample(), time.time(), machine()
        dt = t1 - t0
        busy = (m1[0] - m0[0]) / max(1, m1[1] - m0[1]) * 100 * cores
        parts = [f"machine={busy:.0f}% load={os.getloadavg()[0]:.1f}"]
        groups = by_group(prev, cur)
        for key in sorted(groups):
            ticks, rss = groups[key]
            cpu = ticks / TICK / dt * 100
            parts.append(f"{key}={cpu:.0f}%/{rss // 1024}MiB")
        print(f"{int(t1)} " + " ".join(parts), flush=True)
        prev, t0, m0 = cur, t1, m1


if __name__ == "__main__":
    main()
