-- A server that accepts a goal, then loops forever without spinning.
local ros = require 'ros'
require 'ros.actionlib.SimpleActionServer'
ros.init('runaway')
local as = ros.actionlib.SimpleActionServer(ros.NodeHandle(), 'runaway', 'actionlib/Test')
local accepted = false
as:registerGoalCallback(function(s)
  s:acceptNewGoal()
  accepted = true
end)
as:start()
while not accepted do
  ros.spinOnce(0.01)
end
local n = 0
while true do n = n + 1 end
