//! Messages in Lua without a master (tests/scripts/messages.lua): specs and md5sums,
//! defaults, nested and array fields, torch-ros's print forms of messages and specs,
//! fillFromTable / clone / assign, Time and Duration, and clear errors for unknown
//! fields, unknown types and bad definitions.

mod common;
use common::*;
use skipper_torch_ros::Outcome;

#[test]
fn messages_specs_and_print_forms() {
    let script = Script::start("http://127.0.0.1:9/", "messages.lua", &[]);
    assert_eq!(script.join(), Ok(Outcome::Finished(0)));
}
