"""Read the run log of the spec mission with the mcap package and check what the report,
the replay and users rely on."""
import json
import sys
from collections import Counter

from mcap.reader import make_reader

log, summary_path = sys.argv[1], sys.argv[2]
topics = Counter()
transitions = Counter()
last_state = None
depths = []
altitudes = 0
with open(log, "rb") as f:
    for schema, channel, message in make_reader(f).iter_messages():
        topics[channel.topic] += 1
        msg = json.loads(message.data)
        # docs/run-log.md: every message but /world, /objects and /summary carries t
        if channel.topic not in ("/world", "/objects", "/summary"):
            assert "t" in msg and "robot" in msg, (channel.topic, msg)
        if channel.topic == "/events" and msg["kind"] == "transition":
            d = msg["data"]
            assert {"item", "from", "to"} <= set(d), d
            transitions[(d["item"], d["to"])] += 1
        elif channel.topic == "/controller":
            last_state = msg["state"]
        elif channel.topic == "/signals":
            v = msg["values"]
            if "DEPTH" in v:
                depths.append(v["DEPTH"])
            if v.get("HEIGHT_ABOVE_SEA_FLOOR") is not None:
                altitudes += 1
for t in ["/world", "/signals", "/actuation", "/events", "/controller", "/pose", "/summary"]:
    assert topics[t] > 0, (t, topics)
assert last_state is not None
assert last_state["mission"] == "Test Mission", last_state
assert last_state["status"] == "completed", last_state["status"]
ids = [i["id"] for i in last_state["items"]]
assert "NeedSatFix/SurfOps" in ids and "RepeatOps/7" in ids, ids
for wp in ["RepeatOps/4", "RepeatOps/5", "RepeatOps/6", "RepeatOps/7"]:
    assert transitions[(wp, "completed")] == 2, (wp, transitions)
assert transitions[("NeedSatFix/SurfOps", "active")] >= 1, transitions
assert max(depths) <= 300 and max(depths) > 150, max(depths)
assert altitudes > 100, altitudes
with open(summary_path) as f:
    s = json.load(f)
for k in ["outcome", "sim_time_s", "wall_time_s", "cycles", "distance_m", "collisions",
          "waypoints_reached", "surfacings", "gps_fixes", "comms_sessions", "max_depth_m",
          "min_altitude_m"]:
    assert k in s, (k, s)
assert s["outcome"] == "finished" and s["waypoints_reached"] == 8, s
assert s["min_altitude_m"] >= 20 and s["max_depth_m"] <= 300, s
print(f"mission run log: {sum(topics.values())} messages, {sum(transitions.values())} transitions, "
      f"{s['surfacings']} surfacings, {s['gps_fixes']} GPS fixes, {s['comms_sessions']} comms sessions, "
      f"sim {s['sim_time_s']:.0f} s at {s['sim_time_s'] / max(s['wall_time_s'], 1e-9):.0f}x real time")
