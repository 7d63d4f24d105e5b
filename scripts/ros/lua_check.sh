# Sourced by run.sh (roscore up, $tmp, $pids, ok, fail, $SKIPPER_BIN, $ROS_PY; rospy's
# py_servers.py on /py/...): `skipper lua` scripts in torch-ros's style against rospy.
#  a. Lua SimpleActionClient / ActionClient against rospy's servers, a Lua call of a
#     rospy service, a Lua listener of a rospy talker (lua_clients.lua);
#  b. rospy's SimpleActionClient / ActionClient against Lua servers, rospy calling a Lua
#     service, a Lua talker answering a rospy talker (lua_servers.lua, lua_peers.py);
#     Ctrl-C stops the Lua node (status 130);
#  c. the example behavior examples/lua/04_goto_server.lua drives robot1 of
#     `skipper run --ros` to a goal of rospy's SimpleActionClient and is preempted by a
#     newer one (lua_goto.py);
#  d. with /use_sim_time true, a Lua node's ros.Time and sleeps follow the /clock of
#     `skipper run --ros`, and its ros.INFO line reaches rospy on /rosout
#     (lua_time_log.lua, lua_rosout.py).
echo "== Lua (skipper lua) against rospy"
$ROS_PY scripts/ros/lua_peers.py serve >"$tmp/lua_peer.log" 2>&1 &
pids+=($!)
wait_ready "rospy peer ready" "$tmp/lua_peer.log"
"$SKIPPER_BIN" lua scripts/ros/lua_clients.lua >"$tmp/lua_clients.log" 2>&1 || fail "Lua clients against rospy"
checks=$((checks + $(grep -c '^ok   ' "$tmp/lua_clients.log")))
ok "skipper lua lua_clients.lua: $(grep -c '^ok   ' "$tmp/lua_clients.log") checks against rospy's servers, service and talker"

"$SKIPPER_BIN" lua scripts/ros/lua_servers.lua >"$tmp/lua_servers.log" 2>&1 &
lua_pid=$!
pids+=($lua_pid)
wait_ready "lua servers ready" "$tmp/lua_servers.log"
$ROS_PY scripts/ros/lua_peers.py clients >"$tmp/lua_peers.log" 2>&1 || fail "rospy clients against Lua servers"
checks=$((checks + $(grep -c '^ok   ' "$tmp/lua_peers.log")))
ok "lua_peers.py clients: $(grep -c '^ok   ' "$tmp/lua_peers.log") rospy checks against lua_servers.lua"
kill -INT "$lua_pid"
status=0
wait "$lua_pid" || status=$?
[ "$status" = 130 ] || fail "the Lua servers ended with status $status after SIGINT, not 130"
ok "Ctrl-C stops skipper lua (status 130)"

"$SKIPPER_BIN" run --ros --no-log >"$tmp/lua_run.log" 2>&1 &
run_pid=$!
pids+=($run_pid)
"$SKIPPER_BIN" lua examples/lua/04_goto_server.lua >"$tmp/lua_goto_server.log" 2>&1 &
goto_pid=$!
pids+=($goto_pid)
$ROS_PY scripts/ros/lua_goto.py >"$tmp/lua_goto.log" 2>&1 || fail "the Lua goto behavior"
checks=$((checks + $(grep -c '^ok   ' "$tmp/lua_goto.log")))
ok "examples/lua/04_goto_server.lua drives robot1 to a goal, preempted by a newer one"

# d. simulated time (the run's /clock) and /rosout read by rospy
$ROS_PY scripts/ros/lua_rosout.py >"$tmp/lua_rosout.log" 2>&1 &
rosout_pid=$!
pids+=($rosout_pid)
wait_ready "rosout reader ready" "$tmp/lua_rosout.log"
rosparam set /use_sim_time true
"$SKIPPER_BIN" lua scripts/ros/lua_time_log.lua >"$tmp/lua_time_log.log" 2>&1 || fail "the Lua node in simulated time, logging on /rosout"
rosparam delete /use_sim_time
[ "$(grep -c '^ok   ' "$tmp/lua_rosout.log")" = 4 ] || fail "rospy's reading of the Lua node's /rosout"
kill -INT "$rosout_pid"
wait "$rosout_pid" 2>/dev/null || true
checks=$((checks + $(grep -c '^ok   ' "$tmp/lua_time_log.log") + $(grep -c '^ok   ' "$tmp/lua_rosout.log")))
ok "lua_time_log.lua: ros.Time follows skipper run's /clock with /use_sim_time; rospy reads its line on /rosout"
kill -INT "$goto_pid" "$run_pid"
wait "$goto_pid" "$run_pid" 2>/dev/null || true
