-- The round-trip benchmark's server in torch-ros's style (scripts/ros/bench.sh,
-- bench.py): a SimpleActionServer (actionlib/Test) whose goal callback accepts the goal,
-- publishes one feedback and succeeds, as py_bench_server.py's goal_cb mode does.
--   skipper lua scripts/ros/lua_bench_server.lua NS
local ros = require 'ros'
require 'ros.actionlib.SimpleActionServer'

ros.init('lua_bench_server')
local s = ros.actionlib.SimpleActionServer(ros.NodeHandle(), arg[1] or '/lua_goal_cb', 'actionlib/Test')
s:registerGoalCallback(function(server)
  local g = server:acceptNewGoal()
  local f = server:createFeedback()
  f.feedback = g.goal
  server:publishFeedback(f)
  local r = server:createResult()
  r.result = g.goal
  server:setSucceeded(r)
end)
s:start()
ros.spin()
