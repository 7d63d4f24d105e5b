//! A test bench: a mission's executive on hand-set signals (no simulator), one tick per
//! simulated second.
#![allow(dead_code)]

use skipper_core::{AuvSetpoints, SignalId, Signals, Value};
use skipper_mission::uri::CATALOG;
use skipper_mission::{load, load_str, Executive, ItemState, LoadOptions};
use std::sync::Arc;
use std::time::Duration;

pub struct Bench {
    pub signals: Signals,
    pub exec: Executive,
    pub now: Duration,
    pub last: AuvSetpoints,
}

/// Wrap items in a mission with NAME and STACK.
pub fn mission(items: &str) -> String {
    format!("NAME = \"t\"\nSTACK = {{\n{items}\n}}\n")
}

pub const WAIT: &str = "COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.SECOND, ";

impl Bench {
    pub fn new(src: &str) -> Self {
        let m = match load_str(src, "t.lua") {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        };
        Self::of(m)
    }
    /// A bench for a mission loaded with a vehicle configuration (`Control.cfg` text).
    pub fn with_control(src: &str, control: &str) -> Self {
        let control = skipper_mission::parse_config(control, "Control.cfg").expect("config");
        let opts = LoadOptions {
            control: Some(control),
            ..LoadOptions::default()
        };
        match load(src, "t.lua", &opts) {
            Ok(m) => Self::of(m),
            Err(e) => panic!("{e}"),
        }
    }
    pub fn of(m: skipper_mission::Mission) -> Self {
        let mut signals = Signals::new();
        for u in CATALOG {
            signals.declare(u.name, Some(u.unit));
        }
        let mut b = Self {
            signals,
            exec: Executive::new(Arc::new(m)),
            now: Duration::ZERO,
            last: AuvSetpoints::default(),
        };
        b.set("DEPTH", 10.0);
        b.set("LATITUDE", 36.8);
        b.set("LONGITUDE", -121.9);
        b
    }
    pub fn id(&self, name: &str) -> SignalId {
        self.signals.id(name).expect("a URI signal")
    }
    /// A new datum now.
    pub fn set(&mut self, name: &str, v: f64) {
        let id = self.id(name);
        self.signals.set_f64(id, v, self.now);
    }
    pub fn set_value(&mut self, name: &str, v: Value) {
        let id = self.id(name);
        self.signals.set(id, v, self.now);
    }
    pub fn invalidate(&mut self, name: &str) {
        let id = self.id(name);
        self.signals.invalidate(id, self.now);
    }
    /// One tick at the current time, then one second passes.
    pub fn tick(&mut self) -> AuvSetpoints {
        self.signals.begin_cycle();
        self.last = self.exec.tick(self.now, &self.signals);
        self.now += Duration::from_secs(1);
        self.last
    }
    pub fn ticks(&mut self, n: usize) {
        for _ in 0..n {
            self.tick();
        }
    }
    pub fn state(&self, path: &str) -> ItemState {
        match self.exec.state_of(path) {
            Some(s) => s,
            None => panic!("no item {path}: {:?}", self.paths()),
        }
    }
    pub fn paths(&self) -> Vec<String> {
        self.exec
            .mission()
            .items
            .iter()
            .map(|i| i.path.clone())
            .collect()
    }
    pub fn index(&self, path: &str) -> u32 {
        self.exec.mission().find(path).expect("item") as u32
    }
    /// Names of the transitions of the last tick: "path:from>to".
    pub fn transitions(&self) -> Vec<String> {
        self.exec
            .transitions()
            .iter()
            .map(|t| {
                format!(
                    "{}:{}>{}",
                    self.exec.path(t.item),
                    t.from.name(),
                    t.to.name()
                )
            })
            .collect()
    }
}
