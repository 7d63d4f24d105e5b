//! `/rosout`: a script's log lines reach a subscriber of `/rosout` as rosgraph_msgs/Log
//! with the level, the node's name, the text and the script's file, function and line;
//! a logger's level set below a line keeps it off `/rosout` too; and Skipper's own
//! `tracing` events of the process go out on the Lua node's `/rosout` too (the layer
//! installed as `skipper` installs it). The script logs until the test says (latched,
//! on /log_heard) that it heard every line it waits for.

mod common;
use common::*;
use skipper_ros1_wire::msg::common::StringMsg;
use skipper_ros1_wire::msg::sensor::Log;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::topics::subscribe;
use skipper_ros1_wire::TypedPublisher;
use skipper_torch_ros::Outcome;
use std::sync::{Arc, Mutex};

const SCRIPT: &str = r#"local ros = require 'ros'
ros.init('lua_log')
local nh = ros.NodeHandle()
local heard = false
local sub = nh:subscribe('/log_heard', 'std_msgs/String', 1)
sub:registerCallback(function() heard = true end)
ros.console.setLoggerLevel('quiet', ros.console.Level.Error)
local function report(n)
  ros.WARN('warned %d', n)
end
local n = 0
while ros.ok() and not heard do
  n = n + 1
  report(n)
  ros.INFO_NAMED('quiet', 'not shown')
  ros.ERROR_NAMED('quiet', 'shown')
  ros.spinOnce()
  sys.sleep(0.02)
end
"#;

#[test]
fn log_lines_go_to_rosout_with_their_place_in_the_script() {
    let m = FakeMaster::start().unwrap();
    let n = node(&m, "/rust_rosout");
    let lines: Arc<Mutex<Vec<Log>>> = Arc::default();
    let l2 = lines.clone();
    let _sub = subscribe(&n, "/rosout", move |log: Log, from| {
        assert_eq!(from, "/lua_log");
        l2.lock().unwrap().push(log);
    })
    .unwrap();
    let heard: TypedPublisher<StringMsg> =
        TypedPublisher::advertise(&n, "/log_heard", true).unwrap();
    let script = Script::source(&m.uri, "/tmp/log.lua", SCRIPT.as_bytes().to_vec(), &[]);
    let has = |level: i8, text: &str| {
        let lines = lines.clone();
        let text = text.to_string();
        move || {
            lines
                .lock()
                .unwrap()
                .iter()
                .any(|l| l.level == level && l.msg.starts_with(&text))
        }
    };
    wait_until("a WARN line on /rosout", has(4, "warned "));
    wait_until("an ERROR line on /rosout", has(8, "shown"));
    {
        use skipper_ros1_wire::rosout;
        use tracing_subscriber::prelude::*;
        tracing_subscriber::registry()
            .with(rosout::layer().with_filter(rosout::default_filter()))
            .init();
    }
    tracing::warn!("a warning of skipper's own");
    wait_until(
        "the tracing event on /rosout",
        has(4, "a warning of skipper's own"),
    );
    heard.publish(&StringMsg {
        data: "heard".into(),
    });
    assert_eq!(script.join(), Ok(Outcome::Finished(0)));
    let lines = lines.lock().unwrap();
    let warn = lines.iter().find(|l| l.level == 4).unwrap();
    assert_eq!(warn.name, "/lua_log");
    assert!(warn.msg.starts_with("warned "), "{}", warn.msg);
    assert_eq!(
        (warn.file.as_str(), warn.function.as_str(), warn.line),
        ("/tmp/log.lua", "report", 9)
    );
    assert!(!warn.header.stamp.is_zero());
    let error = lines.iter().find(|l| l.level == 8).unwrap();
    assert_eq!((error.msg.as_str(), error.line), ("shown", 16));
    assert!(
        lines.iter().all(|l| l.msg != "not shown"),
        "a line below its logger's level stays off /rosout"
    );
}
