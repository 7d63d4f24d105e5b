-- An ActionServer with server goal handles (actionlib/Test), in torch-ros's style:
-- goal 1 succeeds (result 11), goal 2 is rejected, goal 3 raises an error in the goal
-- callback (before accepting), goal 4 is accepted and raises in the cancel callback when
-- cancelled, other goals get their number as feedback and are kept until cancelled
-- (setCanceled).
local ros = require 'ros'
require 'ros.actionlib.ActionServer'
local actionlib = ros.actionlib
local GoalStatus = actionlib.GoalStatus

ros.init('lua_action_server')
local nh = ros.NodeHandle()
local as = actionlib.ActionServer(nh, 'multi', 'actionlib/Test')

as:registerGoalCallback(function(gh)
  local g = gh:getGoal()
  local id = gh:getGoalID()
  assert(type(id.id) == 'string' and #id.id > 0, 'a goal id')
  assert(gh:getGoalStatus().status == GoalStatus.PENDING, 'pending before accept')
  if g.goal == 2 then
    gh:setRejected(nil, 'two is rejected')
    return
  elseif g.goal == 3 then
    error('three is not a goal')
  end
  gh:setAccepted('accepted')
  assert(gh:getGoalStatus().status == GoalStatus.ACTIVE, 'active after accept')
  if g.goal == 1 then
    local r = gh:createResult()
    r.result = 11
    gh:setSucceeded(r, 'one done')
  elseif g.goal ~= 4 then
    local f = gh:createFeedback()
    f.feedback = g.goal
    gh:publishFeedback(f)
  end
end)

as:registerCancelCallback(function(gh)
  if gh:getGoal().goal == 4 then
    error('cancel of four fails')
  end
  gh:setCanceled(nil, 'canceled ' .. gh:getGoal().goal)
end)

as:start()
while ros.ok() do
  ros.spinOnce(0.05)
end
