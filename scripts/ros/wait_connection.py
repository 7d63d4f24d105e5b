"""Wait (up to TIMEOUT s, default 60: a hang guard) until NODE has a live TCPROS
connection on TOPIC to the node PEER, as NODE's slave API's getBusInfo lists it: after
that, what NODE publishes on TOPIC reaches PEER. The peer is named because NODE may
still list the connection of a peer that has gone (a finished `skipper action send`):
give the peer a name with `__name:=` (rostopic, rosbag record and rospy take it).
Exit 0 when it has one, 1 if the time ran out.
usage: wait_connection.py NODE TOPIC PEER [TIMEOUT]"""
import os
import sys
import time
import xmlrpc.client


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    node, topic, peer = sys.argv[1], sys.argv[2], sys.argv[3]
    timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
    master = xmlrpc.client.ServerProxy(os.environ["ROS_MASTER_URI"])
    code, _, uri = master.lookupNode("/wait_connection", node)
    if code != 1:
        print(f"{node} is not registered", file=sys.stderr)
        return 1
    slave = xmlrpc.client.ServerProxy(uri)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        _, _, conns = slave.getBusInfo("/wait_connection")
        # (connectionId, destinationId, direction, transport, topic, connected, ...)
        if any(c[4] == topic and c[1] == peer and c[5] for c in conns):
            return 0
        time.sleep(0.05)
    print(f"{node} has no connection on {topic} to {peer} after {timeout} s", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
