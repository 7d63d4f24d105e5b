//! What a script passes that no wait or array can be: NaN, negative
//! or huge seconds, and a table whose length (`#t`, a border) is 2^30 with 33 keys. The
//! script gets a Lua error it can catch, never a panic or an abort of the host. Before
//! the fixes, `sub:read(0/0)` panicked in `Duration::from_secs_f64`, and publishing the
//! table reserved 2^30 elements up front (memory allocation failed: abort).

use skipper_ros1_wire::testing::FakeMaster;
use skipper_torch_ros::{run_source, Options, Outcome, Stop};

const SCRIPT: &str = r#"
local ros = require 'ros'
ros.init('bad_numbers')
local nh = ros.NodeHandle()
local sub = nh:subscribe('nothing_here', 'std_msgs/String', 1)
local function fails(what, f, pattern)
  local ok, e = pcall(f)
  assert(not ok, what .. ' did not fail')
  assert(tostring(e):find(pattern, 1, true), what .. ': ' .. tostring(e))
end
local secs = 'is not a number of seconds'
fails('sub:read(NaN)', function() return sub:read(0/0) end, secs)
fails('sys.sleep(NaN)', function() sys.sleep(0/0) end, secs)
fails('sys.sleep(-1)', function() sys.sleep(-1) end, secs)
fails('sys.sleep(1e300)', function() sys.sleep(1e300) end, secs)
fails('ros.Rate(1e-300)', function() ros.Rate(1e-300) end, secs)
-- a negative wait is no wait: nothing has arrived
assert(sub:read(-5) == nil, 'a read with a negative timeout returns at once')

local spec = ros.MsgSpec('test_lua/Floats', 'float64[] v')
-- 1, 2, 4, 5, 8 and 9 fill the array part up to 8; 16 ... 2^30 sit in the hash part, and
-- the border search doubles through them: #sparse is 2^30 with 33 keys
local sparse = { [1] = 1.0, [2] = 1.0, [4] = 1.0, [5] = 1.0, [8] = 1.0, [9] = 1.0 }
for k = 4, 30 do sparse[math.tointeger(2 ^ k)] = 1.0 end
assert(#sparse == 2 ^ 30, 'the border is 2^30, got ' .. #sparse)
local pub = nh:advertise('floats', spec, 1)
fails('publish a sparse array', function() pub:publish({ v = sparse }) end, 'v[3]')
ros.shutdown()
return 7
"#;

#[test]
fn bad_waits_and_sparse_arrays_are_script_errors() {
    let m = FakeMaster::start().unwrap();
    let options = Options {
        master_uri: Some(m.uri.clone()),
        ..Options::default()
    };
    let out = run_source("bad.lua", SCRIPT.as_bytes(), &[], &options, &Stop::new());
    assert_eq!(out, Ok(Outcome::Finished(7)));
}
