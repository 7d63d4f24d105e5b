-- Talker, listener, a service server and a service client in torch-ros's style, with
-- the test's Rust node as the peer: it publishes `ping` on /from_rust (then `stop`),
-- listens on /from_lua, and offers /rust_mul (sum = a * b).
local ros = require 'ros'
ros.init('lua_chat')
local nh = ros.NodeHandle()
local add = ros.SrvSpec('test_lua/AddTwoInts', 'int64 a\nint64 b\n---\nint64 sum')

local heard = {}
local sub = nh:subscribe('from_rust', 'std_msgs/String', 10)
sub:registerCallback(function(msg, header)
  assert(header.callerid == '/rust_chat', 'the publisher is named')
  heard[#heard + 1] = msg.data
end)
local pub = nh:advertise('from_lua', 'std_msgs/String', 10)

local server = nh:advertiseService('lua_add', add, function(req, resp, header)
  assert(header.callerid == '/rust_chat', 'the caller is named')
  if req.a < 0 then return false end
  if req.a == 99 then error('99 is not added') end
  resp.sum = req.a + req.b
  return true
end)
assert(server:getService() == '/lua_add')

local client = nh:serviceClient('/rust_mul', add)
assert(client:waitForExistence(30), '/rust_mul exists')
local r = client:call({ a = 6, b = 7 })
assert(r and r.sum == 42, 'the Rust service multiplied')
local req = client:createRequest()
req.a, req.b = -1, 2
local none, why = client:call(req)
assert(none == nil and why:find('negative', 1, true), 'a failed call: ' .. tostring(why))

local n = 0
local function stopped()
  for _, h in ipairs(heard) do
    if h == 'stop' then return true end
  end
  return false
end
while ros.ok() and not stopped() do
  if pub:getNumSubscribers() > 0 then
    n = n + 1
    local m = pub:createMessage()
    m.data = 'hello ' .. n
    pub:publish(m)
  end
  ros.spinOnce(0.01)
end
assert(heard[1] == 'ping', 'heard the Rust talker first: ' .. tostring(heard[1]))
assert(sub:getNumPublishers() == 1)
print('chat done')
