"""What an action server puts on the wire per goal, and when: reads `perf script` output
of the server process's sendto / recvfrom system calls (recorded by wire_timing.sh while
bench.py sends goals one at a time, each accepted, given one feedback and succeeded) and
prints, per goal, the time from the goal's bytes arriving (the recvfrom that returned
them) to the server's first sendto about it, and from the feedback's sendto to the
result's. Also how many status-list sends each goal got.

The goal connection is the one whose reads return bytes most often; after a goal, the
server's sends are told apart by connection: the first connection sent to twice per goal
carries the status list, the first of the others the feedback (the server sends it
before the result), the other the result.

Usage: perf script -i DATA | python3 wire_timing.py NAME
"""
import re
import sys
from collections import Counter, defaultdict

LINE = re.compile(r"\s(\d+)\s+\[\d+\]\s+([\d.]+):\s+syscalls:(sys_\w+):\s*(.*)")


def events(lines):
    """(time s, tid, kind, fd or return value, length) of each traced call."""
    fd_of = {}
    for line in lines:
        m = LINE.search(line)
        if not m:
            continue
        tid, t, kind, rest = int(m.group(1)), float(m.group(2)), m.group(3), m.group(4)
        if kind == "sys_enter_recvfrom":
            fd_of[tid] = int(re.search(r"fd: (0x[0-9a-f]+)", rest).group(1), 16)
        elif kind == "sys_exit_recvfrom":
            ret = int(rest.strip(), 16)
            if ret < 1 << 62 and tid in fd_of:
                yield t, tid, "recv", fd_of[tid], ret
        elif kind == "sys_enter_sendto":
            fd = int(re.search(r"fd: (0x[0-9a-f]+)", rest).group(1), 16)
            n = int(re.search(r"len: (0x[0-9a-f]+)", rest).group(1), 16)
            yield t, tid, "send", fd, n


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "server"
    ev = list(events(sys.stdin))
    recvs = Counter(fd for _, _, k, fd, _ in ev if k == "recv")
    if not recvs:
        sys.exit("%s: no reads traced" % name)
    goal_fd = recvs.most_common(1)[0][0]
    # the sends between one goal's arrival and the next's
    goals, cur = [], None
    for t, _, k, fd, n in ev:
        if k == "recv" and fd == goal_fd:
            cur = (t, [])
            goals.append(cur)
        elif k == "send" and cur is not None:
            cur[1].append((t, fd, n))
    goals = [g for g in goals[1:-1] if g[1]]  # whole goals only
    per_fd = defaultdict(list)
    for _, sends in goals:
        c = Counter(fd for _, fd, _ in sends)
        for fd, k in c.items():
            per_fd[fd].append(k)
    typical = {fd: Counter(ks).most_common(1)[0][0] for fd, ks in per_fd.items() if len(ks) > len(goals) // 2}
    status_fds = [fd for fd, k in typical.items() if k >= 2]
    once = [fd for fd, k in typical.items() if k == 1]
    first_reply, fb_to_result, status_sends = [], [], []
    for t0, sends in goals:
        first_reply.append((sends[0][0] - t0) * 1e6)
        status_sends.append(sum(1 for _, fd, _ in sends if fd in status_fds))
        firsts = {}
        for t, fd, _ in sends:
            firsts.setdefault(fd, t)
        singles = sorted((firsts[fd], fd) for fd in once if fd in firsts)
        if len(singles) == 2:
            fb_to_result.append((singles[1][0] - singles[0][0]) * 1e6)
    print("%-22s goals %d  goal in -> first send p10/p50/p90 %.0f / %.0f / %.0f us  "
          "feedback -> result p10/p50/p90 %.0f / %.0f / %.0f us  status sends per goal %.2f"
          % (name, len(goals), pct(first_reply, 0.1), pct(first_reply, 0.5), pct(first_reply, 0.9),
             pct(fb_to_result, 0.1), pct(fb_to_result, 0.5), pct(fb_to_result, 0.9),
             sum(status_sends) / max(1, len(status_sends))))


if __name__ == "__main__":
    main()
