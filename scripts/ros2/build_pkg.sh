#!/usr/bin/env bash
# Build one ROS 2 interface package with plain cmake against the Jazzy wheels in VENV
# and install it into VENV, where rclpy imports it with no environment variables:
#   scripts/ros2/build_pkg.sh NAME SRC [VENV]
# Skipped when the installed build is of the same sources (their checksum). Used for
# interfaces/ros2/skipper_msgs, the test-only tf2_msgs, and the packages the tests write
# (`skipper interfaces --ros2`, nav2's NavigateToPose).
set -euo pipefail
name="${1:?usage: $0 NAME SRC [VENV]}" src="${2:?usage: $0 NAME SRC [VENV]}"
cd "$(dirname "$0")/../.."
venv="${3:-$PWD/.venv-ros2}"
export AMENT_PREFIX_PATH="$venv"
export PATH="$venv/bin:$PATH"
mkdir -p "$venv/build"
build="$venv/build/$name"
sum="$(cd "$src" && find . -type f | sort | xargs cat | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$venv/.built-$name" 2>/dev/null)" = "$sum" ]; then
  echo "$name already built and installed in $venv"
  exit 0
fi
echo "building $name with cmake into $venv"
rm -rf "$build"
cmake -S "$src" -B "$build" -DCMAKE_PREFIX_PATH="$venv" -DCMAKE_INSTALL_PREFIX="$venv" \
  -DPython3_EXECUTABLE="$venv/bin/python" -DBUILD_TESTING=OFF >"$build.cmake.log" 2>&1 \
  || { tail -40 "$build.cmake.log"; exit 1; }
cmake --build "$build" -j2 >"$build.build.log" 2>&1 || { tail -40 "$build.build.log"; exit 1; }
cmake --install "$build" >/dev/null
echo "$sum" >"$venv/.built-$name"
