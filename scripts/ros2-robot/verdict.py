"""Reads a test robot's log (JSON lines from model.Recorder: every command it received,
its state every 0.2 s, events) and checks one thing about it. Plain Python.
  moved LOG MIN_M                 travelled at least MIN_M metres, never hit a wall
  reached LOG X_MIN YAW_MIN YAW_MAX   ended at x >= X_MIN facing YAW_MIN..YAW_MAX
  near LOG X Y TOL                ended within TOL of (X, Y)
  last_zero LOG                   the last command it received was a zero velocity
  stopped_after_silence LOG BOUND_S   after it went silent, a non-zero command came at
                                  most BOUND_S later, and a zero one after that
Prints `ok ...` and exits 0, or `FAIL ...` and exits 1."""
import json, math, sys


def read(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def last_state(rows):
    states = [r["state"] for r in rows if "state" in r]
    if not states:
        sys.exit(f"FAIL {sys.argv[2]}: no state recorded")
    return states[-1]


def verdict(ok, what, detail):
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else f": {detail}"), flush=True)
    sys.exit(0 if ok else 1)


def main():
    kind, path, *args = sys.argv[1:]
    rows = read(path)
    s = last_state(rows)
    if kind == "moved":
        need = float(args[0])
        verdict(s["travelled"] >= need and s["collisions"] == 0,
                f"the robot travelled {s['travelled']:.1f} m (>= {need}) without hitting a wall "
                f"(closest {s['min_clearance']:.2f} m)", s)
    elif kind == "reached":
        x_min, y0, y1 = map(float, args)
        verdict(s["x"] >= x_min and y0 <= s["yaw"] <= y1,
                f"the robot ended at x {s['x']:.2f} (>= {x_min}), heading {s['yaw']:.2f} rad "
                f"({y0}..{y1})", s)
    elif kind == "near":
        x, y, tol = map(float, args)
        d = math.hypot(s["x"] - x, s["y"] - y)
        verdict(d <= tol, f"the robot is {d:.3f} m from ({x:.3f}, {y:.3f}) (<= {tol})", s)
    elif kind == "last_zero":
        cmds = [r["cmd"] for r in rows if "cmd" in r]
        verdict(bool(cmds) and cmds[-1] == [0.0, 0.0],
                f"the last of {len(cmds)} commands was a zero velocity", cmds[-3:])
    elif kind == "stopped_after_silence":
        bound = float(args[0])
        silent = [r["t"] for r in rows if r.get("event") == "silent"]
        if not silent:
            verdict(False, "the robot went silent", "no silent event")
        t0 = silent[0]
        cmds = [(r["t"], r["cmd"]) for r in rows if "cmd" in r]
        moving = [t for t, c in cmds if c != [0.0, 0.0]]
        zero_after = [t for t, c in cmds if c == [0.0, 0.0] and t >= t0]
        last_moving = max(moving) if moving else 0.0
        verdict(last_moving <= t0 + bound and zero_after and cmds[-1][1] == [0.0, 0.0],
                f"no moving command later than {last_moving - t0:+.2f} s after the robot went "
                f"silent (bound {bound} s), then zero velocities", (last_moving - t0, cmds[-3:]))
    else:
        sys.exit(f"unknown check {kind}")


if __name__ == "__main__":
    main()
