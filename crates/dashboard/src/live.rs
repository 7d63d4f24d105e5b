//! The dashboard over a live run: an observer that turns cycles into frames for the hub,
//! and the controls a browser may use (pause, single step, speed factor, estop, goto).
//!
//! Frames are made at most every [`LiveOptions::min_interval`] of wall-clock time, and
//! at most once per four times what the last frame took to make (so a frame of many
//! robots never takes more than about a fifth of the run's thread), after every single
//! step while paused, and only while a browser is connected; the observer never waits
//! for a browser. The trails of the whole run are kept here, decimated ([`Trail`]), so
//! that a browser that connects mid-run gets them whole.

use crate::frame::{num, without_rays, RobotEntry, ALL_RAYS_UP_TO};
use crate::hub::Hub;
use crate::server::Backend;
use crate::trail::Trail;
use serde_json::{json, Value};
use skipper_core::goals::port::find_kind;
use skipper_core::goals::{GoalPort, Record};
use skipper_core::runner::CycleView;
use skipper_core::{Observer, RunConfig, RunControl, RunReport, Runner, World};
use skipper_goals::GOTO;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Events kept between two frames.
const EVENTS_PER_FRAME: usize = 100;

/// How the live dashboard behaves.
#[derive(Debug, Clone)]
pub struct LiveOptions {
    /// The shortest wall-clock time between two frames.
    pub min_interval: Duration,
    /// A frame is made at most once per this many times the time the last one took (0:
    /// no such limit); 4 keeps the dashboard to about a fifth of the run's thread.
    pub cost_factor: u32,
}

impl Default for LiveOptions {
    fn default() -> Self {
        Self {
            min_interval: Duration::from_millis(50),
            cost_factor: 4,
        }
    }
}

/// A goal a browser sent.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Target {
    id: u64,
    x: f64,
    y: f64,
    tolerance: f64,
}

/// A robot's goals, as the dashboard sends them.
pub type Port = Arc<dyn GoalPort>;

/// What the server and the observer share.
pub struct LiveState {
    control: Arc<RunControl>,
    goals: Vec<Option<Port>>,
    targets: Mutex<Vec<Option<Target>>>,
    trails: Mutex<Vec<Trail>>,
    /// robots selected in a browser (the latest few), whose rays go in every frame
    selected: Mutex<VecDeque<usize>>,
    info: Value,
    hub: Arc<Hub>,
    /// The summary once the run ended.
    ended: Mutex<Option<Value>>,
}

impl LiveState {
    /// The hub frames go through.
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }
}

/// Attach a dashboard to a runner: returns the state to serve, after adding the observer
/// that makes frames. `goals[i]` is where robot `i`'s goals go, if it takes `goto` goals.
pub fn attach(
    runner: &mut Runner,
    goals: Vec<Option<Port>>,
    period: Duration,
    opts: LiveOptions,
) -> Arc<LiveState> {
    let world = runner.world();
    let robots: Vec<Value> = (0..world.len())
        .filter_map(|i| world.vehicle(i))
        .map(|v| serde_json::to_value(v.info()).unwrap_or_default())
        .collect();
    let n = robots.len();
    let info = json!({
        "mode": "live",
        "world": world.describe(),
        "robots": robots,
        "period_s": period.as_secs_f64(),
        "goto": goals
            .iter()
            .map(|g| g.as_ref().is_some_and(|p| find_kind(&p.kinds(), GOTO.name).is_some()))
            .collect::<Vec<_>>(),
        "kinds": goals
            .iter()
            .map(|g| g.as_ref().map(|p| p.kinds().iter().map(|k| k.name).collect::<Vec<_>>()).unwrap_or_default())
            .collect::<Vec<_>>(),
    });
    let state = Arc::new(LiveState {
        control: runner.control(),
        goals,
        targets: Mutex::new(vec![None; n]),
        trails: Mutex::new(vec![Trail::new(); n]),
        selected: Mutex::new(VecDeque::from([0])),
        info,
        hub: Hub::new(),
        ended: Mutex::new(None),
    });
    runner.add_observer(Box::new(LiveObserver {
        state: state.clone(),
        opts,
        last_sent: None,
        last_cost: Duration::ZERO,
        events: VecDeque::new(),
        names: Vec::new(),
    }));
    state
}

/// Makes frames from cycles.
struct LiveObserver {
    state: Arc<LiveState>,
    opts: LiveOptions,
    last_sent: Option<Instant>,
    /// how long the last frame took to make
    last_cost: Duration,
    events: VecDeque<Value>,
    names: Vec<String>,
}

impl LiveObserver {
    fn frame(&self, v: &CycleView<'_>) -> Value {
        let st = &self.state;
        let targets = st.targets.lock().map(|t| t.clone()).unwrap_or_default();
        let selected = st.selected.lock().map(|s| s.clone()).unwrap_or_default();
        let all_rays = v.world.len() <= ALL_RAYS_UP_TO;
        let robots: Vec<Value> = (0..v.world.len())
            .filter_map(|i| {
                let veh = v.world.vehicle(i)?;
                let p = veh.pose();
                let ctl = v.controllers.get(i).and_then(Option::as_ref);
                let goal = st
                    .goals
                    .get(i)
                    .and_then(Option::as_ref)
                    .and_then(|p| p.latest(GOTO.name));
                let target = targets.get(i).copied().flatten().filter(|t| {
                    goal.as_ref()
                        .is_some_and(|g| g.id == t.id && !g.state.is_terminal())
                });
                Some(
                    RobotEntry {
                        name: &veh.info().name,
                        pose: (p.x, p.y, p.yaw),
                        view: if all_rays || selected.contains(&i) {
                            veh.view()
                        } else {
                            without_rays(veh.view())
                        },
                        controller: ctl.map(|c| c.name()),
                        state: ctl.and_then(|c| c.state()),
                        goal: goal.map(|g| g.to_flat_json()),
                        target: target.map(|t| json!({"x": num(t.x), "y": num(t.y), "tolerance": num(t.tolerance)})),
                    }
                    .to_json(),
                )
            })
            .collect();
        let objects = v.world.objects();
        json!({
            "t": num((v.now + v.dt).as_secs_f64()),
            "cycle": v.cycle,
            "paused": st.control.is_paused(),
            "estop": st.control.estop(),
            "speed": st.control.speed(),
            "robots": robots,
            "objects": objects,
            "events": self.events.iter().collect::<Vec<_>>(),
        })
    }
}

impl Observer for LiveObserver {
    fn on_start(&mut self, world: &dyn World, _config: &RunConfig) {
        self.names = (0..world.len())
            .filter_map(|i| world.vehicle(i).map(|v| v.info().name.clone()))
            .collect();
        if let Ok(mut trails) = self.state.trails.lock() {
            for (i, t) in trails.iter_mut().enumerate() {
                if let Some(v) = world.vehicle(i) {
                    let p = v.pose();
                    t.push(p.x, p.y);
                }
            }
        }
    }

    fn on_cycle(&mut self, v: &CycleView<'_>) {
        if let Ok(mut trails) = self.state.trails.lock() {
            for (i, t) in trails.iter_mut().enumerate() {
                let Some(veh) = v.world.vehicle(i) else {
                    continue;
                };
                let p = veh.pose();
                t.push(p.x, p.y);
            }
        }
        for e in v.events {
            if self.events.len() >= EVENTS_PER_FRAME {
                self.events.pop_front();
            }
            let robot = self.names.get(e.robot).map_or("?", String::as_str);
            self.events.push_back(json!({"robot": robot, "t": num(e.time.as_secs_f64()), "kind": e.kind, "data": e.data}));
        }
        let hub = &self.state.hub;
        if hub.clients() == 0 {
            self.events.clear();
            return;
        }
        let interval = self
            .opts
            .min_interval
            .max(self.last_cost * self.opts.cost_factor);
        let due = self.last_sent.is_none_or(|l| l.elapsed() >= interval);
        if !due && !self.state.control.is_paused() {
            return;
        }
        let started = Instant::now();
        let frame = self.frame(v).to_string();
        hub.publish(Arc::from(frame));
        self.events.clear();
        self.last_cost = started.elapsed();
        self.last_sent = Some(started);
    }

    fn on_end(&mut self, _world: &dyn World, report: &RunReport) {
        let summary = report.summary_json(true);
        if let Ok(mut e) = self.state.ended.lock() {
            *e = Some(summary.clone());
        }
        let frame = json!({"ended": summary, "t": num(report.sim_time.as_secs_f64())});
        self.state.hub.publish(Arc::from(frame.to_string()));
    }
}

/// `{"cmd": "cancel", "robot": I}` cancels its goto; with `"goal": ID`, that goal; with
/// `"kind": NAME`, whatever goal of that kind is queued or runs.
fn cancel(h: &Port, cmd: &Value) -> Result<Value, String> {
    if let Some(id) = cmd.get("goal") {
        let id = id.as_u64().ok_or("`goal` must be a goal's id")?;
        h.cancel(id);
    } else {
        let kind = match cmd.get("kind") {
            Some(k) => k.as_str().ok_or("`kind` must be a goal kind's name")?,
            None => GOTO.name,
        };
        let kind = find_kind(&h.kinds(), kind)
            .ok_or_else(|| format!("robot {} takes no `{kind}` goals", h.robot()))?;
        h.cancel_current(kind.name);
    }
    Ok(json!({"ok": true}))
}

impl LiveState {
    /// The robot a command names, and where its goals go.
    fn port(&self, cmd: &Value) -> Result<(usize, &Port), String> {
        let i = cmd
            .get("robot")
            .and_then(Value::as_u64)
            .and_then(|i| usize::try_from(i).ok())
            .ok_or("`robot` must be a robot's index")?;
        let h = self
            .goals
            .get(i)
            .and_then(Option::as_ref)
            .ok_or_else(|| format!("robot {i} takes no goals"))?;
        Ok((i, h))
    }

    /// `{"cmd": "goal", "robot": I, "kind": NAME, "goal": {FIELD: VALUE, ...}}`: a goal of
    /// any kind the robot's controller declares (fields left out take their defaults);
    /// answers with its id.
    fn goal(&self, cmd: &Value) -> Result<Value, String> {
        let (_, h) = self.port(cmd)?;
        let name = cmd
            .get("kind")
            .and_then(Value::as_str)
            .ok_or("`kind` must be a goal kind's name")?;
        let kinds = h.kinds();
        let kind = find_kind(&kinds, name).ok_or_else(|| {
            let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
            format!(
                "robot {} takes no `{name}` goals (it takes: {})",
                h.robot(),
                names.join(", ")
            )
        })?;
        let fields = cmd.get("goal").cloned().unwrap_or_else(|| json!({}));
        let goal =
            Record::from_json(kind.goal, &fields).map_err(|e| format!("a `{name}` goal: {e}"))?;
        let id = h.send(kind.name, goal).map_err(|e| e.to_string())?;
        Ok(json!({"ok": true, "goal": id}))
    }

    /// `{"cmd": "goal_state", "robot": I, "goal": ID}`: the goal's latest: `{"id", "kind",
    /// "status", "feedback", "result", "text"}` (feedback, result and text once there).
    fn goal_state(&self, cmd: &Value) -> Result<Value, String> {
        let (_, h) = self.port(cmd)?;
        let id = cmd
            .get("goal")
            .and_then(Value::as_u64)
            .ok_or("`goal` must be a goal's id")?;
        let u = h
            .update(id)
            .ok_or_else(|| format!("no goal {id} (unknown, or too old to be kept)"))?;
        Ok(u.to_json())
    }
}

fn f(cmd: &Value, k: &str) -> Result<f64, String> {
    cmd.get(k)
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("`{k}` must be a finite number"))
}

impl Backend for LiveState {
    fn info(&self) -> Value {
        let mut i = self.info.clone();
        if let Some(m) = i.as_object_mut() {
            m.insert(
                "ended".into(),
                self.ended
                    .lock()
                    .ok()
                    .and_then(|e| e.clone())
                    .unwrap_or(Value::Null),
            );
        }
        i
    }

    fn trails(&self, _t: Option<f64>) -> Value {
        let trails = self
            .trails
            .lock()
            .map(|t| {
                t.iter()
                    .map(|tr| {
                        tr.points()
                            .map(|p| [num(f64::from(p[0])), num(f64::from(p[1]))])
                            .collect::<Vec<_>>()
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        json!({ "trails": trails })
    }

    fn frame_at(&self, _t: f64, _selected: Option<usize>) -> Option<String> {
        None
    }

    fn hub(&self) -> Option<Arc<Hub>> {
        Some(self.hub.clone())
    }

    fn control(&self, cmd: &Value) -> Result<Value, String> {
        let c = &self.control;
        let what = cmd
            .get("cmd")
            .and_then(Value::as_str)
            .ok_or("a command is a JSON object with `cmd`")?;
        match what {
            "pause" => c.set_paused(true),
            "resume" => c.set_paused(false),
            "step" => {
                c.set_paused(true);
                c.step_once();
            }
            "speed" => {
                let factor = skipper_core::seconds::speed_factor(f(cmd, "factor")?)
                    .map_err(|e| format!("the speed factor: {e}"))?;
                c.set_speed(factor);
            }
            "estop" => {
                let on = cmd
                    .get("on")
                    .and_then(Value::as_bool)
                    .ok_or("`on` must be true or false")?;
                c.set_estop(on);
            }
            "select" => {
                let i = cmd
                    .get("robot")
                    .and_then(Value::as_u64)
                    .and_then(|i| usize::try_from(i).ok())
                    .filter(|&i| i < self.goals.len())
                    .ok_or("`robot` must be a robot's index")?;
                if let Ok(mut s) = self.selected.lock() {
                    s.retain(|&k| k != i);
                    s.push_back(i);
                    while s.len() > 8 {
                        s.pop_front();
                    }
                }
            }
            "goal" => return self.goal(cmd),
            "goal_state" => return self.goal_state(cmd),
            "goto" | "cancel" => {
                let (i, h) = self.port(cmd)?;
                if what == "cancel" {
                    return cancel(h, cmd);
                }
                let (x, y) = (f(cmd, "x")?, f(cmd, "y")?);
                // 0: the vehicle's own default
                let tolerance = cmd
                    .get("tolerance")
                    .and_then(Value::as_f64)
                    .filter(|t| t.is_finite() && *t > 0.0)
                    .unwrap_or(0.0);
                let goal = Record::defaults(GOTO.goal)
                    .with("x", x)
                    .with("y", y)
                    .with("tolerance", tolerance);
                let id = h.send(GOTO.name, goal).map_err(|e| e.to_string())?;
                if let Ok(mut t) = self.targets.lock() {
                    if let Some(slot) = t.get_mut(i) {
                        *slot = Some(Target {
                            id,
                            x,
                            y,
                            tolerance,
                        });
                    }
                }
                return Ok(json!({"ok": true, "goal": id}));
            }
            other => return Err(format!("unknown command `{other}`: expected pause, resume, step, speed, estop, goto, goal, goal_state, cancel or select")),
        }
        Ok(json!({"ok": true, "paused": c.is_paused(), "estop": c.estop(), "speed": c.speed()}))
    }

    fn stats(&self) -> Value {
        let (published, queued, dropped, disconnected) = self.hub.counts();
        json!({"published": published, "queued": queued, "dropped": dropped, "disconnected": disconnected, "clients": self.hub.clients()})
    }
}

/// Serve the live dashboard of `runner`: attach the observer, start the server, and say
/// where it is. `goals` are where the goals of the robots that take `goto` goals go.
pub fn serve(
    runner: &mut Runner,
    goals: Vec<(usize, Port)>,
    period: Duration,
    opts: &crate::ServeOptions,
) -> Result<crate::server::Server, crate::Error> {
    let n = runner.world().len();
    let mut slots: Vec<Option<Port>> = vec![None; n];
    for (i, h) in goals {
        if let Some(s) = slots.get_mut(i) {
            *s = Some(h);
        }
    }
    let state = attach(runner, slots, period, LiveOptions::default());
    let server = crate::server::start(state, opts).map_err(|source| crate::Error::Serve {
        addr: opts.addr,
        source,
    })?;
    crate::announce(opts, server.addr());
    Ok(server)
}
