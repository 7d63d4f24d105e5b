"""Check a Soar run's log: the run finished with the agents halted, each robot passed
within 0.4 m of its goals, the expected commands got the expected statuses, the
expected words were spoken, and the link tree diff is on /controller."""

import argparse
import json
import math
import sys

from mcap.reader import make_reader


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("summary")
    ap.add_argument("--goal", action="append", default=[], help="ROBOT:X,Y")
    ap.add_argument("--status", action="append", default=[], help="ROBOT:COMMAND:STATUS")
    ap.add_argument("--speech", action="append", default=[], help="ROBOT:TEXT")
    a = ap.parse_args()

    summary = json.load(open(a.summary))
    errors = []
    if summary.get("outcome") != "finished":
        errors.append(f"outcome {summary.get('outcome')}, expected finished")
    if summary.get("halted") is not True:
        errors.append("the agents did not all halt")
    if not summary.get("decision_cycles"):
        errors.append("no decision cycles")
    if summary.get("command_errors"):
        errors.append(f"{summary['command_errors']} commands got error")

    track, statuses, speech, states = {}, set(), set(), 0
    with open(a.log, "rb") as f:
        for _schema, ch, m in make_reader(f).iter_messages():
            d = json.loads(m.data)
            if ch.topic == "/pose":
                p = d["pose"]["position"]
                track.setdefault(d["robot"], []).append((p["x"], p["y"]))
            elif ch.topic == "/events" and d["kind"] == "command_status":
                statuses.add((d["robot"], d["data"]["command"], d["data"]["status"]))
            elif ch.topic == "/events" and d["kind"] == "speech":
                speech.add((d["robot"], d["data"]["text"]))
            elif ch.topic == "/controller":
                inp = d["state"]["input"]
                assert inp["type"] == "input" and {"add", "update", "remove", "statuses"} <= inp.keys()
                states += 1
    if states == 0:
        errors.append("no link tree diff on /controller")
    for g in a.goal:
        robot, xy = g.split(":")
        x, y = map(float, xy.split(","))
        best = min((math.hypot(px - x, py - y) for px, py in track.get(robot, [])), default=math.inf)
        if best > 0.4:
            errors.append(f"{robot} came no nearer than {best:.2f} m to ({x}, {y})")
    for s in a.status:
        robot, cmd, st = s.split(":")
        if (robot, cmd, st) not in statuses:
            errors.append(f"{robot}: no {cmd} command got {st}")
    for s in a.speech:
        robot, text = s.split(":", 1)
        if (robot, text) not in speech:
            errors.append(f"{robot} never said {text!r} (said {sorted(t for r, t in speech if r == robot)})")
    if errors:
        print("FAILED", a.log)
        for e in errors:
            print("  -", e)
        sys.exit(1)
    print(f"ok {a.log}: {summary['decision_cycles']} decision cycles, {summary['commands']} commands, "
          f"{len(statuses)} command/status pairs, halted")


if __name__ == "__main__":
    main()
