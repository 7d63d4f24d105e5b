//! Helpers shared by the simulator's integration tests.
#![allow(dead_code)]

use skipper_core::{Actuation, Events, Signals, World};
use skipper_sim::{parse_world, GroundWorld};
use std::time::Duration;

pub const DT: Duration = Duration::from_millis(100);

/// A world from world-file text.
pub fn world(text: &str) -> GroundWorld {
    let mut spec = parse_world(text, "test.world", None).unwrap_or_else(|e| panic!("{e}"));
    // exact, as `skipper run --exact`: ranges and poses are checked to the micrometre
    spec.settings.exact();
    GroundWorld::new(&spec, 0).unwrap_or_else(|e| panic!("{e}"))
}

/// Drives a world cycle by cycle, as the runner does, for robot 0.
pub struct Bench {
    pub world: GroundWorld,
    pub signals: Signals,
    pub events: Events,
    pub now: Duration,
}

impl Bench {
    pub fn new(world: GroundWorld) -> Self {
        let mut b = Self {
            world,
            signals: Signals::new(),
            events: Events::new(),
            now: Duration::ZERO,
        };
        b.sense();
        b
    }
    pub fn sense(&mut self) {
        self.signals.begin_cycle();
        let v = self.world.vehicle_mut(0).unwrap();
        v.sense(self.now, &mut self.signals, &mut self.events);
    }
    /// One cycle with this actuation (only the first cycle gets it, as with a latched command).
    pub fn cycle(&mut self, a: &Actuation) {
        self.events.clear();
        self.world
            .vehicle_mut(0)
            .unwrap()
            .act(self.now, a, &mut self.events);
        self.world.advance(self.now, DT, &mut self.events);
        self.now += DT;
        self.sense();
    }
    pub fn act_then_wait(&mut self, a: Actuation, cycles: usize) {
        self.cycle(&a);
        for _ in 1..cycles {
            self.cycle(&Actuation::default());
        }
    }
    pub fn f(&self, name: &str) -> f64 {
        self.signals
            .get_named(name)
            .and_then(|v| v.as_f64())
            .unwrap_or_else(|| panic!("no signal {name}"))
    }
    pub fn i(&self, name: &str) -> i64 {
        self.signals
            .get_named(name)
            .and_then(|v| v.as_i64())
            .unwrap_or_else(|| panic!("no signal {name}"))
    }
    pub fn b(&self, name: &str) -> bool {
        self.signals
            .get_named(name)
            .and_then(|v| v.as_bool())
            .unwrap_or_else(|| panic!("no signal {name}"))
    }
}

pub fn drive(a: skipper_core::Drive) -> Actuation {
    Actuation {
        drive: Some(a),
        ..Default::default()
    }
}
