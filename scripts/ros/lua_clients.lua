-- torch-ros style clients against rospy peers (scripts/ros/lua_check.sh): a
-- SimpleActionClient and an ActionClient against py_servers.py's /py/simple and
-- /py/multi (succeed with result text, abort, feedback, preempt by a newer goal,
-- cancel, reject), a service call to lua_peers.py's /py_set (std_srvs/SetBool), and a
-- listener of its /py_chatter. Ends with status 0 when every check held.
local ros = require 'ros'
require 'ros.actionlib.SimpleActionClient'
require 'ros.actionlib.ActionClient'
local actionlib = ros.actionlib
local S = actionlib.SimpleClientGoalState
local GoalStatus = actionlib.GoalStatus
local CommState = actionlib.CommState

ros.init('lua_clients')
local nh = ros.NodeHandle()

local function check(cond, what)
  if not cond then error('check failed: ' .. what, 2) end
  print('ok   lua client: ' .. what)
end

local function spin_until(f)
  while ros.ok() and not f() do ros.spinOnce(0.01) end
end

local ac = actionlib.SimpleActionClient('actionlib/Test', '/py/simple', nh)
check(ac:waitForServer(ros.Duration(30)), 'SimpleActionClient connects to rospy /py/simple')

local function goal(n)
  local g = ac:createGoal()
  g.goal = n
  return g
end

local state = ac:sendGoalAndWait(goal(1), ros.Duration(30))
check(state == S.SUCCEEDED and ac:getResult().result == 1
  and ac:getGoalStatusText() == 'The ref server has succeeded', 'goal 1 succeeds with result and text')
state = ac:sendGoalAndWait(goal(2), 30)
check(state == S.ABORTED and ac:getGoalStatusText() == 'The ref server has aborted', 'goal 2 aborts with text')

local feedback, done = {}, nil
ac:sendGoal(goal(9), function(st, r) done = { st, r } end, nil,
  function(f) feedback[#feedback + 1] = f.feedback end)
spin_until(function() return done end)
-- the result may overtake the feedback (two topics): only a feedback that came is checked
check(done[1] == S.SUCCEEDED and done[2].result == 9 and (feedback[1] == nil or feedback[1] == 9),
  'goal 9 succeeds through the done callback')

ac:sendGoal(goal(4))
spin_until(function() return ac:getState() == S.ACTIVE end)
ac:cancelGoal()
check(ac:waitForResult(ros.Duration(30)) and ac:getState() == S.PREEMPTED, 'a cancel preempts goal 4')

-- a newer goal preempts the running one (two SimpleActionClients, as two users)
local other = actionlib.SimpleActionClient('actionlib/Test', '/py/simple', nh)
check(other:waitForServer(ros.Duration(30)), 'a second client connects')
ac:sendGoal(goal(4))
spin_until(function() return ac:getState() == S.ACTIVE end)
other:sendGoal(goal(1))
check(ac:waitForResult(ros.Duration(30)) and ac:getState() == S.PREEMPTED, 'a newer goal preempts goal 4')
check(other:waitForResult(ros.Duration(30)) and other:getState() == S.SUCCEEDED, 'the newer goal succeeds')

local c = actionlib.ActionClient('actionlib/Test', '/py/multi', nh)
check(c:waitForActionServerToStart(30), 'ActionClient connects to rospy /py/multi')
local function send(n)
  local g = c:createGoal()
  g.goal = n
  return c:sendGoal(g)
end
local g1, g3, g4 = send(1), send(3), send(4)
spin_until(function() return g1.state == CommState.DONE and g3.state == CommState.DONE
  and g4.state == CommState.ACTIVE end)
check(g1:getGoalStatus().status == GoalStatus.SUCCEEDED, 'ActionClient: goal 1 succeeded')
check(g3:getGoalStatus().status == GoalStatus.REJECTED
  and g3:getGoalStatus().text == 'The ref server has rejected', 'ActionClient: goal 3 rejected with text')
local g5 = send(5)
spin_until(function() return g4.state == CommState.DONE and g5.state == CommState.DONE end)
check(g4:getGoalStatus().status == GoalStatus.SUCCEEDED, 'ActionClient: the kept goal 4 succeeded')

local set = nh:serviceClient('/py_set', 'std_srvs/SetBool')
check(set:waitForExistence(30), '/py_set exists')
local req = set:createRequest()
req.data = true
local resp = set:call(req)
check(resp and resp.success == true and resp.message == 'rospy got true', 'called rospy service /py_set')

-- the master's API as torch-ros's getSystemState demo calls it (the caller id alone)
local ok, _, state = ros.master.execute('getSystemState', ros.this_node.getName())
local function has(list, name)
  for _, entry in ipairs(list) do
    if entry[1] == name then return true end
  end
  return false
end
check(ok and has(state[1], '/py_chatter') and has(state[3], '/py_set'),
  'ros.master.execute getSystemState lists /py_chatter and /py_set')
-- a roscpp node's logger service (roscore's rosout, C++), its types known without roscpp
local loggers = nh:serviceClient('/rosout/get_loggers', 'roscpp/GetLoggers')
local got = loggers:call(loggers:createRequest())
check(got and #got.loggers > 0 and got.loggers[1].name ~= nil, 'called roscpp rosout /rosout/get_loggers')

local heard
local sub = nh:subscribe('/py_chatter', 'std_msgs/String', 10)
sub:registerCallback(function(msg) heard = msg.data end)
spin_until(function() return heard end)
check(heard:find('hello from rospy', 1, true) == 1, 'heard rospy on /py_chatter: ' .. heard)
check(sub:getNumPublishers() == 1, 'one publisher on /py_chatter')
ros.shutdown()
