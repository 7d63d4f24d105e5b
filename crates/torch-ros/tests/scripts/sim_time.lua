-- A node in simulated time: the test's Rust node publishes /clock and holds it still
-- (for a second of wall time) before moving it past each wait's end, so a wait that
-- followed the wall clock would end while the clock stands and report too little. The
-- script reports on /lua_state what its clock said.
local ros = require 'ros'
require 'ros.actionlib.SimpleActionClient'
local actionlib = ros.actionlib
ros.init('lua_sim')
local nh = ros.NodeHandle()
assert(ros.Time.isSimTime() and not ros.Time.isSystemTime(), 'the node keeps simulated time')
local state = nh:advertise('/lua_state', 'std_msgs/String', 10)
local function say(fmt, ...)
  local m = state:createMessage()
  m.data = string.format(fmt, ...)
  state:publish(m)
end
-- the first /clock (zero before it, as in roscpp), and the test listening
while ros.ok() and (ros.Time.now():toSec() == 0 or state:getNumSubscribers() == 0) do
  ros.spinOnce()
  sys.sleep(0.01)
end

local t0 = ros.Time.now()
say('sleeping %.1f', t0:toSec())
ros.Duration(0.5):sleep()
say('slept %.1f', (ros.Time.now() - t0):toSec())

local t1 = ros.Time.now()
say('waiting %.1f', t1:toSec())
local client = actionlib.SimpleActionClient('actionlib/Test', 'nobody_serves_this', nh)
local found = client:waitForServer(ros.Duration(0.5))
say('waited %.1f %s', (ros.Time.now() - t1):toSec(), tostring(found))

local rate = ros.Rate(2)
say('rate %.1f', ros.Time.now():toSec())
rate:sleep()
say('cycle %.1f', rate:cycleTime():toSec())
