-- A robot behavior written as a torch-ros action server: drive robot1 of
-- `skipper run --ros` to a point by its topics (nav_msgs/Odometry in on /robot1/odom,
-- geometry_msgs/Twist out on /robot1/cmd_vel), with feedback and preemption.
--
--   skipper run --ros &                      # the simulated robot, ROS master at ROS_MASTER_URI
--   skipper lua examples/lua/04_goto_server.lua
--   skipper action send /lua_goto x=1 y=0.5  # or any actionlib client (skipper_msgs/Goto)
--
-- Arguments: the robot's namespace (default robot1) and the server's name (lua_goto).
local ros = require 'ros'
require 'ros.actionlib.SimpleActionServer'
local actionlib = ros.actionlib

local robot = arg[1] or 'robot1'
local name = arg[2] or 'lua_goto'
ros.init(name)
local nh = ros.NodeHandle()

-- what the robot last reported
local pose = nil
local odom = nh:subscribe('/' .. robot .. '/odom', 'nav_msgs/Odometry', 1)
odom:registerCallback(function(msg)
  local p, q = msg.pose.pose.position, msg.pose.pose.orientation
  local yaw = math.atan(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z))
  pose = { x = p.x, y = p.y, yaw = yaw }
end)
local cmd_vel = nh:advertise('/' .. robot .. '/cmd_vel', 'geometry_msgs/Twist', 1)

local function drive(v, w)
  local t = cmd_vel:createMessage()
  t.linear.x = v
  t.angular.z = w
  cmd_vel:publish(t)
end

local server = actionlib.SimpleActionServer(nh, name, 'skipper_msgs/Goto')
local target = nil

-- a new goal: take it (a running goal is preempted by accepting the newer one)
server:registerGoalCallback(function(s)
  local g = s:acceptNewGoal()
  target = { x = g.x, y = g.y, tolerance = g.tolerance > 0 and g.tolerance or 0.15 }
  ros.INFO('goal (%.2f, %.2f)', g.x, g.y)
end)
-- a cancel: stop the robot and end the goal as preempted
server:registerPreemptCallback(function(s)
  if not s:isNewGoalAvailable() then
    drive(0, 0)
    s:setPreempted(nil, 'canceled')
    target = nil
  end
end)
server:start()
ros.INFO('serving /%s for %s', name, robot)

local function wrap(a)
  return math.atan(math.sin(a), math.cos(a))
end

-- one control step toward the target (a proportional heading controller)
local function step()
  local dx, dy = target.x - pose.x, target.y - pose.y
  local distance = math.sqrt(dx * dx + dy * dy)
  if distance <= target.tolerance then
    drive(0, 0)
    local r = server:createResult()
    r.x, r.y, r.yaw = pose.x, pose.y, pose.yaw
    server:setSucceeded(r, 'reached')
    target = nil
    return
  end
  local turn = wrap(math.atan(dy, dx) - pose.yaw)
  local v = math.abs(turn) < 0.5 and math.min(0.4, distance) or 0
  drive(v, math.max(-1, math.min(1, 1.5 * turn)))
  local f = server:createFeedback()
  f.distance = distance
  server:publishFeedback(f)
end

local rate = ros.Rate(10)
while ros.ok() do
  ros.spinOnce()
  if target and pose and server:isActive() then step() end
  rate:sleep()
end
drive(0, 0)
server:shutdown()
