//! The priority-stack executive (reference rules 1-26, 36-40, 44).
//!
//! One [`Executive::tick`] per cycle: (1) item states are updated in priority order
//! (pre-order) — guards, cursors, completion, `UNTIL`, `WITHIN`, `REPEAT`, pre-emption;
//! (2) the running behaviors and commands are asked for their requests in priority order,
//! envelopes accumulating constraints for the items below them, and each channel goes to
//! its first request; (3) the winners become the vehicle's setpoints. Every item's state
//! is kept for observers, and state changes are listed as [`Transition`]s.
//!
//! A tick allocates nothing: every buffer is sized when the executive is built.

use crate::behaviors::{self, Envelope, LeafState, Nav, NavUris, Request, Vertical};
use crate::clause::{Env, UriBinding};
use crate::library::BehaviorKind;
use crate::model::{Body, Guard, Mission, Repeat};
use serde::Serialize;
use skipper_core::actuation::auv_sensor;
use skipper_core::{AuvSetpoints, Signals};
use std::sync::Arc;
use std::time::Duration;

/// An item's state, as observers see it (rule 44).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemState {
    /// Its stack is not running (or has not reached it).
    Inactive,
    /// Guarded, waiting for its clause.
    Armed,
    /// Running.
    Active,
    /// `WHILE` false: stopped, cursor and counters kept.
    Suspended,
    /// Suspended by a pre-emptive item (the index).
    Preempted(u32),
    /// Done (satisfied, `UNTIL`, sequence exhausted, skipped with `REPEAT = 0`).
    Completed,
    /// Given up at its `WITHIN`.
    TimedOut,
}

impl ItemState {
    /// The state's name (`preempted` for every pre-emption).
    pub fn name(self) -> &'static str {
        match self {
            ItemState::Inactive => "inactive",
            ItemState::Armed => "armed",
            ItemState::Active => "active",
            ItemState::Suspended => "suspended",
            ItemState::Preempted(_) => "preempted",
            ItemState::Completed => "completed",
            ItemState::TimedOut => "timed_out",
        }
    }
}

/// Why an item ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A command's satisfied predicate held.
    Satisfied,
    /// A substack's sequence (all repetitions) was exhausted.
    Sequence,
    /// Its `UNTIL` clause became true.
    Until,
    /// Its `WITHIN` expired.
    Within,
    /// `REPEAT = 0`.
    Skipped,
    /// The default mission timeout (a mission without a top-level `WITHIN`).
    Timeout,
}

/// One state change of one item.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Transition {
    /// The item (index in the mission).
    pub item: u32,
    /// Before.
    pub from: ItemState,
    /// After.
    pub to: ItemState,
    /// Why it ended, when it did.
    pub reason: Option<EndReason>,
}

/// How the mission stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MissionStatus {
    /// Running.
    Running,
    /// Completed (rule 7): the vehicle is in the default mission.
    Completed,
    /// Ended by the top-level `WITHIN` (rule 19): the vehicle is in the default mission.
    TimedOut,
    /// Ended by the default mission timeout, having no `WITHIN` of its own (rule 19's
    /// configured MissionTimeout): the vehicle is in the default mission.
    Timeout,
}

/// The default mission timeout (s) of a mission without a top-level `WITHIN`: 24 hours,
/// unless the vehicle configuration says `MissionTimeout = ...` (LRAUV missions pair a
/// MissionTimeout, typically 2-48 h, with every mission).
pub const DEFAULT_MISSION_TIMEOUT: f64 = 24.0 * 3600.0;

/// The mission timeout of a vehicle configuration (`MissionTimeout`, a time), else
/// [`DEFAULT_MISSION_TIMEOUT`].
pub fn mission_timeout(control: &crate::config::ConfigTable) -> f64 {
    control
        .get("MissionTimeout")
        .and_then(|v| v.number_in(&skipper_core::units::SECOND))
        .filter(|v| *v > 0.0 && !v.is_nan())
        .unwrap_or(DEFAULT_MISSION_TIMEOUT)
}

/// The channels' winners this tick (item indices).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Winners {
    /// horizontal
    pub horizontal: Option<u32>,
    /// vertical
    pub vertical: Option<u32>,
    /// speed
    pub speed: Option<u32>,
    /// buoyancy
    pub buoyancy: Option<u32>,
}

#[derive(Debug, Clone, Copy)]
struct Rt {
    state: ItemState,
    cursor: usize,
    iteration: u32,
    /// when the current run started (for WITHIN; rule 18)
    started: f64,
    /// a WHILE item whose sequence completed during this activation of its parent (rule 14)
    while_done: bool,
    /// why it last ended
    reason: Option<EndReason>,
    /// completions so far (WHEN items re-arm at once; this shows they completed)
    completions: u32,
    /// how it last ended (completed or timed out)
    ended: ItemState,
    leaf: LeafState,
}

impl Rt {
    fn new() -> Self {
        Self {
            state: ItemState::Inactive,
            cursor: 0,
            iteration: 0,
            started: 0.0,
            while_done: false,
            reason: None,
            completions: 0,
            ended: ItemState::Completed,
            leaf: LeafState::default(),
        }
    }
}

/// Counters for the run summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// Waypoint commands satisfied.
    pub waypoints_reached: u64,
    /// Ticks run.
    pub ticks: u64,
    /// Transitions so far.
    pub transitions: u64,
}

/// A note worth logging that is not a state change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Note {
    /// The item.
    pub item: u32,
    /// What: `envelope_conflict` (rule 39).
    pub kind: &'static str,
}

/// The executive of one mission on one vehicle.
pub struct Executive {
    mission: Arc<Mission>,
    rt: Vec<Rt>,
    shown: Vec<ItemState>,
    seen_completions: Vec<u32>,
    running: Vec<bool>,
    preempted_by: Vec<Option<u32>>,
    transitions: Vec<Transition>,
    notes: Vec<Note>,
    uris: UriBinding,
    nav_uris: NavUris,
    nav: Nav,
    now: f64,
    preempt: Option<u32>,
    finishing: bool,
    status: MissionStatus,
    cruise: Option<f64>,
    winners: Winners,
    counters: Counters,
    setpoints: AuvSetpoints,
    bound: bool,
    stopped: bool,
    /// per item: its behavior's default speed (moving behaviors only; see [`crate::speed`])
    default_speeds: Vec<Option<f64>>,
    /// the default mission timeout (s), for a mission without a top-level `WITHIN`
    timeout: f64,
}

enum End {
    Completed(EndReason),
    TimedOut,
    Timeout,
}

impl Executive {
    /// An executive for a loaded mission.
    pub fn new(mission: Arc<Mission>) -> Self {
        let n = mission.items.len();
        Self {
            rt: vec![Rt::new(); n],
            shown: vec![ItemState::Inactive; n],
            seen_completions: vec![0; n],
            running: vec![false; n],
            preempted_by: vec![None; n],
            transitions: Vec::with_capacity(2 * n),
            notes: Vec::with_capacity(n),
            uris: UriBinding::default(),
            nav_uris: NavUris::new(),
            nav: Nav::default(),
            now: 0.0,
            preempt: None,
            finishing: false,
            status: MissionStatus::Running,
            cruise: None,
            winners: Winners::default(),
            counters: Counters::default(),
            setpoints: AuvSetpoints::default(),
            bound: false,
            stopped: false,
            default_speeds: mission
                .items
                .iter()
                .map(|it| {
                    it.leaf()
                        .and_then(|l| crate::speed::default_speed(&mission.control, l.kind))
                })
                .collect(),
            timeout: mission_timeout(&mission.control),
            mission,
        }
    }

    /// Set the default mission timeout (s); it bounds a mission without a top-level
    /// `WITHIN` (which bounds it itself).
    pub fn set_timeout(&mut self, secs: f64) {
        if secs > 0.0 && !secs.is_nan() {
            self.timeout = secs;
        }
    }
    /// The default mission timeout (s), or `None` when the mission's own top-level
    /// `WITHIN` bounds it.
    pub fn timeout(&self) -> Option<f64> {
        match self.mission.items.first() {
            Some(root) if root.within.is_some() => None,
            _ => Some(self.timeout),
        }
    }

    /// The mission.
    pub fn mission(&self) -> &Arc<Mission> {
        &self.mission
    }

    /// Find each URI's signal (call once the vehicle has declared its signals).
    pub fn bind(&mut self, signals: &Signals) {
        self.uris = UriBinding::bind(signals);
        self.bound = true;
    }

    /// One tick: update states, arbitrate, and return the setpoints.
    pub fn tick(&mut self, now: Duration, signals: &Signals) -> AuvSetpoints {
        if !self.bound {
            self.bind(signals);
        }
        self.counters.ticks += 1;
        self.now = now.as_secs_f64();
        self.transitions.clear();
        self.notes.clear();
        let uris = std::mem::take(&mut self.uris);
        let env = Env {
            signals,
            uris: &uris,
            now,
        };
        self.nav = self.nav_uris.read(&env);
        self.running.fill(false);
        self.preempted_by.fill(None);
        self.preempt = None;
        let mission = self.mission.clone();
        if self.status == MissionStatus::Running && !self.stopped && !mission.items.is_empty() {
            if self.rt[0].state == ItemState::Inactive {
                self.activate(&mission, 0);
            }
            let end = self.run_item(&mission, 0, &env).or_else(|| {
                let limit = self.timeout()?;
                (self.now - self.rt[0].started >= limit).then_some(End::Timeout)
            });
            if let Some(end) = end {
                self.status = match end {
                    End::Timeout => MissionStatus::Timeout,
                    End::TimedOut => MissionStatus::TimedOut,
                    End::Completed(_) => MissionStatus::Completed,
                };
                self.finish(&mission, 0, end);
                self.running.fill(false);
            }
        }
        self.setpoints = if self.status == MissionStatus::Running && !self.stopped {
            self.arbitrate(&mission, &env)
        } else {
            self.winners = Winners::default();
            self.default_mission()
        };
        self.uris = uris;
        self.publish_states();
        self.setpoints
    }

    fn eval(&self, env: &Env<'_>, c: &crate::model::Clause) -> bool {
        env.eval(c)
    }

    fn activate(&mut self, m: &Mission, i: usize) {
        let now = self.now;
        let nav = self.nav;
        if let Some(rt) = self.rt.get_mut(i) {
            rt.state = ItemState::Active;
            rt.cursor = 0;
            rt.iteration = 0;
            rt.started = now;
            rt.while_done = false;
            rt.reason = None;
            rt.leaf = LeafState::fresh(now, &nav);
        }
        let end = m.items.get(i).map_or(i, |it| it.end);
        for d in i + 1..end {
            if let Some(rt) = self.rt.get_mut(d) {
                rt.state = ItemState::Inactive;
                rt.while_done = false;
            }
        }
    }

    /// End item `i` and stop its subtree.
    fn finish(&mut self, m: &Mission, i: usize, end: End) {
        if let Some(rt) = self.rt.get_mut(i) {
            match end {
                End::Completed(r) => {
                    rt.state = ItemState::Completed;
                    rt.reason = Some(r);
                }
                End::TimedOut => {
                    rt.state = ItemState::TimedOut;
                    rt.reason = Some(EndReason::Within);
                }
                End::Timeout => {
                    rt.state = ItemState::TimedOut;
                    rt.reason = Some(EndReason::Timeout);
                }
            }
            rt.completions = rt.completions.wrapping_add(1);
            rt.ended = rt.state;
        }
        let stop = m.items.get(i).map_or(i, |it| it.end);
        for d in i..stop {
            if let Some(r) = self.running.get_mut(d) {
                *r = false;
            }
        }
        for d in i + 1..stop {
            if let Some(rt) = self.rt.get_mut(d) {
                if matches!(
                    rt.state,
                    ItemState::Active | ItemState::Armed | ItemState::Suspended
                ) {
                    rt.state = ItemState::Inactive;
                }
            }
        }
    }

    /// Update an active item; `Some` when it ended this tick.
    fn run_item(&mut self, m: &Mission, i: usize, env: &Env<'_>) -> Option<End> {
        let it = m.items.get(i)?;
        if it.repeat == Repeat::Times(0) {
            return Some(End::Completed(EndReason::Skipped));
        }
        if let Some(u) = &it.until {
            if self.eval(env, u) {
                return Some(End::Completed(EndReason::Until));
            }
        }
        let started = self.rt.get(i)?.started;
        if let Some(w) = it.within {
            if self.now - started >= w {
                return Some(End::TimedOut);
            }
        }
        if let Some(r) = self.running.get_mut(i) {
            *r = true;
        }
        match &it.body {
            Body::Leaf(leaf) => {
                if !leaf.command {
                    return None;
                }
                let st = self.rt.get(i)?.leaf;
                if !behaviors::satisfied(leaf, &st, &self.nav, env, self.now) {
                    return None;
                }
                if leaf.kind == BehaviorKind::Waypoint {
                    self.counters.waypoints_reached += 1;
                }
                if leaf.kind == BehaviorKind::SetSpeed {
                    self.cruise = leaf.number("SPEED");
                }
                let now = self.now;
                let nav = self.nav;
                let rt = self.rt.get_mut(i)?;
                rt.iteration += 1;
                let more = match it.repeat {
                    Repeat::Forever => true,
                    Repeat::Times(n) => rt.iteration < n,
                };
                if more {
                    rt.leaf = LeafState {
                        started: now,
                        ..LeafState::fresh(now, &nav)
                    };
                    None
                } else {
                    Some(End::Completed(EndReason::Satisfied))
                }
            }
            Body::Stack {
                children, sequence, ..
            } => self.run_children(m, i, children, sequence, env),
        }
    }

    fn any_when_active(&self, m: &Mission) -> bool {
        m.items
            .iter()
            .zip(&self.rt)
            .any(|(it, rt)| matches!(it.guard, Guard::When(_)) && rt.state == ItemState::Active)
    }

    fn run_children(
        &mut self,
        m: &Mission,
        s: usize,
        children: &[usize],
        sequence: &[usize],
        env: &Env<'_>,
    ) -> Option<End> {
        let root = s == 0;
        for &c in children {
            let Some(item) = m.items.get(c) else { continue };
            if let Some(p) = self.preempt {
                // rule 24: lower priority, outside the pre-emptor's subtree
                for d in c..item.end {
                    let live = self.rt.get(d).is_some_and(|r| {
                        matches!(
                            r.state,
                            ItemState::Active | ItemState::Armed | ItemState::Suspended
                        )
                    });
                    if live {
                        if let Some(slot) = self.preempted_by.get_mut(d) {
                            *slot = Some(p);
                        }
                    }
                }
                continue;
            }
            let state = self.rt.get(c)?.state;
            match &item.guard {
                Guard::None if item.is_behavior() => {
                    if state == ItemState::Inactive {
                        self.activate(m, c);
                    }
                    if self.rt.get(c)?.state == ItemState::Active {
                        if let Some(end) = self.run_item(m, c, env) {
                            self.finish(m, c, end);
                        }
                    }
                }
                Guard::None => {
                    let cursor = self.rt.get(s)?.cursor;
                    if sequence.get(cursor) == Some(&c) {
                        if state == ItemState::Inactive {
                            self.activate(m, c);
                        }
                        if self.rt.get(c)?.state == ItemState::Active {
                            if let Some(end) = self.run_item(m, c, env) {
                                self.finish(m, c, end);
                                let rt = self.rt.get_mut(s)?;
                                rt.cursor += 1;
                                if rt.cursor >= sequence.len() {
                                    // an iteration of this stack is done
                                    rt.iteration += 1;
                                    let done = match m.items.get(s)?.repeat {
                                        Repeat::Forever => false,
                                        Repeat::Times(n) => rt.iteration >= n,
                                    };
                                    if done {
                                        if root && self.any_when_active(m) {
                                            self.finishing = true; // rule 7
                                        } else {
                                            return Some(End::Completed(EndReason::Sequence));
                                        }
                                    } else {
                                        rt.cursor = 0;
                                        self.next_iteration(m, children);
                                    }
                                }
                            }
                        }
                    }
                }
                Guard::When(cl) => {
                    if state == ItemState::Inactive {
                        self.rt.get_mut(c)?.state = ItemState::Armed;
                    }
                    if self.rt.get(c)?.state == ItemState::Armed
                        && !self.finishing
                        && self.eval(env, cl)
                    {
                        self.activate(m, c);
                    }
                    if self.rt.get(c)?.state == ItemState::Active {
                        if let Some(end) = self.run_item(m, c, env) {
                            self.finish(m, c, end);
                            // rule 10: re-arm
                            self.rt.get_mut(c)?.state = ItemState::Armed;
                        }
                    }
                }
                Guard::While(cl) => {
                    if state == ItemState::Inactive {
                        self.rt.get_mut(c)?.state = ItemState::Armed;
                    }
                    let rt = *self.rt.get(c)?;
                    if !rt.while_done {
                        let on = self.eval(env, cl);
                        match (rt.state, on) {
                            (ItemState::Armed, true) => self.activate(m, c),
                            (ItemState::Suspended, true) => {
                                self.rt.get_mut(c)?.state = ItemState::Active;
                            }
                            (ItemState::Active, false) => {
                                self.rt.get_mut(c)?.state = ItemState::Suspended;
                            }
                            _ => {}
                        }
                        if self.rt.get(c)?.state == ItemState::Active {
                            if let Some(end) = self.run_item(m, c, env) {
                                self.finish(m, c, end);
                                self.rt.get_mut(c)?.while_done = true;
                            }
                        }
                    }
                }
            }
            if self.rt.get(c)?.state == ItemState::Active {
                if let Some(p) = &item.preemptive {
                    if self.preempt.is_none() && self.eval(env, p) {
                        self.preempt = Some(c as u32);
                    }
                }
            }
        }
        if root && self.finishing && !self.any_when_active(m) {
            return Some(End::Completed(EndReason::Sequence));
        }
        None
    }

    /// Rule 22: between repetitions, sequential children start afresh, guarded children
    /// re-arm, behaviors keep running.
    fn next_iteration(&mut self, m: &Mission, children: &[usize]) {
        for &c in children {
            let Some(item) = m.items.get(c) else { continue };
            if item.is_behavior() && matches!(item.guard, Guard::None) {
                continue;
            }
            let end = item.end;
            for d in c..end {
                if let Some(rt) = self.rt.get_mut(d) {
                    if d == c && !matches!(item.guard, Guard::None) {
                        rt.state = ItemState::Armed;
                    } else if matches!(
                        rt.state,
                        ItemState::Active | ItemState::Armed | ItemState::Suspended
                    ) || d == c
                    {
                        rt.state = ItemState::Inactive;
                    }
                    rt.while_done = false;
                }
            }
        }
    }

    /// Rules 36-40: requests in priority order, envelopes constrain the items below them.
    fn arbitrate(&mut self, m: &Mission, env: &Env<'_>) -> AuvSetpoints {
        let nav = self.nav;
        let mut bounds = Envelope::default();
        let mut heading: Option<f64> = None;
        let mut vertical: Option<Vertical> = None;
        let mut speed: Option<f64> = None;
        let mut buoyancy: Option<f64> = None;
        let mut sample = 0u32;
        let mut w = Winners::default();
        // the default speed of the highest-priority running item that moves the vehicle
        let mut fallback: Option<(f64, u32)> = None;
        for i in 0..m.items.len() {
            if !self.running.get(i).copied().unwrap_or(false) {
                continue;
            }
            let Some(leaf) = m.items.get(i).and_then(|it| it.leaf()) else {
                continue;
            };
            let mut req = Request::default();
            if behaviors::is_envelope(leaf.kind) {
                let above = bounds;
                let fits = behaviors::apply_envelope(leaf, &nav, &mut bounds, &mut req);
                // the correction is clamped by the envelopes above only (rule 38)
                self.take(
                    i,
                    &req,
                    &above,
                    &nav,
                    &mut heading,
                    &mut vertical,
                    &mut speed,
                    &mut buoyancy,
                    &mut w,
                );
                let conflict = !fits;
                if let Some(rt) = self.rt.get_mut(i) {
                    if conflict && !rt.leaf.conflict && self.notes.len() < self.notes.capacity() {
                        self.notes.push(Note {
                            item: i as u32,
                            kind: "envelope_conflict",
                        });
                    }
                    rt.leaf.conflict = conflict;
                }
            } else {
                let default = self.default_speeds.get(i).copied().flatten();
                if fallback.is_none() {
                    fallback = default.map(|v| (v, i as u32));
                }
                let Some(rt) = self.rt.get_mut(i) else {
                    continue;
                };
                req = behaviors::request(leaf, &mut rt.leaf, &nav, &bounds, default);
                self.take(
                    i,
                    &req,
                    &bounds,
                    &nav,
                    &mut heading,
                    &mut vertical,
                    &mut speed,
                    &mut buoyancy,
                    &mut w,
                );
            }
            sample |= req.sample;
        }
        let _ = env;
        // rule 40: channel defaults
        let heading = heading.unwrap_or(nav.heading);
        let vertical = vertical.unwrap_or(Vertical::Pitch(0.0));
        let speed = match (speed.or(self.cruise), fallback) {
            (Some(s), _) => s,
            (None, Some((s, item))) => {
                w.speed = Some(item);
                s
            }
            (None, None) => 0.0,
        };
        self.winners = w;
        let mut sp = AuvSetpoints {
            heading: Some(compass_to_math(heading)),
            speed: Some(speed),
            buoyancy,
            sample,
            ..AuvSetpoints::default()
        };
        match vertical {
            Vertical::Depth(d) => sp.depth = Some(d),
            Vertical::DepthRate(r) => sp.depth_rate = Some(r),
            Vertical::Pitch(p) => sp.pitch = Some(p),
        }
        sp
    }

    #[allow(clippy::too_many_arguments)]
    fn take(
        &self,
        i: usize,
        req: &Request,
        bounds: &Envelope,
        nav: &Nav,
        heading: &mut Option<f64>,
        vertical: &mut Option<Vertical>,
        speed: &mut Option<f64>,
        buoyancy: &mut Option<f64>,
        w: &mut Winners,
    ) {
        let me = Some(i as u32);
        if let (None, Some(h)) = (*heading, req.heading) {
            *heading = Some(bounds.clamp_heading(h));
            w.horizontal = me;
        }
        if let (None, Some(v)) = (*vertical, req.vertical) {
            *vertical = Some(bounds.clamp_vertical(v, nav.depth));
            w.vertical = me;
        }
        if let (None, Some(s)) = (*speed, req.speed) {
            *speed = Some(s.max(0.0));
            w.speed = me;
        }
        if let (None, Some(b)) = (*buoyancy, req.buoyancy) {
            *buoyancy = Some(b.clamp(-1.0, 1.0));
            w.buoyancy = me;
        }
    }

    /// Rule 7's built-in default mission: go to the surface, stop the propeller there,
    /// keep reading GPS and attempting comms.
    fn default_mission(&self) -> AuvSetpoints {
        let at_surface =
            self.nav.depth.is_nan() || self.nav.depth <= behaviors::defaults::SURFACE_DEPTH;
        AuvSetpoints {
            heading: Some(compass_to_math(self.nav.heading)),
            speed: Some(if at_surface { 0.0 } else { 1.0 }),
            pitch: Some(if at_surface {
                0.0
            } else {
                behaviors::defaults::PITCH
            }),
            buoyancy: Some(1.0),
            sample: auv_sensor::GPS | auv_sensor::COMMS,
            ..AuvSetpoints::default()
        }
    }

    fn publish_states(&mut self) {
        for i in 0..self.shown.len() {
            let (Some(rt), Some(&by)) = (self.rt.get(i), self.preempted_by.get(i)) else {
                continue;
            };
            // the children of a suspended substack are suspended with it (its parent is
            // earlier in pre-order, so its shown state is already this tick's)
            let parent_suspended = self
                .mission
                .items
                .get(i)
                .and_then(|it| it.parent)
                .and_then(|p| self.shown.get(p))
                .is_some_and(|s| *s == ItemState::Suspended);
            let now = match by {
                Some(p) => ItemState::Preempted(p),
                None if parent_suspended && rt.state == ItemState::Active => ItemState::Suspended,
                None => rt.state,
            };
            let (ended, reason, completions) = (rt.ended, rt.reason, rt.completions);
            let mut before = self.shown[i];
            // an item that ended and was re-armed or reset in the same tick (a WHEN item, a
            // command between repetitions) still shows that it ended
            if self.seen_completions.get(i) != Some(&completions) {
                if let Some(c) = self.seen_completions.get_mut(i) {
                    *c = completions;
                }
                if now != ended && before != ended {
                    self.push_transition(i, before, ended, reason);
                    before = ended;
                }
            }
            if before != now {
                let reason = match now {
                    ItemState::Completed | ItemState::TimedOut => reason,
                    _ => None,
                };
                self.push_transition(i, before, now, reason);
            }
            self.shown[i] = now;
        }
    }

    fn push_transition(
        &mut self,
        i: usize,
        from: ItemState,
        to: ItemState,
        reason: Option<EndReason>,
    ) {
        if self.transitions.len() < self.transitions.capacity() {
            self.transitions.push(Transition {
                item: i as u32,
                from,
                to,
                reason,
            });
        }
        self.counters.transitions += 1;
    }

    /// Stop the mission (an operator's cancel): from the next tick on the items stay as
    /// they are, nothing runs, and the vehicle is in the default mission (rule 7: to the
    /// surface, propeller off there). The status stays `Running`: the mission did not end.
    pub fn stop(&mut self) {
        self.stopped = true;
    }
    /// Whether [`Executive::stop`] was called.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The setpoints of the last tick.
    pub fn setpoints(&self) -> AuvSetpoints {
        self.setpoints
    }
    /// The transitions of the last tick.
    pub fn transitions(&self) -> &[Transition] {
        &self.transitions
    }
    /// The notes of the last tick.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }
    /// Every item's state after the last tick.
    pub fn states(&self) -> &[ItemState] {
        &self.shown
    }
    /// An item's state by path.
    pub fn state_of(&self, path: &str) -> Option<ItemState> {
        self.mission
            .find(path)
            .and_then(|i| self.shown.get(i).copied())
    }
    /// A substack's cursor and completed iterations.
    pub fn progress(&self, i: usize) -> Option<(usize, u32)> {
        self.rt.get(i).map(|r| (r.cursor, r.iteration))
    }
    /// How many times an item completed (or timed out) so far.
    pub fn completions(&self, i: usize) -> u32 {
        self.rt.get(i).map_or(0, |r| r.completions)
    }
    /// The mission's status.
    pub fn status(&self) -> MissionStatus {
        self.status
    }
    /// The channels' winners of the last tick.
    pub fn winners(&self) -> Winners {
        self.winners
    }
    /// Counters.
    pub fn counters(&self) -> Counters {
        self.counters
    }
    /// The path of an item.
    pub fn path(&self, i: u32) -> &str {
        self.mission
            .items
            .get(i as usize)
            .map_or("", |it| it.path.as_str())
    }

    /// A hash of everything [`state_json`](Self::state_json) shows: equal hashes, the
    /// same state (without allocating, so recorders can skip unchanged states).
    pub fn state_fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = WordHasher::default();
        (Arc::as_ptr(&self.mission) as usize).hash(&mut h);
        self.status.hash(&mut h);
        self.winners.hash(&mut h);
        self.shown.hash(&mut h);
        for (it, rt) in self.mission.items.iter().zip(&self.rt) {
            if matches!(it.body, Body::Stack { .. }) {
                (rt.cursor, rt.iteration).hash(&mut h);
            }
        }
        h.finish()
    }

    /// The state as JSON for `/controller` (allocates; not part of the tick).
    pub fn state_json(&self) -> serde_json::Value {
        let items: Vec<serde_json::Value> = self
            .mission
            .items
            .iter()
            .enumerate()
            .map(|(i, it)| {
                let st = self.shown.get(i).copied().unwrap_or(ItemState::Inactive);
                let mut o =
                    serde_json::json!({"id": it.path, "name": it.name(), "state": st.name()});
                if let ItemState::Preempted(p) = st {
                    o["by"] = self.path(p).into();
                }
                if let (Body::Stack { .. }, Some(rt)) = (&it.body, self.rt.get(i)) {
                    o["cursor"] = rt.cursor.into();
                    o["iteration"] = rt.iteration.into();
                }
                o
            })
            .collect();
        let w = |x: Option<u32>| x.map(|i| self.path(i).to_string());
        serde_json::json!({
            "mission": self.mission.name,
            "status": self.status,
            "items": items,
            "channels": {
                "horizontal": w(self.winners.horizontal),
                "vertical": w(self.winners.vertical),
                "speed": w(self.winners.speed),
                "buoyancy": w(self.winners.buoyancy),
            },
        })
    }
}

/// Compass heading (clockwise from north) to the math convention of
/// [`AuvSetpoints::heading`] (counter-clockwise from east).
pub use skipper_core::geo::compass_to_math;

/// The fingerprint's hasher: word by word, `h = (rotl(h, 5) ^ w) * K` (FxHash's mixing),
/// about three instructions a word where SipHash took most of a recorder's cycle. Each
/// step is a bijection of the word for a given `h` and of `h` for a given word, so two
/// states that differ in one word always hash apart; not meant for hostile input.
#[derive(Default)]
struct WordHasher(u64);

impl WordHasher {
    const K: u64 = 0x517c_c1b7_2722_0a95;

    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(Self::K);
    }
}

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.add(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    fn write_isize(&mut self, v: isize) {
        self.add(v as u64);
    }
}
