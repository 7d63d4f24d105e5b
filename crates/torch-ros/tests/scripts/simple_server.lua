-- A SimpleActionServer in torch-ros's style (actionlib/Test): goal 1 succeeds with
-- result 10, goal 2 is aborted, goal 3 raises a Lua error in the goal callback; other
-- goals run (feedback = the goal each cycle) until preempted or cancelled.
local ros = require 'ros'
require 'ros.actionlib.SimpleActionServer'
local actionlib = ros.actionlib

ros.init('lua_simple_server')
local nh = ros.NodeHandle()
local as = actionlib.SimpleActionServer(nh, 'test_action', 'actionlib/Test')
local current

local function on_goal(server)
  local g = server:acceptNewGoal()
  current = g.goal
  if g.goal == 1 then
    local r = server:createResult()
    r.result = 10
    server:setSucceeded(r, 'done one')
    current = nil
  elseif g.goal == 2 then
    server:setAborted(nil, 'aborted two')
    current = nil
  elseif g.goal == 3 then
    local nothing
    return nothing.field -- a Lua error in a callback
  end
end

local function on_preempt(server)
  -- a newer goal preempts by being accepted; a cancel ends the goal here
  if not server:isNewGoalAvailable() then
    local r = server:createResult()
    r.result = -1
    server:setPreempted(r, 'preempted')
    current = nil
  end
end

as:registerGoalCallback(on_goal)
as:registerPreemptCallback(on_preempt)
as:start()
print('server ready')
while ros.ok() do
  ros.spinOnce()
  if current and as:isActive() then
    local f = as:createFeedback()
    f.feedback = current
    as:publishFeedback(f)
  end
  sys.sleep(0.01)
end
as:shutdown()
ros.shutdown()
