//! What the end-to-end ROS tests share: a `skipper run --ros` child that is interrupted
//! (Ctrl-C, then killed after 10 s) when the test ends, and `skipper action send`.

use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

/// A running `skipper` process, interrupted when dropped.
pub struct Run(pub Child);

impl Drop for Run {
    fn drop(&mut self) {
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
