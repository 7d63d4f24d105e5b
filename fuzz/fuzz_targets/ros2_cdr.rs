//! A sample from a ROS 2 peer: the first byte picks the message type (every type a
//! Skipper node receives: cmd_vel Twist and TwistStamped, goal_pose, the actions' goal,
//! cancel and result requests), the rest is the serialized sample (encapsulation header
//! and CDR). Nothing may panic, hang or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((&k, sample)) = data.split_first() {
        let _ = skipper_ros2::cdr::decode_received(usize::from(k), sample);
    }
});
