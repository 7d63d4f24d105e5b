//! Fuzz skipper-torch-ros's ROS arguments and graph names (a script's `a:=b` arguments, its
//! node's name and namespace, names resolved relative, private and remapped): names or
//! errors, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    skipper_torch_ros::fuzzing::ros_args(data);
});
