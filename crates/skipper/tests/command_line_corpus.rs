//! The `command_line` fuzz target's corpus (fuzz/corpus/command_line) replayed as a
//! regular test: each input's lines are an argument list for the goal builder of
//! `skipper action send`, the duration parser and the ROS 2 argument parser. The named
//! seeds build a goal; the inputs the fuzzer found (named by their SHA-1) need only not
//! panic.

use skipper_core::fuzz_corpus::found_by_the_fuzzer;
use std::path::Path;

#[test]
fn command_line_corpus_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/command_line");
    let mut seeds = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let built = skipper_ros1_wire::msg::yaml::fuzz_goal_args(&data);
        let text = String::from_utf8_lossy(&data);
        let args: Vec<&str> = text.split('\n').collect();
        for a in &args {
            let _ = skipper_core::time::parse_duration(a);
        }
        #[cfg(feature = "ros2")]
        let _ = skipper_ros2::args::RosArgs::parse(&args, args.first().copied());
        if !found_by_the_fuzzer(&path) {
            seeds += 1;
            let goal_seed =
                !path.ends_with("durations_and_ros2") && !path.ends_with("domain_and_params");
            assert_eq!(built, goal_seed, "{}", path.display());
        }
    }
    assert_eq!(seeds, 6, "the named seeds in {}", dir.display());
}

#[test]
fn goal_arguments_build_or_fail_as_the_type_says() {
    // a field path, a nested path and YAML with a list of messages build
    let args = b"x=2\none.a=7\n{many: [{a: 1}, {b: x}], name: robot one}";
    assert!(skipper_ros1_wire::msg::yaml::fuzz_goal_args(args));
    // an unknown field and a value of the wrong type do not build
    assert!(!skipper_ros1_wire::msg::yaml::fuzz_goal_args(b"nosuch=1"));
    assert!(!skipper_ros1_wire::msg::yaml::fuzz_goal_args(b"count=-1"));
    assert!(!skipper_ros1_wire::msg::yaml::fuzz_goal_args(b"small=200"));
}
