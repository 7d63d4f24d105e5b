//! The fuzz corpus of the mission loader, replayed as a regular test, and a property test
//! that token soup never panics the loader or the executive.

use proptest::prelude::*;
use skipper_mission::{load, Executive, Limits, LoadOptions};
use std::sync::Arc;
use std::time::Duration;

fn opts() -> LoadOptions {
    LoadOptions {
        limits: Limits {
            instructions: 200_000,
            memory: 8 << 20,
        },
        ..LoadOptions::default()
    }
}

fn exercise(text: &str) -> bool {
    match load(text, "fuzz.lua", &opts()) {
        Ok(m) => {
            let mut exec = Executive::new(Arc::new(m));
            let signals = skipper_core::Signals::new();
            for k in 0..5u64 {
                exec.tick(Duration::from_secs(k), &signals);
            }
            true
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            false
        }
    }
}

#[test]
fn the_fuzz_corpus_loads_or_fails_cleanly() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/mission_loader");
    let mut n = 0;
    let mut loaded = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        if let Ok(text) = std::str::from_utf8(&bytes) {
            loaded += usize::from(exercise(text));
        }
        n += 1;
    }
    assert!(n >= 8, "corpus has {n} files");
    assert!(loaded >= 2, "some corpus missions load");
}

const TOKENS: &[&str] = &[
    "NAME = 'p'\n",
    "STACK = {",
    "}",
    "{",
    ",",
    ";",
    "BEHAVIOR(",
    "COMMAND(",
    ")",
    "Guidance.YoYo",
    "Guidance.Waypoint",
    "Guidance.Wait",
    "Guidance.GoToSurface",
    ":SET(",
    "Guidance.Wait.DURATION",
    "Units.SECOND",
    "Units.METER(3)",
    "Units.DEGREE(1, 2)",
    ":WHEN(",
    ":WHILE(",
    ":UNTIL(",
    ":WITHIN(",
    ":REPEAT(",
    "2",
    "-1",
    "math.huge",
    "UniversalURI.DEPTH",
    ":GT(",
    ":ELAPSED(",
    "Units.HOUR(1)",
    ":AND(",
    ":OR(",
    ":NOT()",
    "true",
    "false",
    "ID = 'x'",
    "WHEN = ",
    "REPEAT = ",
    "PREEMPTIVE = true",
    "nil",
    "\n",
    "workSite.latitude",
    "Control.SpeedControl.SPEED_SLOW",
    "Guidance.Waypoint.WAYPOINT",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn token_soup_never_panics(idx in proptest::collection::vec(0..TOKENS.len(), 0..40)) {
        let text: String = idx.iter().map(|&i| TOKENS[i]).collect();
        exercise(&text);
    }
}
