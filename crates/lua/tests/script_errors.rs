//! How a script ends: a syntax error (a load error with file:line), a Lua error (its
//! message with file:line and the traceback), `os.exit` and a returned status, the
//! memory limit, no master, and a runaway script that a stop request interrupts after
//! the grace period, its active goal ended (ABORTED) rather than left active.

mod common;
use common::*;
use skipper_actionlib::msg::dynamic::Value;
use skipper_actionlib::ros1::testing::FakeMaster;
use skipper_actionlib::ros1::ActionClientBinding;
use skipper_actionlib::*;
use skipper_lua::{run_source, Options, Outcome, ScriptError, Stop};
use std::sync::Arc;
use std::time::Duration;

fn run(name: &str, src: &str, options: &Options) -> Result<Outcome, ScriptError> {
    run_source(name, src.as_bytes(), &[], options, &Stop::new())
}

#[test]
fn errors_exits_and_limits() {
    let o = Options::default();
    match run("bad.lua", "local x = = 1", &o) {
        Err(ScriptError::Load(m)) => assert!(m.contains("bad.lua:1:"), "{m}"),
        other => panic!("{other:?}"),
    }
    match run(
        "boom.lua",
        "local function f()\n  error('boom')\nend\nf()",
        &o,
    ) {
        Err(ScriptError::Failed(m)) => {
            assert!(m.starts_with("boom.lua:2: boom"), "{m}");
            assert!(
                m.contains("stack traceback:") && m.contains("boom.lua:4: in main chunk"),
                "{m}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(run("exit.lua", "os.exit(3)", &o), Ok(Outcome::Finished(3)));
    assert_eq!(run("ret.lua", "return 4", &o), Ok(Outcome::Finished(4)));
    assert_eq!(run("ok.lua", "local x = 1", &o), Ok(Outcome::Finished(0)));
    let small = Options {
        memory_limit: 16 << 20,
        ..Options::default()
    };
    match run(
        "big.lua",
        "local t = {}\nfor i = 1, 1e9 do t[i] = i end",
        &small,
    ) {
        Err(ScriptError::Failed(m)) => assert!(m.contains("memory"), "{m}"),
        other => panic!("{other:?}"),
    }
    let nowhere = Options {
        master_uri: Some("http://127.0.0.1:9/".into()),
        ..Options::default()
    };
    match run(
        "init.lua",
        "local ros = require 'ros'\nros.init('x')",
        &nowhere,
    ) {
        Err(ScriptError::Failed(m)) => assert!(
            m.contains("init.lua:2: ROS master at http://127.0.0.1:9/"),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_runaway_script_is_interrupted_and_leaves_no_goal_active() {
    let m = FakeMaster::start().unwrap();
    let script = Script::start(&m.uri, "runaway.lua", &[]);
    let n = node(&m, "/client");
    let a = DynAction::load("actionlib/Test").unwrap();
    let ac = ActionClient::with_type(a.clone(), "/client", Arc::new(SystemClock));
    let _b = ActionClientBinding::new(&n, "/runaway", &ac).unwrap();
    assert!(ac.wait_for_server(Some(Duration::from_secs(30))));
    let mut g = a.new_goal();
    g.set("goal", Value::I32(1)).unwrap();
    let h = ac.send_goal(g, None, None);
    wait_until("the goal is active", || {
        h.goal_status() == StatusCode::Active
    });
    assert_eq!(script.stop(), Ok(Outcome::Stopped));
    wait_until("the goal ended", || h.comm_state() == CommState::Done);
    assert_eq!(h.terminal_state(), StatusCode::Aborted);
}
