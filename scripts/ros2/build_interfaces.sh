#!/usr/bin/env bash
# Build Skipper's ROS 2 interface package (interfaces/ros2/skipper_msgs) with plain cmake
# against the Jazzy wheels in VENV and install it into VENV, where rclpy imports it with
# no environment variables. Skipped when the installed build matches the sources.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
venv="${1:-$root/.venv-ros2}"
export AMENT_PREFIX_PATH="$venv"
export PATH="$venv/bin:$PATH"
mkdir -p "$venv/build"

build_pkg() {  # NAME SRC: build and install the package in SRC unless it is up to date
  local name="$1" src="$2" build="$venv/build/$1" sum
  sum="$(find "$src" -type f | sort | xargs cat | sha256sum | cut -d' ' -f1)"
  if [ "$(cat "$venv/.built-$name" 2>/dev/null)" = "$sum" ]; then
    echo "$name already built and installed in $venv"
    return 0
  fi
  echo "building $name with cmake into $venv"
  cmake -S "$src" -B "$build" -DCMAKE_PREFIX_PATH="$venv" -DCMAKE_INSTALL_PREFIX="$venv" \
    -DPython3_EXECUTABLE="$venv/bin/python" -DBUILD_TESTING=OFF >"$build.cmake.log" 2>&1 \
    || { tail -40 "$build.cmake.log"; return 1; }
  cmake --build "$build" -j2 >"$build.build.log" 2>&1 || { tail -40 "$build.build.log"; return 1; }
  cmake --install "$build" >/dev/null
  echo "$sum" >"$venv/.built-$name"
}

build_pkg skipper_msgs "$root/interfaces/ros2/skipper_msgs"
# a test-only TFMessage (no tf2_msgs wheel exists), so that rclpy can read /tf
build_pkg tf2_msgs "$root/scripts/ros2/tf2_msgs"
"$venv/bin/python" -c "from skipper_msgs.action import Goto, RunOption, RunMission; from tf2_msgs.msg import TFMessage; print('imports: skipper_msgs Goto RunOption RunMission, tf2_msgs TFMessage')"
