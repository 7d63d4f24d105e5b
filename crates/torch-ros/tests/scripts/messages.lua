-- Messages without a master: specs, defaults, nested and array fields, print forms,
-- conversions' errors. Every check raises on failure; the script returns 0.
local ros = require 'ros'

local function expect(got, want, what)
  if got ~= want then
    error(string.format('%s:\n--- got\n%s\n--- want\n%s', what, tostring(got), tostring(want)), 2)
  end
end

local function fails(f, pattern, what)
  local ok, err = pcall(f)
  assert(not ok, what .. ': no error')
  assert(tostring(err):find(pattern, 1, true), what .. ': ' .. tostring(err))
end

-- a spec, and its print form
local spec = ros.MsgSpec('geometry_msgs/Twist')
expect(spec.type, 'geometry_msgs/Twist', 'spec.type')
expect(spec:md5(), '9f195f881246fdfa2798d1d3eebca84a', 'Twist md5')
expect(#spec.fields, 2, 'Twist has two fields')
expect(spec.fields.linear.spec.type, 'geometry_msgs/Vector3', 'nested spec')
expect(tostring(ros.MsgSpec('std_msgs/String')),
  'Message std_msgs/String\nFields:\n  string data\nMD5:    992ce8a1687cec8c8bd883ec73ca41d1\n',
  'std_msgs/String spec')

-- defaults, nested fields, and torch-ros's print form
local tw = ros.Message('geometry_msgs/Twist')
expect(tw.linear.x, 0.0, 'default float')
tw.linear.x = 0.5
tw.angular.z = -1
expect(tostring(tw), table.concat({
  'geometry_msgs/Twist {',
  '  linear : ',
  '  geometry_msgs/Vector3 {',
  '    x : 0.5',
  '    y : 0',
  '    z : 0',
  '  }',
  '  angular : ',
  '  geometry_msgs/Vector3 {',
  '    x : 0',
  '    y : 0',
  '    z : -1',
  '  }',
  '}', ''}, '\n'), 'Twist print form')

-- strings quoted, times printed as seconds, numeric arrays as torch prints a tensor
local st = ros.Message('std_msgs/String')
st.data = 'hello'
expect(tostring(st), 'std_msgs/String {\n  data : "hello"\n}\n', 'String print form')
local h = ros.Message('std_msgs/Header')
h.stamp = ros.Time(12, 500000000)
h.frame_id = 'odom'
expect(tostring(h), 'std_msgs/Header {\n  seq : 0\n  stamp : 12.500000\n  frame_id : "odom"\n}\n', 'Header print form')
local ps = ros.MsgSpec('test_lua/Arrays', 'int32[] ints\nstring[] names\nfloat64[2] pair\ngeometry_msgs/Point[] points')
local a = ros.Message(ps)
expect(#a.pair, 2, 'a fixed array has its size')
local b = ros.Message(ps)
b.pair = { 0.5, 2 }
assert(tostring(b):find('  pair : \n 0.5000\n 2.0000\n[torch.DoubleTensor of size 2]\n', 1, true), tostring(b))
a.ints = { 1, 22, 333 }
a.names = { 'a', 'b' }
a.points[1] = ros.Message('geometry_msgs/Point')
a.points[1].y = 2
expect(tostring(a), table.concat({
  'test_lua/Arrays {',
  '  ints : ',
  '   1', '  22', ' 333',
  '[torch.IntTensor of size 3]',
  '  names : [',
  '  "a",',
  '  "b",',
  ']',
  '  pair : ',
  ' 0', ' 0',
  '[torch.DoubleTensor of size 2]',
  '  points : [',
  '    geometry_msgs/Point {',
  '      x : 0',
  '      y : 2',
  '      z : 0',
  '    }',
  '  ]',
  '}', ''}, '\n'), 'arrays print form')

-- fillFromTable, clone, assign
local g = ros.Message('geometry_msgs/Pose')
g:fillFromTable({ position = { x = 1, y = 2 }, orientation = { w = 1 } })
expect(g.position.y, 2, 'fillFromTable nested')
local c = g:clone()
c.position.x = 9
expect(g.position.x, 1, 'a clone is deep')
local d = ros.Message('geometry_msgs/Pose')
d:assign(c)
expect(d.position.x, 9, 'assign from a message')

-- errors: unknown fields, wrong types (checked where a message crosses into Rust)
fails(function() tw.lenear = 1 end, 'geometry_msgs/Twist has no field `lenear`', 'unknown field')
fails(function() ros.Message('no_such_pkg/Nothing') end, 'no_such_pkg/Nothing', 'unknown type')
fails(function() ros.MsgSpec('bad/Def', 'int32 x\nfloat96 y') end, 'float96', 'bad definition')

-- Time and Duration
local t = ros.Time(10, 0) + ros.Duration(1.5)
expect(tostring(t), '11.500000', 'Time + Duration')
expect((t - ros.Time(10)):toSec(), 1.5, 'Time - Time')
assert(ros.Duration(1) < ros.Duration(2), 'Duration <')
local d2 = ros.Duration(2)
d2:add(1)
expect(d2:toSec(), 3.0, 'Duration:add in place')
assert(ros.Time.now():toSec() > 1e9, 'now is the wall clock')

-- services' and actions' specs
local srv = ros.SrvSpec('test_lua/AddTwoInts', 'int64 a\nint64 b\n---\nint64 sum')
expect(srv.response_spec.fields[1].name, 'sum', 'srv response')
local act = ros.actionlib.ActionSpec('actionlib/Test')
expect(act.goal_spec.type, 'actionlib/TestGoal', 'action goal spec')
expect(act.action_goal_spec:md5(), '348369c5b403676156094e8c159720bf', 'TestActionGoal md5')
print('all message checks passed')
return 0
