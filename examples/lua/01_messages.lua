-- Tutorial 1: messages. No ROS master is needed: a message type is read from its .msg
-- definition when it is first used, fields are read and written by name, nested
-- messages and arrays are plain Lua values, and print() shows a message as torch-ros
-- does.
--
--   skipper lua examples/lua/01_messages.lua
local ros = require 'ros'

-- a type from its definition (geometry_msgs/Twist: two Vector3)
local spec = ros.MsgSpec('geometry_msgs/Twist')
print(spec)

local twist = ros.Message('geometry_msgs/Twist')
twist.linear.x = 0.4       -- nested fields by name
twist.angular.z = -0.2
print(twist)

-- a type of your own, defined in the script
local reading = ros.MsgSpec('my_robot/Reading', 'string sensor\nfloat64[] values\ntime stamp')
local r = ros.Message(reading)
r.sensor = 'sonar'
r.values = { 0.5, 1.25, 3 }
r.stamp = ros.Time(12, 500000000)
print(r)

-- a mistake is an error with the script's file and line
local ok, err = pcall(function() twist.linar = 1 end)
print('misspelt field: ' .. err)
return (not ok and err:find('01_messages.lua:27: geometry_msgs/Twist has no field `linar`', 1, true)) and 0 or 1
