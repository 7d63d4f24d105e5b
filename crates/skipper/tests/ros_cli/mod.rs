//! What the end-to-end ROS tests share: a `skipper run --ros` child that is interrupted
//! (Ctrl-C, then killed after 10 s) when the test ends, and `skipper action send` with
//! a check that it succeeded.

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A running `skipper` process, interrupted when dropped.
pub struct Run(pub Child);

impl Run {
    /// `skipper ARGS...`, its output discarded.
    pub fn start(args: &[&str]) -> Run {
        Run(Command::new(env!("CARGO_BIN_EXE_skipper"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap())
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        // a child the test already waited for is gone: its pid may belong to another
        if let Ok(Some(_)) = self.0.try_wait() {
            return;
        }
        let _ = Command::new("kill")
            .args(["-INT", &self.0.id().to_string()])
            .status();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.0.kill();
    }
}

/// `skipper action send --master MASTER ARGS...`.
pub fn send(master: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(["action", "send", "--master", master])
        .args(args)
        .output()
        .unwrap()
}

/// The standard output of a command that must have exited with status 0 (both outputs
/// are shown if it did not).
pub fn succeeded(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}
