-- torch-ros style servers for rospy peers (scripts/ros/lua_check.sh, lua_peers.py):
-- a SimpleActionServer on /lua/simple (1 succeeds with result 10 and a text, 2 aborts,
-- 3 raises a Lua error in the goal callback, other goals send their number as
-- feedback until preempted or cancelled), an ActionServer on /lua/multi (1 succeeds,
-- 3 rejected, 4 kept until cancelled), a talker on /lua_chatter that repeats what it
-- heard on /py_chatter, and the service /lua_set (std_srvs/SetBool). Runs until stopped.
local ros = require 'ros'
require 'ros.actionlib.SimpleActionServer'
require 'ros.actionlib.ActionServer'
local actionlib = ros.actionlib

ros.init('lua_servers')
local nh = ros.NodeHandle()

local simple = actionlib.SimpleActionServer(nh, '/lua/simple', 'actionlib/Test')
local current
simple:registerGoalCallback(function(s)
  local g = s:acceptNewGoal()
  current = g.goal
  if g.goal == 1 then
    local r = s:createResult()
    r.result = 10
    s:setSucceeded(r, 'the Lua server has succeeded')
    current = nil
  elseif g.goal == 2 then
    s:setAborted(nil, 'the Lua server has aborted')
    current = nil
  elseif g.goal == 3 then
    current = nil
    error('goal 3 raises')
  end
end)
simple:registerPreemptCallback(function(s)
  if not s:isNewGoalAvailable() then
    local r = s:createResult()
    r.result = -1
    s:setPreempted(r, 'the Lua server was preempted')
    current = nil
  end
end)
simple:start()

local multi = actionlib.ActionServer(nh, '/lua/multi', 'actionlib/Test')
multi:registerGoalCallback(function(gh)
  local g = gh:getGoal().goal
  if g == 3 then
    gh:setRejected(nil, 'the Lua server has rejected')
    return
  end
  gh:setAccepted()
  if g == 1 then gh:setSucceeded(nil, 'the Lua server has succeeded') end
end)
multi:registerCancelCallback(function(gh) gh:setCanceled(nil, 'canceled') end)
multi:start()

local talker = nh:advertise('/lua_chatter', 'std_msgs/String', 10)
local listener = nh:subscribe('/py_chatter', 'std_msgs/String', 10)
listener:registerCallback(function(msg)
  local m = talker:createMessage()
  m.data = 'lua heard: ' .. msg.data
  talker:publish(m)
end)
local service = nh:advertiseService('/lua_set', 'std_srvs/SetBool', function(req, resp)
  resp.success = not req.data
  resp.message = 'lua got ' .. tostring(req.data)
  return true
end)

print('lua servers ready')
io.stdout:flush()
local rate = ros.Rate(50)
while ros.ok() do
  ros.spinOnce()
  if current and simple:isActive() then
    local f = simple:createFeedback()
    f.feedback = current
    simple:publishFeedback(f)
  end
  rate:sleep()
end
service:shutdown()
