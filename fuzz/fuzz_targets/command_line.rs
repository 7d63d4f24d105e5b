//! Fuzz what a user types after a command: the input's lines are an argument list, given
//! to `skipper action send`'s goal builder (`x=2`, `one.b=hi`, YAML mappings; a goal that
//! builds must encode and decode to the same bytes), to the duration parser (`--until`,
//! `--timeout`, ...) line by line, and to the ROS 2 argument parser (`--ros-args -r
//! __node:=.. -p name:=value`, the first line as `ROS_DOMAIN_ID`). An error is fine; a
//! panic is a finding.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    skipper_ros1_wire::msg::yaml::fuzz_goal_args(data);
    let text = String::from_utf8_lossy(data);
    let args: Vec<&str> = text.split('\n').collect();
    for a in &args {
        let _ = skipper_core::time::parse_duration(a);
    }
    let _ = skipper_ros2::args::RosArgs::parse(&args, args.first().copied());
});
