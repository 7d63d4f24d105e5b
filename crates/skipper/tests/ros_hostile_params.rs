//! `skipper run --ros` against a master whose parameters no duration can hold:
//! `actionlib_status_frequency = 1e-300` and
//! `/robot1/goto/status_list_timeout = 1e300` are clamped with a warning, and the run
//! goes to its time limit (exit 0) instead of panicking.

use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::xmlrpc::Value;
use std::process::Command;

fn run_against(m: &FakeMaster) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(["run", "--ros", &m.uri, "--no-log", "--until", "1s"])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[cfg(unix)]
#[test]
fn a_status_frequency_of_1e_minus_300_hz_is_clamped_with_a_warning() {
    let m = FakeMaster::start().unwrap();
    m.set_param("/actionlib_status_frequency", Value::Double(1e-300));
    let (code, stderr) = run_against(&m);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("status period"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_status_list_timeout_of_1e300_s_is_clamped_with_a_warning() {
    let m = FakeMaster::start().unwrap();
    m.set_param("/robot1/goto/status_list_timeout", Value::Double(1e300));
    let (code, stderr) = run_against(&m);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("/robot1/goto/status_list_timeout = 1e300 s is out of range"),
        "{stderr}"
    );
}
