//! A script's node takes the name roscpp gives it: `ros.init`'s name in the namespace of
//! `__ns:=` (or `ROS_NAMESPACE`), the same name for the script (`ros.this_node`) and for
//! the master, and the script's names resolve in that namespace.

mod common;
use common::*;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::xmlrpc::Value;
use skipper_torch_ros::Outcome;

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

/// `_param:=value` sets `~param` as roscpp's `param::init` does: resolved in the node's
/// namespace and through the remaps (`~speed:=/fleet/speed` moves it), before the script
/// runs. `__ns:=` is given, so `ROS_NAMESPACE` (the other test's) does not matter.
#[test]
fn private_parameters_from_the_arguments_resolve_through_the_remaps() {
    let m = FakeMaster::start().unwrap();
    let src = "local ros = require 'ros'
ros.init('driver')
ros.shutdown()";
    let args = [
        "__ns:=/robots",
        "_speed:=0.5",
        "~speed:=/fleet/speed",
        "_gain:=2",
    ];
    let s = Script::source(&m.uri, "params.lua", src.into(), &args);
    assert_eq!(s.join(), Ok(Outcome::Finished(0)));
    assert_eq!(m.param("/fleet/speed"), Some(Value::Double(0.5)));
    assert_eq!(m.param("/robots/driver/speed"), None);
    assert_eq!(m.param("/robots/driver/gain"), Some(Value::Int(2)));
}
