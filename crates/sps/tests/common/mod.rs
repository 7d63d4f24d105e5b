//! A test rig: a signal table like a Pioneer's (pose, 180 laser beams) and a link.
#![allow(dead_code)]

use skipper_core::{Actuation, SignalId, Signals};
use skipper_sps::tree::{Val, ROOT};
use skipper_sps::{Command, Link, LinkConfig, Param, PostOffice, Step, Update};
use std::time::Duration;

pub const DT: Duration = Duration::from_millis(50);

pub struct Rig {
    pub signals: Signals,
    pub link: Link,
    pub now: Duration,
    pub cycle: u64,
    pub pose: (f64, f64, f64),
    pub laser: Vec<f64>,
    pub laser_on: bool,
    pub update: Update,
    pub actuation: Actuation,
    ids: [SignalId; 3],
    laser_ids: Vec<SignalId>,
    next_tt: i64,
}

/// Attributes as written in tests.
pub type A<'a> = Vec<(&'a str, Param)>;

pub fn attrs(list: &[(&str, Param)]) -> Vec<(String, Param)> {
    list.iter()
        .map(|(a, v)| (a.to_string(), v.clone()))
        .collect()
}

pub fn f(v: f64) -> Param {
    Param::Float(v)
}
pub fn i(v: i64) -> Param {
    Param::Int(v)
}
pub fn s(v: &str) -> Param {
    Param::Str(v.into())
}
pub fn id(v: &str) -> Param {
    Param::Id(v.into())
}

impl Rig {
    pub fn new() -> Self {
        Self::with_link(Link::new(LinkConfig::new("robot1")))
    }

    pub fn with_post(name: &str, post: &PostOffice) -> Self {
        Self::with_link(Link::new(LinkConfig::new(name)).with_post_office(post.clone()))
    }

    pub fn with_link(link: Link) -> Self {
        let mut signals = Signals::new();
        let ids = [
            signals.declare("pose.x", None),
            signals.declare("pose.y", None),
            signals.declare("pose.yaw", None),
        ];
        let laser_ids = (0..180)
            .map(|k| signals.declare(&format!("laser.{k}"), None))
            .collect();
        let mut rig = Self {
            signals,
            link,
            now: Duration::ZERO,
            cycle: 0,
            pose: (0.0, 0.0, 0.0),
            laser: vec![8.0; 180],
            laser_on: true,
            update: Update::default(),
            actuation: Actuation::default(),
            ids,
            laser_ids,
            next_tt: 100,
        };
        rig.sense();
        rig.link.start(&rig.signals, rig.now).unwrap();
        rig.link.take(&mut rig.update);
        rig
    }

    fn sense(&mut self) {
        self.signals.begin_cycle();
        let (x, y, yaw) = self.pose;
        self.signals.set_f64(self.ids[0], x, self.now);
        self.signals.set_f64(self.ids[1], y, self.now);
        self.signals
            .set_f64(self.ids[2], yaw.to_radians(), self.now);
        if self.laser_on {
            for (id, r) in self.laser_ids.iter().zip(&self.laser) {
                self.signals.set_f64(*id, *r, self.now);
            }
        }
    }

    /// A command with a fresh timetag.
    pub fn cmd(&mut self, name: &str, a: &[(&str, Param)]) -> Command {
        self.next_tt += 1;
        Command {
            tt: self.next_tt,
            name: name.into(),
            attrs: attrs(a),
        }
    }

    /// One cycle with these commands (the clock advances by DT first).
    pub fn run(&mut self, commands: Vec<Command>) -> &Update {
        let step = Step {
            commands,
            ..Default::default()
        };
        self.run_step(step)
    }

    pub fn run_step(&mut self, step: Step) -> &Update {
        self.run_ref(&step);
        &self.update
    }

    /// One cycle with a step the caller keeps (no allocation of its own).
    pub fn run_ref(&mut self, step: &Step) {
        self.now += DT;
        self.cycle += 1;
        self.sense();
        self.actuation.clear();
        self.link.cycle(
            step,
            &self.signals,
            self.now,
            self.cycle,
            &mut self.actuation,
        );
        self.link.take(&mut self.update);
    }

    /// The statuses `tt` got in the last cycle, in order.
    pub fn statuses(&self, tt: i64) -> Vec<&'static str> {
        self.update
            .statuses
            .iter()
            .filter(|s| s.tt == tt)
            .map(|s| s.status.as_str())
            .collect()
    }

    /// The error message `tt` got in the last cycle.
    pub fn message(&self, tt: i64) -> Option<String> {
        self.update
            .statuses
            .iter()
            .find(|s| s.tt == tt && s.message.is_some())
            .and_then(|s| s.message.as_deref().map(str::to_string))
    }

    /// The value at a path from the input-link.
    pub fn value(&self, path: &[&str]) -> Option<Val> {
        let t = self.link.tree();
        t.path(ROOT, path).and_then(|w| t.value(w).cloned())
    }

    pub fn float(&self, path: &[&str]) -> f64 {
        match self.value(path) {
            Some(Val::Float(v)) => v,
            other => panic!("{path:?} is not a float: {other:?}"),
        }
    }

    /// The children of the identifier at `path` with attribute `attr`.
    pub fn all(&self, path: &[&str], attr: &str) -> Vec<u32> {
        let t = self.link.tree();
        let Some(at) = t.path(ROOT, path) else {
            return vec![];
        };
        t.children(at)
            .filter(|&c| t.attr(c) == Some(attr))
            .collect()
    }

    pub fn child_value(&self, w: u32, path: &[&str]) -> Option<Val> {
        let t = self.link.tree();
        t.path(w, path).and_then(|k| t.value(k).cloned())
    }
}
