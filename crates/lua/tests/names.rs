//! A script's node takes the name roscpp gives it: `ros.init`'s name in the namespace of
//! `__ns:=` (or `ROS_NAMESPACE`), the same name for the script (`ros.this_node`) and for
//! the master, and the script's names resolve in that namespace.

mod common;
use common::*;
use skipper_actionlib::ros1::testing::FakeMaster;
use skipper_lua::Outcome;

/// `ROS_NAMESPACE` is the process's: this file's one test sets it.
#[test]
fn a_namespaced_script_registers_under_its_one_full_name() {
    std::env::set_var("ROS_NAMESPACE", "robots");
    let m = FakeMaster::start().unwrap();
    let src = "local ros = require 'ros'
ros.init('talker')
assert(ros.this_node.getName() == '/robots/talker', ros.this_node.getName())
assert(ros.this_node.getNamespace() == '/robots', ros.this_node.getNamespace())
local nh = ros.NodeHandle()
local pub = nh:advertise('chatter', 'std_msgs/String', 1)
assert(nh:resolveName('~a//b/') == '/robots/talker/a/b', nh:resolveName('~a//b/'))
ros.shutdown()";
    let s = Script::source(&m.uri, "names.lua", src.into(), &[]);
    assert_eq!(s.join(), Ok(Outcome::Finished(0)));
    assert_eq!(m.callers(), ["/robots/talker"]);
}
