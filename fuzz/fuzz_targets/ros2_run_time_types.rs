//! A goal request of a type made at run time from a goal kind's fields, as a Skipper
//! node receives it: the first byte is the number of goal fields, the next bytes their
//! types (bool, int64, float64, string), the rest the serialized request (encapsulation
//! header, goal id, goal). Nothing may panic, hang or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = skipper_ros2::dynamic::decode_shaped(data);
});
