#!/usr/bin/env python3
"""The AUV's GPS fix and altitude as rospy sees them, with their types (run by run.sh
against `skipper run DIR/idle.lua --ros`, whose workSite.cfg gives the altimeter a range
that reaches the sea floor from the surface): /tethys/altitude (std_msgs/Float64, m) is
published every cycle the altimeter reaches the floor; /tethys/gps/fix
(sensor_msgs/NavSatFix) only in the cycle a fix arrives, so the check subscribes first,
waits until its subscription is connected, and only then sends the run_mission goal
DIR/fix.lua that asks for a fix (Guidance.ReadSensor of PLATFORM_LOCATION_FIX at the
surface): the fix cannot come before the subscriber hears it. A topic that is missing or
of another type (a wrong md5sum is refused) gets no message and fails at the deadline
(a hang guard, nothing is timed). Prints an ok line; exit 1 on a failure.

Usage: python3 auv_fix.py DIR"""
import os
import sys
import time

import actionlib
import rospy
from sensor_msgs.msg import NavSatFix, NavSatStatus
from skipper_msgs.msg import RunMissionAction, RunMissionGoal
from std_msgs.msg import Float64

DEADLINE = 60.0


def fail(why):
    print("FAIL", why, file=sys.stderr)
    sys.exit(1)


def wait_for(what, cond):
    end = time.monotonic() + DEADLINE
    while not cond():
        if time.monotonic() > end:
            fail("no %s within %.0f s" % (what, DEADLINE))
        time.sleep(0.02)


def main():
    folder = sys.argv[1]
    rospy.init_node("skipper_auv_fix_check")
    altitude = rospy.wait_for_message("/tethys/altitude", Float64, DEADLINE).data
    # the worksite's floor is 260 m below the start; the altimeter reaches 500 m
    if not 0 < altitude <= 500:
        fail("altitude %r m" % altitude)
    fixes = []
    sub = rospy.Subscriber("/tethys/gps/fix", NavSatFix, fixes.append)
    wait_for("connection to /tethys/gps/fix", lambda: sub.get_num_connections() > 0)
    client = actionlib.SimpleActionClient("/tethys/run_mission", RunMissionAction)
    if not client.wait_for_server(rospy.Duration(DEADLINE)):
        fail("no /tethys/run_mission server")
    client.send_goal(RunMissionGoal(mission=os.path.join(folder, "fix.lua")))
    wait_for("/tethys/gps/fix (sensor_msgs/NavSatFix)", lambda: bool(fixes))
    f = fixes[0]
    # the worksite's origin, where the AUV floats: 36.80 N, 121.90 W
    if (f.header.frame_id != "tethys/base_link" or f.status.status < NavSatStatus.STATUS_FIX
            or abs(f.latitude - 36.80) > 0.01 or abs(f.longitude + 121.90) > 0.01):
        fail("gps fix: %s" % f)
    client.cancel_all_goals()
    print("ok   AUV GPS fix (rospy, sensor_msgs/NavSatFix) %.4f, %.4f in tethys/base_link after a "
          "run_mission goal asked for it; altitude %.1f m (std_msgs/Float64)"
          % (f.latitude, f.longitude, altitude), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
