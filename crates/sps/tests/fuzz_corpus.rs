//! The fuzz corpus of `link_commands` (fuzz/corpus/link_commands) replayed as a test,
//! plus generated inputs: decoding and processing never panic.

use proptest::prelude::*;
use std::path::Path;

#[test]
fn corpus_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/link_commands");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let data = std::fs::read(e.unwrap().path()).unwrap();
        skipper_sps::wire::fuzz_one(&data);
        n += 1;
    }
    assert!(n >= 5, "corpus at {} has {n} files", dir.display());
}

fn param() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|i| format!("{{\"i\":{i}}}")),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{{\"f\":{f:?}}}")),
        "[a-z0-9 .-]{0,8}".prop_map(|s| format!("{{\"s\":\"{s}\"}}")),
        "[A-C][0-3]".prop_map(|s| format!("{{\"id\":\"{s}\"}}")),
    ]
}

proptest! {
    #[test]
    fn generated_steps_never_panic(
        names in proptest::collection::vec(prop::sample::select(vec![
            "motor", "set-velocity", "set-heading", "stop", "estop", "add-waypoint",
            "remove-waypoint", "enable-waypoint", "disable-waypoint", "send-message",
            "remove-message", "clear-messages", "configure", "fly"]), 0..6),
        attrs in proptest::collection::vec((prop::sample::select(vec![
            "left", "right", "linear-velocity", "angular-velocity", "yaw", "id", "x", "y",
            "destination", "first", "yaw-format", "offset-x", "offset-y", "word", "next"]), param()), 0..8),
        nodes in proptest::collection::vec(("[A-C][0-3]", param(), param()), 0..6),
    ) {
        let a: Vec<String> = attrs.iter().map(|(k, v)| format!("[\"{k}\",{v}]")).collect();
        let cmds: Vec<String> = names.iter().enumerate()
            .map(|(i, n)| format!("{{\"tt\":{i},\"name\":\"{n}\",\"attrs\":[{}]}}", a.join(",")))
            .collect();
        let ids: Vec<String> = nodes.iter()
            .map(|(n, w, nx)| format!("\"{n}\":[[\"word\",{w}],[\"next\",{nx}]]"))
            .collect();
        let line = format!("{{\"type\":\"step\",\"commands\":[{}],\"ids\":{{{}}}}}", cmds.join(","), ids.join(","));
        skipper_sps::wire::fuzz_one(line.as_bytes());
    }
}
