"""The floor under bench.py's server CPU per goal: the same pattern of messages with no
ROS at all. crates/actionlib/examples/socket_floor.rs reads a 100-byte goal and writes a
status list, a feedback, a result and the status list again on three connections; this
client reads each connection on a thread of its own (as rospy's subscribers do) and paces
the goals as bench.py does. What the floor server spends per goal is what the kernel and
the machine charge for those five system calls: no actionlib server can spend less here.

Usage: python3 floor.py SOCKET_FLOOR_BIN [GOALS [RATE [STATUS_BYTES]]]
"""
import os
import socket
import subprocess
import sys
import threading
import time

from bench import cpu

PORT = 47011


def main():
    binary = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rate = float(sys.argv[3]) if len(sys.argv) > 3 else 20.0
    status_bytes = int(sys.argv[4]) if len(sys.argv) > 4 else 6000
    server = subprocess.Popen([binary, str(PORT), str(status_bytes)], stdout=subprocess.PIPE)
    server.stdout.readline()  # listening
    conns = [socket.create_connection(("127.0.0.1", PORT)) for _ in range(4)]
    for c in conns:
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    done = threading.Event()

    def reader(conn, size, last):
        got = 0
        while True:
            b = conn.recv(65536)
            if not b:
                return
            got += len(b)
            while got >= size:
                got -= size
                if last:
                    done.set()

    for conn, size, last in ((conns[1], status_bytes, False), (conns[2], 120, False), (conns[3], 120, True)):
        threading.Thread(target=reader, args=(conn, size, last), daemon=True).start()

    def one():
        done.clear()
        t = time.perf_counter()
        conns[0].sendall(b"g" * 100)
        done.wait(5)
        return time.perf_counter() - t

    for _ in range(20):
        one()
    period = 1.0 / rate if rate > 0 else 0.0
    times = []
    cpu0, wall0, next_at = cpu(server.pid), time.time(), time.perf_counter()
    for _ in range(n):
        if period:
            next_at += period
        times.append(one())
        if period:
            time.sleep(max(0.0, next_at - time.perf_counter()))
    server_cpu = (cpu(server.pid) - cpu0) / n
    wall = time.time() - wall0
    server.kill()
    times.sort()
    print("%-26s goals %d  round trip p50 %.2f  p99 %.2f ms  server CPU/goal %.3f ms  %.0f goals/s  status %d bytes"
          % ("socket floor (no ROS)", n, times[n // 2] * 1e3, times[n * 99 // 100] * 1e3, server_cpu * 1e3, n / wall, status_bytes))


if __name__ == "__main__":
    main()
