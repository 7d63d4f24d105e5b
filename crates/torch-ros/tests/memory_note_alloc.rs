//! While a script holds half its memory limit or more, the instruction hook notes where it
//! is (for the message if it runs out). The note reuses one buffer: a script near its limit
//! runs its loops without a heap allocation per hook (every 1,000 instructions).

use skipper_core::alloc_count::allocations_in;
use skipper_torch_ros::{run_source, Options, Outcome, Stop};

#[global_allocator]
static GLOBAL: skipper_core::alloc_count::CountingAllocator =
    skipper_core::alloc_count::CountingAllocator;

/// The allocations of a script that fills 2.5 of its 4 MiB and then counts to `n`.
fn allocations_counting_to(n: u64) -> usize {
    let src = format!(
        "local parts = {{}}\n\
         for i = 1, 2500 do parts[i] = string.rep('x', 1000) .. i end\n\
         for i = 1, {n} do end\n\
         assert(collectgarbage('count') > 2048)"
    );
    let options = Options {
        memory_limit: 4 << 20,
        ..Options::default()
    };
    let (outcome, n) =
        allocations_in(|| run_source("near.lua", src.as_bytes(), &[], &options, &Stop::new()));
    assert_eq!(outcome, Ok(Outcome::Finished(0)));
    n
}

#[test]
fn a_script_near_its_memory_limit_loops_without_allocating_per_hook() {
    let short = allocations_counting_to(1_000_000);
    // 9,000 more hooks while the script holds more than half its limit; the fill's own
    // allocations vary by a few hundred from run to run (Lua seeds its string hashes)
    let long = allocations_counting_to(10_000_000);
    assert!(
        long.abs_diff(short) < 1_000,
        "{short} allocations counting to 10^6, {long} to 10^7"
    );
}
