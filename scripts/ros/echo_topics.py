"""`rostopic echo -n 1` of every topic a node publishes (run by run.sh against
`skipper run --ros`): the node's slave API (getPublications) says which topics those are;
each must be among them that the caller names, and each echo (all at once, one
`rostopic echo` process per topic, as a user would type it) must print a whole message.
Topics that carry messages only on an event (an action's feedback and result, /rosout, a
GPS fix that comes only at the surface) are left to the checks that cause the event:
SKIP is a regular expression of them. Every echo has a deadline (a hang guard: nothing
is timed). Prints an ok line; exit 1 on a failure.
usage: echo_topics.py NODE SKIP_REGEX WANTED_TOPIC..."""
import os
import re
import subprocess
import sys
import time
import xmlrpc.client

DEADLINE = 120.0


def main():
    node, skip, wanted = sys.argv[1], re.compile(sys.argv[2]), sys.argv[3:]
    master = xmlrpc.client.ServerProxy(os.environ["ROS_MASTER_URI"])
    code, msg, uri = master.lookupNode("/echo_topics", node)
    if code != 1:
        print(f"FAIL {node} is not registered: {msg}", file=sys.stderr)
        return 1
    _, _, pubs = xmlrpc.client.ServerProxy(uri).getPublications("/echo_topics")
    topics = sorted(t for t, _ in pubs)
    missing = [t for t in wanted if t not in topics]
    if missing:
        print(f"FAIL {node} does not publish {missing} (it publishes {topics})", file=sys.stderr)
        return 1
    echoed = [t for t in topics if not skip.fullmatch(t)]
    procs = {
        t: subprocess.Popen(["rostopic", "echo", "-n", "1", t, f"__name:=echo_topics_{k}"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for k, t in enumerate(echoed)
    }
    end = time.monotonic() + DEADLINE
    failed = []
    for t, p in procs.items():
        try:
            out, err = p.communicate(timeout=max(1.0, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            failed.append(f"{t}: no message within {DEADLINE:.0f} s: {out[-300:]!r} {err[-300:]!r}")
            continue
        # one message on stdout: its fields as YAML, then the separator (rospy's own
        # warnings, e.g. about a connection to the echo that closed before its handshake,
        # go to stderr)
        if p.returncode != 0 or not out.rstrip().endswith("---") or ":" not in out:
            failed.append(f"{t}: exit {p.returncode}: {out[-300:]!r} {err[-300:]!r}")
    if failed:
        print("FAIL rostopic echo: " + "; ".join(failed), file=sys.stderr)
        return 1
    print(f"ok   rostopic echo -n 1 of each of the {len(echoed)} topics {node} publishes all the time: "
          + " ".join(echoed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
