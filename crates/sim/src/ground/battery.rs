//! A lead-acid battery that drains with use and sags under load.
//!
//! The P3-DX carries up to three 12 V, 7.2 Ah batteries (about 250 Wh). Electronics draw
//! a constant load and the motors a load that grows with speed; the voltage falls with
//! the state of charge and sags with the current drawn through the internal resistance.

/// Battery state.
#[derive(Debug, Clone)]
pub struct Battery {
    full_voltage: f64,
    capacity_wh: f64,
    energy_wh: f64,
    load_w: f64,
}

/// Electronics (W).
const BASE_LOAD_W: f64 = 20.0;
/// Motors at 1 m/s (W).
const DRIVE_W_PER_MPS: f64 = 30.0;
/// Motors turning at 1 rad/s (W).
const TURN_W_PER_RADPS: f64 = 6.0;
/// Volts lost between full and empty.
const DISCHARGE_DROP_V: f64 = 1.8;
/// Internal resistance (ohm).
const INTERNAL_OHM: f64 = 0.08;

impl Battery {
    /// A full battery of `full_voltage` volts at rest.
    pub fn new(full_voltage: f64) -> Self {
        Self {
            full_voltage,
            capacity_wh: 250.0,
            energy_wh: 250.0,
            load_w: BASE_LOAD_W,
        }
    }
    /// Draw power for `dt` s while moving at `v` m/s and turning at `w` rad/s.
    pub fn step(&mut self, dt: f64, v: f64, w: f64) {
        self.load_w = BASE_LOAD_W + DRIVE_W_PER_MPS * v.abs() + TURN_W_PER_RADPS * w.abs();
        self.energy_wh = (self.energy_wh - self.load_w * dt / 3600.0).max(0.0);
    }
    /// State of charge (0..1).
    pub fn charge(&self) -> f64 {
        self.energy_wh / self.capacity_wh
    }
    /// Terminal voltage (V).
    pub fn voltage(&self) -> f64 {
        let rest = self.full_voltage - DISCHARGE_DROP_V * (1.0 - self.charge());
        rest - INTERNAL_OHM * self.load_w / 12.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sags_under_load_and_drains_with_use() {
        let mut b = Battery::new(13.0);
        b.step(0.1, 0.0, 0.0);
        let idle = b.voltage();
        b.step(0.1, 1.0, 0.0);
        assert!(b.voltage() < idle);
        for _ in 0..36_000 {
            b.step(0.1, 1.0, 0.0);
        }
        assert!(b.charge() < 0.85);
        b.step(0.1, 0.0, 0.0);
        assert!(b.voltage() < idle - 0.2);
    }
}
