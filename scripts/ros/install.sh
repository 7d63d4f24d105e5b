#!/usr/bin/env bash
# ROS 1 from Debian (roscore, rospy, actionlib, rostopic, rosnode and the message classes
# the interop tests use). Idempotent: installs only what is missing.
set -euo pipefail
pkgs=(ros-core python3-actionlib python3-rospy python3-rostopic python3-rosnode
      python3-actionlib-msgs python3-geometry-msgs python3-nav-msgs python3-genpy)
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
