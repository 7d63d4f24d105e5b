//! `ros.master.execute(method, request)` as torch-ros's getSystemState demo calls it:
//! the request is the call's parameters with the caller id first, or the caller id
//! alone; the reply is `true, nil, payload` or `false, why`.

mod common;
use common::*;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_torch_ros::Outcome;

#[test]
fn master_calls_with_the_caller_id_alone_or_first() {
    let m = FakeMaster::start().unwrap();
    let src = format!(
        "local ros = require 'ros'
ros.init('master_api')
local ok, _, uri = ros.master.execute('getUri', ros.this_node.getName())
assert(ok and uri == '{uri}', 'getUri with the caller id alone: ' .. tostring(uri))
ok, _, uri = ros.master.execute('getUri', {{ ros.this_node.getName() }})
assert(ok and uri == '{uri}', 'getUri with a parameter list')
local bad, why = ros.master.execute('noSuchMethod', {{ ros.this_node.getName() }})
assert(not bad and type(why) == 'string', 'an unknown method fails')
ros.shutdown()",
        uri = m.uri
    );
    let s = Script::source(&m.uri, "master_api.lua", src.into_bytes(), &[]);
    assert_eq!(s.join(), Ok(Outcome::Finished(0)));
}
