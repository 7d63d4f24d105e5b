"""The odometry pose a Skipper run log ends with: the last pose.x, pose.y, pose.yaw of
ROBOT on /signals, as JSON {x, y, yaw}. Needs the Python `mcap` package."""
import json, sys
from mcap.reader import make_reader

path, robot = sys.argv[1:3]
last = {}
with open(path, "rb") as f:
    for schema, channel, message in make_reader(f).iter_messages(topics=["/signals"]):
        m = json.loads(message.data)
        if m.get("robot") != robot:
            continue
        for k in ("pose.x", "pose.y", "pose.yaw"):
            if k in m.get("values", {}):
                last[k] = m["values"][k]
if len(last) != 3:
    sys.exit(f"FAIL {path}: no odometry pose of {robot} on /signals ({last})")
print(json.dumps({"x": last["pose.x"], "y": last["pose.y"], "yaw": last["pose.yaw"]}))
