-- Tutorial 3: actionlib in one node. A SimpleActionServer counts up to its goal, with
-- feedback each step; a SimpleActionClient in the same script sends it a goal, prints the
-- feedback as it arrives and waits for the result. The server's callbacks and the
-- client's run when the script spins (here, inside the client's waits and spinOnce).
--
--   skipper lua examples/lua/03_action_server_client.lua [GOAL]
local ros = require 'ros'
require 'ros.actionlib.SimpleActionServer'
require 'ros.actionlib.SimpleActionClient'
local actionlib = ros.actionlib

ros.init('count_up')
local nh = ros.NodeHandle()

-- the server: actionlib/Test (int32 goal / int32 result / int32 feedback)
local server = actionlib.SimpleActionServer(nh, 'count_up', 'actionlib/Test')
local target, at = nil, 0
server:registerGoalCallback(function(s)
  target, at = s:acceptNewGoal().goal, 0
end)
server:registerPreemptCallback(function(s)
  s:setPreempted(nil, 'stopped at ' .. at)
  target = nil
end)
server:start()

-- one step of the server's work: count, feedback, done at the goal
local function work()
  if not (target and server:isActive()) then return end
  at = at + 1
  local f = server:createFeedback()
  f.feedback = at
  server:publishFeedback(f)
  if at >= target then
    local r = server:createResult()
    r.result = at
    server:setSucceeded(r, 'counted to ' .. at)
    target = nil
  end
end

-- the client
local client = actionlib.SimpleActionClient('actionlib/Test', 'count_up', nh)
assert(client:waitForServer(ros.Duration(10)), 'the server is up')
local goal = client:createGoal()
goal.goal = tonumber(arg[1]) or 3
local done
client:sendGoal(goal,
  function(state, result) done = { state, result } end,
  function() print('goal active') end,
  function(feedback) print('feedback: ' .. feedback.feedback) end)

local rate = ros.Rate(20)
while ros.ok() and not done do
  ros.spinOnce()
  work()
  rate:sleep()
end
local S = actionlib.SimpleClientGoalState
print(string.format('%s: %s (result %d)', S[done[1]], client:getGoalStatusText(), done[2].result))
server:shutdown()
ros.shutdown()
return done[1] == S.SUCCEEDED and 0 or 1
