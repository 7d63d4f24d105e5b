#!/usr/bin/env bash
# ROS 1 from Debian (roscore, rospy, actionlib, rostopic, rosnode, rosmsg, roslaunch,
# rosbag, tf2_ros, the message classes the interop tests use and the .msg/.srv
# definitions Skipper reads at run time). Idempotent: installs only what is missing.
set -euo pipefail
pkgs=(ros-core python3-actionlib python3-rospy python3-rostopic python3-rosnode
      python3-rosmsg python3-rosservice python3-roslaunch python3-rosbag python3-rosparam
      python3-actionlib-msgs python3-geometry-msgs python3-nav-msgs python3-genpy
      python3-sensor-msgs python3-move-base-msgs python3-std-srvs python3-tf2-ros
      python3-tf2-msgs python3-rosgraph-msgs
      ros-std-msgs ros-actionlib-msgs ros-geometry-msgs ros-sensor-msgs ros-nav-msgs
      ros-move-base-msgs ros-std-srvs ros-tf2-msgs ros-rosgraph-msgs)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "ROS 1 packages already installed"
  exit 0
fi
echo "installing: ${missing[*]}"
apt-get -o DPkg::Lock::Timeout=600 update -qq
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q "${missing[@]}" >/dev/null
