//! Numbers on the command line that make no duration (a speed factor of 1e300, a rate of
//! 1e-300 Hz, ...) are bad input: exit status 2 and a sentence naming the flag, never a
//! panic.

use std::process::Command;

fn skipper(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(args)
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_bad_input(args: &[&str], flag: &str) {
    let (code, stderr) = skipper(args);
    assert_eq!(code, Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(flag), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

#[test]
fn run_rejects_speeds_and_rates_that_make_no_duration() {
    let base = ["run", "--realtime", "--until", "1s", "--no-log"];
    for (flag, value) in [
        ("--speed", "1e300"),
        ("--speed", "1e-300"),
        ("--speed", "inf"),
        ("--speed", "NaN"),
        ("--rate", "1e-300"),
        ("--rate", "1e300"),
    ] {
        let mut args = base.to_vec();
        args.extend([flag, value]);
        assert_bad_input(&args, flag);
    }
}

#[test]
fn link_serve_rejects_speeds_and_rates_that_make_no_duration() {
    for (flag, value) in [("--speed", "1e300"), ("--rate", "1e-300")] {
        assert_bad_input(
            &[
                "link",
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--agents",
                "0",
                "--realtime",
                "--until",
                "1s",
                "--no-log",
                flag,
                value,
            ],
            flag,
        );
    }
}

#[test]
fn until_too_large_is_bad_input() {
    assert_bad_input(&["run", "--until", "1e300", "--no-log"], "--until");
}
