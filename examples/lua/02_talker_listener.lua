-- Tutorial 2: a talker and a listener in one node, as torch-ros's demo does it: advertise
-- a topic, subscribe to it, publish at a rate and let ros.spinOnce() run the callback.
--
--   skipper run --ros &       # or any roscore: the ROS master at ROS_MASTER_URI
--   skipper lua examples/lua/02_talker_listener.lua [COUNT]
local ros = require 'ros'
ros.init('talker_listener')
local nh = ros.NodeHandle()
local count = tonumber(arg[1]) or 5

local heard = 0
local sub = nh:subscribe('chatter', 'std_msgs/String', 10)
sub:registerCallback(function(msg, header)
  heard = heard + 1
  ros.INFO('heard "%s" from %s', msg.data, header.callerid)
end)

local pub = nh:advertise('chatter', 'std_msgs/String', 10)
local rate = ros.Rate(10)
local n = 0
while ros.ok() and heard < count do
  if pub:getNumSubscribers() > 0 and n < count then   -- the listener is connected
    n = n + 1
    local m = pub:createMessage()
    m.data = 'hello world ' .. n
    pub:publish(m)
  end
  ros.spinOnce()
  rate:sleep()
end
sub:shutdown()
pub:shutdown()
ros.shutdown()
