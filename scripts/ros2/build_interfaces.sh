#!/usr/bin/env bash
# Build Skipper's ROS 2 interface package (interfaces/ros2/skipper_msgs) with plain cmake
# against the Jazzy wheels in VENV and install it into VENV, where rclpy imports it with
# no environment variables (scripts/ros2/build_pkg.sh). Skipped when the installed build
# matches the sources.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
venv="${1:-$root/.venv-ros2}"
bash scripts/ros2/build_pkg.sh skipper_msgs "$root/interfaces/ros2/skipper_msgs" "$venv"
# a test-only TFMessage (no tf2_msgs wheel exists), so that rclpy can read /tf
bash scripts/ros2/build_pkg.sh tf2_msgs "$root/scripts/ros2/tf2_msgs" "$venv"
"$venv/bin/python" -c "from skipper_msgs.action import Goto, RunOption, RunMission; from tf2_msgs.msg import TFMessage; print('imports: skipper_msgs Goto RunOption RunMission, tf2_msgs TFMessage')"
