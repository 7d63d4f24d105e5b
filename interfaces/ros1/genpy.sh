#!/usr/bin/env bash
# Python classes of skipper_msgs (messages and services) for rospy, rostopic, rosbag and rosmsg md5, made with
# Debian's genpy (python3-genpy) from the package's msg/ files, without catkin:
#   interfaces/ros1/genpy.sh OUT && export PYTHONPATH=OUT:$PYTHONPATH
# (In a catkin workspace, catkin_make builds the same classes from CMakeLists.txt.)
set -euo pipefail
out="${1:?usage: $0 OUTDIR}"
pkg="$(cd "$(dirname "$0")/skipper_msgs" && pwd)"
gen=/usr/lib/genpy/genmsg_py.py
gensrv=/usr/lib/genpy/gensrv_py.py
[ -f "$gen" ] && [ -f "$gensrv" ] || { echo "$gen is missing: install python3-genpy (scripts/ros/install.sh)" >&2; exit 1; }
incs=(-Iskipper_msgs:"$pkg/msg" -Istd_msgs:/usr/share/std_msgs/msg -Iactionlib_msgs:/usr/share/actionlib_msgs/msg)
mkdir -p "$out/skipper_msgs/msg"
/usr/bin/python3 "$gen" -p skipper_msgs -o "$out/skipper_msgs/msg" "${incs[@]}" "$pkg"/msg/*.msg >/dev/null
/usr/bin/python3 "$gen" --initpy -p skipper_msgs -o "$out/skipper_msgs/msg" >/dev/null
mkdir -p "$out/skipper_msgs/srv"
/usr/bin/python3 "$gensrv" -p skipper_msgs -o "$out/skipper_msgs/srv" "${incs[@]}" "$pkg"/srv/*.srv >/dev/null
/usr/bin/python3 "$gensrv" --initpy -p skipper_msgs -o "$out/skipper_msgs/srv" >/dev/null
: >"$out/skipper_msgs/__init__.py"
