-- Simulated time and /rosout of a torch-ros style script against real peers
-- (scripts/ros/lua_check.sh): run with /use_sim_time true while `skipper run --ros`
-- publishes /clock, it checks that ros.Time.now() is the simulation's time and that a
-- sleep lasts its time of /clock; then it logs on /rosout until lua_rosout.py (rospy)
-- says, on the latched /lua_rosout_heard, that it read the line. Status 0 when every
-- check held.
local ros = require 'ros'
ros.init('lua_time_log')
local nh = ros.NodeHandle()

local function check(cond, what)
  if not cond then error('check failed: ' .. what, 2) end
  print('ok   lua time/log: ' .. what)
end

check(ros.Time.isSimTime(), 'with /use_sim_time true the node keeps simulated time')
while ros.ok() and ros.Time.now():toSec() == 0 do ros.spinOnce(0.01) end
local t0 = ros.Time.now()
-- the run's time starts at zero with the run: far below the wall clock's seconds
check(t0:toSec() > 0 and t0:toSec() < 1e8, string.format('ros.Time.now() is /clock (%.3f s)', t0:toSec()))
ros.Duration(0.5):sleep()
local slept = (ros.Time.now() - t0):toSec()
check(slept >= 0.5, string.format('Duration(0.5):sleep() lasted %.3f s of /clock', slept))

local heard = false
local sub = nh:subscribe('/lua_rosout_heard', 'std_msgs/String', 1)
sub:registerCallback(function() heard = true end)
local give_up = os.time() + 60 -- (wall clock) when rospy found the line wrong
while ros.ok() and not heard and os.time() < give_up do
  ros.INFO('lua on rosout %d', 7)
  ros.spinOnce(0.05)
end
check(heard, 'rospy read the INFO line on /rosout')
