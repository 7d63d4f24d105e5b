//! `.msg` / `.srv` / `.action` texts as a user or a package folder gives them, and
//! message bodies decoded with the type they define: the first byte picks which. Nothing
//! may panic, hang or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    skipper_ros1_wire::msg::fuzz_definition(data);
});
