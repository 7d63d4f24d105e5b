//! Running the `skipper` binary from a test, as the command-line tests do.
#![allow(dead_code)] // each test file uses what it needs

use std::path::Path;
use std::process::{Command, Output};

/// `skipper ARGS`, in the test's working directory.
pub fn skipper(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(args)
        .output()
        .expect("run skipper")
}

/// `skipper ARGS`, run in `dir`.
pub fn skipper_in(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run skipper")
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
