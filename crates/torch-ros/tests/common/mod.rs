//! Helpers of the tests: a fake master, a script running on a thread of its own, a
//! node of the test's, and waiting for a state (never a fixed sleep).
#![allow(dead_code)]

use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::{Node, NodeConfig};
use skipper_torch_ros::{run_source, Options, Outcome, ScriptError, Stop};
use std::path::Path;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A script running on its own thread against a master.
pub struct Script {
    pub stop: Stop,
    thread: Option<JoinHandle<Result<Outcome, ScriptError>>>,
}

impl Script {
    /// Run `tests/scripts/NAME` with `args`.
    pub fn start(master: &str, name: &str, args: &[&str]) -> Self {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/scripts")
            .join(name);
        let src = std::fs::read(&path).unwrap();
        Self::source(master, &path.display().to_string(), src, args)
    }

    /// Run a script's source.
    pub fn source(master: &str, name: &str, src: Vec<u8>, args: &[&str]) -> Self {
        let options = Options {
            master_uri: Some(master.to_string()),
            grace: Duration::from_secs(1),
            ..Options::default()
        };
        Self::with_options(name, src, args, options)
    }

    /// Run a script's source with `options`.
    pub fn with_options(name: &str, src: Vec<u8>, args: &[&str], options: Options) -> Self {
        let stop = Stop::new();
        let (s2, name) = (stop.clone(), name.to_string());
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let thread = std::thread::spawn(move || run_source(&name, &src, &args, &options, &s2));
        Self {
            stop,
            thread: Some(thread),
        }
    }

    /// Wait for the script to end.
    pub fn join(mut self) -> Result<Outcome, ScriptError> {
        self.thread.take().unwrap().join().unwrap()
    }

    /// Ask it to stop and wait for it.
    pub fn stop(self) -> Result<Outcome, ScriptError> {
        self.stop.request();
        self.join()
    }
}

impl Drop for Script {
    fn drop(&mut self) {
        self.stop.request();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A node of the test's on `m`.
pub fn node(m: &FakeMaster, name: &str) -> Node {
    let mut c = NodeConfig::from_env(name);
    c.master_uri = m.uri.clone();
    c.advertise_host = "127.0.0.1".into();
    Node::new(c).unwrap()
}

/// Wait until `f` holds (a generous bound only so that a broken build fails instead of
/// hanging).
pub fn wait_until(what: &str, f: impl Fn() -> bool) {
    let end = Instant::now() + Duration::from_secs(60);
    while !f() {
        assert!(Instant::now() < end, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}
