#!/usr/bin/env python3
"""The AUV's sensor topics as rospy sees them (run by run.sh against a mission run of
`skipper run --ros` whose mission dives to 30 m and samples the water's temperature and
salinity with Guidance.ReadSensor): /tethys/depth (std_msgs/Float64, m) and
/tethys/water (skipper_msgs/WaterProperties, the classes of interfaces/ros1/genpy.sh on
PYTHONPATH) in the vehicle's frame. (/tethys/altitude comes only within the altimeter's
range of the sea floor, which is far below this worksite's dive.) The water message keeps
NaN for a property until it is first sampled, so the check waits for one with both.
Every wait has a deadline (a hang guard). Prints an ok line; exit 1 on a failure."""
import math
import sys
import time

import rospy
from skipper_msgs.msg import WaterProperties
from std_msgs.msg import Float64

DEADLINE = 60.0


def fail(why):
    print("FAIL", why, file=sys.stderr)
    sys.exit(1)


def main():
    rospy.init_node("skipper_auv_sensors_check")
    depth = rospy.wait_for_message("/tethys/depth", Float64, DEADLINE).data
    if not depth >= 0:
        fail("depth %r m" % depth)
    water = []
    sub = rospy.Subscriber("/tethys/water", WaterProperties, water.append)
    end = time.monotonic() + DEADLINE
    while not any(math.isfinite(w.temperature) and math.isfinite(w.salinity) for w in list(water)):
        if time.monotonic() > end:
            fail("no /tethys/water with both properties sampled: %s" % water[-1:])
        time.sleep(0.02)
    sub.unregister()
    w = next(w for w in water if math.isfinite(w.temperature) and math.isfinite(w.salinity))
    if w.header.frame_id != "tethys/base_link" or not -2 <= w.temperature <= 40 or not 0 <= w.salinity <= 45:
        fail("water: %s" % w)
    print("ok   AUV sensors (rospy): depth %.1f m (std_msgs/Float64), water "
          "(skipper_msgs/WaterProperties) %.2f degC, %.2f PSU in tethys/base_link"
          % (depth, w.temperature, w.salinity), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
