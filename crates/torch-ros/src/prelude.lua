-- The part of the `ros` module written in Lua: argument handling and small helpers over
-- the Rust primitives (no protocol logic): callback queues and spinning, the logging
-- functions, message and spec methods, and actionlib's state tables as torch-ros
-- numbers them.
local ros = ...
local actionlib = ros.actionlib
local console = ros.console
local L = console.Level

ros.init_options = { NoSigintHandler = 1, AnonymousName = 2, NoRosout = 4 }

-- callback queues --------------------------------------------------------------------
local CallbackQueue = {}
CallbackQueue.__index = CallbackQueue

local function wrap_queue(q)
  return setmetatable({ _q = q, spin_callbacks = { {}, {}, {}, {}, {} } }, CallbackQueue)
end

ros.CallbackQueue = setmetatable({}, {
  __call = function(_, enabled)
    local q = wrap_queue(ros._queue_new())
    if enabled == false then q:disable() end
    return q
  end,
})

function CallbackQueue:registerSpinCallback(fn, round)
  local list = self.spin_callbacks[round or 1]
  for _, f in ipairs(list) do
    if f == fn then return end
  end
  list[#list + 1] = fn
end

function CallbackQueue:unregisterSpinCallback(fn, round)
  local list = self.spin_callbacks[round or 1]
  for i, f in ipairs(list) do
    if f == fn then
      table.remove(list, i)
      return
    end
  end
end

function CallbackQueue:callSpinCallbacks()
  for _, list in ipairs(self.spin_callbacks) do
    local copy = { table.unpack(list) }
    for _, f in ipairs(copy) do
      if not ros.ok() then return end
      f()
    end
  end
end

function CallbackQueue:callAvailable(timeout, no_spin_callbacks)
  if timeout ~= nil then self._q:wait(timeout) end
  self._q:call_available()
  if not no_spin_callbacks then self:callSpinCallbacks() end
end

function CallbackQueue:callOne(timeout)
  if timeout ~= nil then self._q:wait(timeout) end
  return self._q:call_one()
end

function CallbackQueue:waitCallAvailable(timeout) return self._q:wait(timeout) end
function CallbackQueue:isEmpty() return self._q:is_empty() end
function CallbackQueue:clear() self._q:clear() end
function CallbackQueue:enable() self._q:enable() end
function CallbackQueue:disable() self._q:disable() end
function CallbackQueue:isEnabled() return self._q:is_enabled() end
function CallbackQueue:__tostring()
  return string.format("CallbackQueue {empty: %s, enabled: %s}", self:isEmpty(), self:isEnabled())
end

ros.DEFAULT_CALLBACK_QUEUE = wrap_queue(ros._default_queue())

function ros.spinOnce(timeout, no_default_callbacks)
  if type(timeout) == 'boolean' then
    no_default_callbacks, timeout = timeout, nil
  end
  if not no_default_callbacks and ros.ok() then
    ros.DEFAULT_CALLBACK_QUEUE:callAvailable(timeout)
  end
end

function ros.spin()
  while ros.ok() do ros.spinOnce(0.1) end
end

function ros.waitForShutdown()
  while ros.ok() do sys.sleep(0.05) end
end

ros.isStarted = ros.isInitialized

function ros.registerSpinCallback(fn, round) ros.DEFAULT_CALLBACK_QUEUE:registerSpinCallback(fn, round) end
function ros.unregisterSpinCallback(fn, round) ros.DEFAULT_CALLBACK_QUEUE:unregisterSpinCallback(fn, round) end

-- messages arrive on their own threads: a spinner only has to exist
local AsyncSpinner = {}
AsyncSpinner.__index = AsyncSpinner
function AsyncSpinner:canStart() return true end
function AsyncSpinner:start() self.started = true end
function AsyncSpinner:stop() self.started = false end
ros.AsyncSpinner = setmetatable({}, {
  __call = function(_, thread_count) return setmetatable({ thread_count = thread_count or 0 }, AsyncSpinner) end,
})

-- logging ------------------------------------------------------------------------------
local function text(...)
  local n = select('#', ...)
  if n == 0 then return '' end
  if n == 1 then return tostring((...)) end
  return string.format(...)
end

for name, level in pairs { DEBUG = L.Debug, INFO = L.Info, WARN = L.Warn, ERROR = L.Error, FATAL = L.Fatal } do
  local once, last = {}, {}
  local function named(logger, ...)
    if console.check_loglevel(logger, level) then console.print(logger, level, text(...)) end
  end
  local function plain(...) named(nil, ...) end
  local function throttled_named(key, period, logger, ...)
    local now = ros.Time.now():toSec()
    if last[key] == nil or now - last[key] > period then
      last[key] = now
      named(logger, ...)
    end
  end
  local fns = {
    [''] = plain,
    _NAMED = named,
    _COND = function(cond, ...) if cond then plain(...) end end,
    _COND_NAMED = function(cond, logger, ...) if cond then named(logger, ...) end end,
    _ONCE = function(key, ...)
      if not once[key] then once[key] = true; plain(...) end
    end,
    _ONCE_NAMED = function(key, logger, ...)
      if not once[key] then once[key] = true; named(logger, ...) end
    end,
    _THROTTLE = function(key, period, ...) throttled_named(key, period, nil, ...) end,
    _THROTTLE_NAMED = throttled_named,
  }
  for suffix, f in pairs(fns) do
    ros[name .. suffix] = f
    ros['ROS_' .. name .. suffix] = f
  end
end

-- messages and specs ---------------------------------------------------------------------
local Message = ros._class('skipper.Message')

local function deep_copy(v)
  if type(v) == 'table' then
    local c = {}
    for k, x in pairs(v) do c[k] = deep_copy(x) end
    return setmetatable(c, getmetatable(v))
  elseif type(v) == 'userdata' then
    return v:clone()
  end
  return v
end

function Message:fillFromTable(t)
  assert(t ~= nil, 'Source table argument must not be nil.')
  local fields = self.spec.fields
  for k, v in pairs(t) do
    local f = fields[k]
    if f ~= nil then
      if f.is_builtin and not f.is_array and (f.type == 'time' or f.type == 'duration') then
        if rawget(self, k) == nil then
          rawset(self, k, f.type == 'time' and ros.Time() or ros.Duration())
        end
        rawget(self, k):set(v)
      elseif not f.is_builtin and not f.is_array and type(v) == 'table' then
        if rawget(self, k) == nil then rawset(self, k, ros.Message(f.spec)) end
        rawget(self, k):assign(v)
      else
        rawset(self, k, v)
      end
    end
  end
  return self
end

function Message:copy(source)
  for _, f in ipairs(self.spec.fields) do
    local v = rawget(source, f.name)
    if v ~= nil then rawset(self, f.name, deep_copy(v)) end
  end
  return self
end

function Message:assign(source)
  if source == self then return self end
  if getmetatable(source) == getmetatable(self) then return self:copy(source) end
  if type(source) == 'table' then return self:fillFromTable(source) end
  return self
end

function Message:clone() return deep_copy(self) end

local MsgSpec = ros._class('skipper.MsgSpec')
MsgSpec.__index = MsgSpec
function MsgSpec:md5() return self.md5sum end
function MsgSpec:format_spec(ln, indent)
  for line in ros._format_spec(self, indent):gmatch('[^\n]+') do ln[#ln + 1] = line end
  return ln
end
function MsgSpec:instantiate(no_prefill) return ros.Message(self, no_prefill) end
MsgSpec.__tostring = function(self) return ros._format_spec(self) end

local SrvSpec = ros._class('skipper.SrvSpec')
SrvSpec.__index = SrvSpec
function SrvSpec:md5() return self.md5sum end
function SrvSpec:format_spec(ln)
  ln[#ln + 1] = 'Service ' .. self.type
  ln[#ln + 1] = 'MD5: ' .. self:md5()
  self.request_spec:format_spec(ln)
  ln[#ln + 1] = '---'
  self.response_spec:format_spec(ln)
  return ln
end
SrvSpec.__tostring = function(self)
  local ln = self:format_spec({})
  ln[#ln + 1] = ''
  return table.concat(ln, '\n')
end

local ActionSpec = ros._class('skipper.ActionSpec')
ActionSpec.__index = ActionSpec
function ActionSpec:format_spec(ln)
  ln[#ln + 1] = 'Action ' .. self.type
  self.action_goal_spec:format_spec(ln)
  ln[#ln + 1] = '---'
  self.action_result_spec:format_spec(ln)
  ln[#ln + 1] = '---'
  self.action_feedback_spec:format_spec(ln)
  return ln
end
ActionSpec.__tostring = function(self)
  local ln = self:format_spec({})
  ln[#ln + 1] = ''
  return table.concat(ln, '\n')
end

-- actionlib's states, as torch-ros numbers them ----------------------------------------------
local function enum(names, first)
  local t = {}
  for i, n in ipairs(names) do
    t[n] = i - 1 + first
    if first == 1 then t[i] = n end
  end
  return t
end

actionlib.GoalStatus = enum({ 'PENDING', 'ACTIVE', 'PREEMPTED', 'SUCCEEDED', 'ABORTED', 'REJECTED',
  'PREEMPTING', 'RECALLING', 'RECALLED', 'LOST' }, 0)
actionlib.SimpleGoalState = enum({ 'PENDING', 'ACTIVE', 'DONE' }, 1)
actionlib.SimpleClientGoalState = enum({ 'PENDING', 'ACTIVE', 'RECALLED', 'REJECTED', 'PREEMPTED',
  'ABORTED', 'SUCCEEDED', 'LOST' }, 1)
actionlib.CommState = enum({ 'WAITING_FOR_GOAL_ACK', 'PENDING', 'ACTIVE', 'WAITING_FOR_RESULT',
  'WAITING_FOR_CANCEL_ACK', 'RECALLING', 'PREEMPTING', 'DONE' }, 1)
