//! Whole ROS 1 frames, built from a structured description (numbers, strings, element
//! counts that may claim every byte that follows, runs of one byte up to the 64 MiB
//! frame limit), decoded by every message decoder and the frame reader: nothing may
//! panic, and no decode may ask for more memory at once than the frame's size allows
//! (the allocator below measures it), so an amplification (a small frame whose count asks for
//! gigabytes) is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skipper_ros1_wire::fuzz_frames::{check, Frame, LargestAlloc};

#[global_allocator]
static A: LargestAlloc = LargestAlloc;

fuzz_target!(|frame: Frame| {
    check(&frame);
});
