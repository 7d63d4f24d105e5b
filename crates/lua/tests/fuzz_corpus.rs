//! The fuzz target `lua_ros_args`'s corpus (fuzz/corpus/lua_ros_args) replayed as a
//! regular test, and a property test over arguments made of the characters names are
//! made of: ROS arguments and names in, names or errors out, never a panic.

use proptest::prelude::*;
use skipper_lua::fuzzing;
use std::path::Path;

#[test]
fn corpus_replays_without_panics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/lua_ros_args");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        fuzzing::ros_args(&std::fs::read(entry.unwrap().path()).unwrap());
        n += 1;
    }
    assert!(n >= 6, "only {n} inputs in {}", dir.display());
}

proptest! {
    #[test]
    fn arguments_and_names_never_panic(args in prop::collection::vec("[a-z_~/:= .é0-9]{0,12}", 0..8)) {
        fuzzing::ros_args(args.join("\n").as_bytes());
    }
}
