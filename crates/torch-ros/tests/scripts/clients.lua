-- A SimpleActionClient and an ActionClient in torch-ros's style against the reference
-- server of the test (actionlib/Test on `ref`): 1 succeeds (result 2, its text), 2 is
-- aborted, 4 sends feedback 4 until preempted (result -4).
local ros = require 'ros'
require 'ros.actionlib.SimpleActionClient'
require 'ros.actionlib.ActionClient'
local actionlib = ros.actionlib
local S = actionlib.SimpleClientGoalState
local CommState = actionlib.CommState
local GoalStatus = actionlib.GoalStatus

ros.init('lua_clients')
local nh = ros.NodeHandle()
local ac = actionlib.SimpleActionClient('actionlib/Test', 'ref', nh)
assert(ac:waitForServer(ros.Duration(30)), 'the server is up')

local function goal(n)
  local g = ac:createGoal()
  g.goal = n
  return g
end

local function spin_until(f)
  while ros.ok() and not f() do ros.spinOnce(0.01) end
end

-- the synchronous API
local state, name = ac:sendGoalAndWait(goal(1), ros.Duration(30), ros.Duration(5))
assert(state == S.SUCCEEDED and name == 'SUCCEEDED', 'goal 1: ' .. tostring(name))
assert(ac:getResult().result == 2, 'goal 1 result')
assert(ac:getGoalStatusText() == 'The ref server has succeeded', ac:getGoalStatusText())
state = ac:sendGoalAndWait(goal(2), 30, 5)
assert(state == S.ABORTED, 'goal 2: ' .. S[state])
assert(ac:getGoalStatusText() == 'The ref server has aborted')

-- callbacks: active, feedback, done (feedback is checked on a goal that is still
-- running: the protocol does not order a goal's feedback before its result); a cancel
local done, active, feedback = nil, false, {}
ac:sendGoal(goal(4),
  function(st, r) done = { st, r } end,
  function() active = true end,
  function(f) feedback[#feedback + 1] = f.feedback end)
-- (feedback and the status that makes the goal active come on two topics: either first)
spin_until(function() return #feedback > 0 and active end)
assert(feedback[1] == 4 and ac:getState() == S.ACTIVE, 'goal 4 active and feedback')
ac:cancelGoal()
assert(ac:waitForResult(ros.Duration(30)), 'a result after cancel')
spin_until(function() return done end)
assert(done[1] == S.PREEMPTED and done[2].result == -4, 'goal 4 preempted, the done callback')
assert(ac:getState() == S.PREEMPTED and ac:getResult().result == -4, 'goal 4 preempted')

-- sendGoalAndWait: the execute timeout passes, the goal is cancelled
state = ac:sendGoalAndWait(goal(4), 0.3, 30)
assert(state == S.PREEMPTED, 'timed out goal: ' .. S[state])

-- the ActionClient: a newer goal preempts the running one
local c = actionlib.ActionClient('actionlib/Test', 'ref', nh)
assert(c:waitForActionServerToStart(30), 'the ActionClient connects')
local states = {}
local g1 = c:sendGoal(goal(4), function(gh) states[#states + 1] = gh.state end)
spin_until(function() return g1.state == CommState.ACTIVE end)
local g2 = c:sendGoal(goal(1))
spin_until(function() return g1.state == CommState.DONE and g2.state == CommState.DONE end)
assert(g1:getGoalStatus().status == GoalStatus.PREEMPTED, 'g1 preempted')
assert(g1:getResult().result == -4)
assert(g2:getGoalStatus().status == GoalStatus.SUCCEEDED and g2:getResult().result == 2, 'g2')
assert(states[#states] == CommState.DONE, 'the last transition is DONE')
-- cancel through a client goal handle
local g3 = c:sendGoal(goal(4))
spin_until(function() return g3.state == CommState.ACTIVE end)
g3:cancel()
assert(g3.state == CommState.WAITING_FOR_CANCEL_ACK, 'cancel sent')
spin_until(function() return g3.state == CommState.DONE end)
assert(g3:getGoalStatus().status == GoalStatus.PREEMPTED, 'g3 preempted')
print('all client checks passed')
