//! Bytes from a ROS 1 peer: the first byte picks a decoder (a message type, a TCPROS
//! connection header, an XML-RPC call), the rest is the input. Nothing may panic, hang
//! or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    skipper_ros1_wire::fuzz_input(data);
});
