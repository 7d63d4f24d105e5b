"""rospy's reading of a Lua script's /rosout (scripts/ros/lua_check.sh): subscribes to
/rosout, waits for the INFO line lua_time_log.lua logs, checks its fields
(rosgraph_msgs/Log: level, node name, text, the script's file and line), then says so on
the latched /lua_rosout_heard and stays until stopped (SIGINT). Its "ok" lines are
counted by lua_check.sh; a failed check exits 1 at once. Written for this project."""
import sys
import threading

import rospy
from rosgraph_msgs.msg import Log
from std_msgs.msg import String


def check(cond, what):
    if not cond:
        print("FAIL rospy rosout: " + what, file=sys.stderr, flush=True)
        sys.exit(1)
    print("ok   rospy rosout: " + what, flush=True)


def main():
    rospy.init_node("lua_rosout_reader")
    got = {}
    ready = threading.Event()

    def on_log(m):
        if m.name == "/lua_time_log" and m.msg.startswith("lua on rosout") and not ready.is_set():
            got["m"] = m
            ready.set()

    rospy.Subscriber("/rosout", Log, on_log)
    heard = rospy.Publisher("/lua_rosout_heard", String, queue_size=1, latch=True)
    print("rosout reader ready", flush=True)
    check(ready.wait(60), "a line of /lua_time_log on /rosout")
    m = got["m"]
    check(m.level == Log.INFO, "its level is INFO (%d)" % m.level)
    check(m.msg == "lua on rosout 7", "its text is the formatted line (%r)" % m.msg)
    check(m.file.endswith("lua_time_log.lua") and m.line > 0,
          "it names the script's file and line (%s:%d)" % (m.file, m.line))
    heard.publish(String(data="heard"))
    # the message is latched: stay until the shell stops this node (the Lua node ends
    # when it has read it)
    rospy.spin()

if __name__ == "__main__":
    main()
