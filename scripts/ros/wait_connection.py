"""Wait (up to TIMEOUT s, default 20) until NODE has a TCPROS connection on TOPIC, as its
slave API's getBusInfo lists it: after that, what NODE publishes on TOPIC reaches the
peer. Exit 0 when it has one, 1 if the time ran out.
usage: wait_connection.py NODE TOPIC [TIMEOUT]"""
import os
import sys
import time
import xmlrpc.client


def main():
    node, topic = sys.argv[1], sys.argv[2]
    timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 20.0
    master = xmlrpc.client.ServerProxy(os.environ["ROS_MASTER_URI"])
    code, _, uri = master.lookupNode("/wait_connection", node)
    if code != 1:
        print(f"{node} is not registered", file=sys.stderr)
        return 1
    slave = xmlrpc.client.ServerProxy(uri)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        _, _, conns = slave.getBusInfo("/wait_connection")
        if any(c[4] == topic for c in conns):
            return 0
        time.sleep(0.05)
    print(f"{node} has no connection on {topic} after {timeout} s", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
