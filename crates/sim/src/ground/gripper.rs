//! The Pioneer two-paddle gripper with lift, break beams and paddle contacts.
//!
//! Geometry in the robot frame (x forward, y left): the paddles reach from the front of
//! the robot (x = 0.21 m) to 0.37 m; fully open they are 0.20 m apart. The inner break
//! beam crosses the gap at x = 0.26 m, the outer one at x = 0.34 m. The paddles take
//! 2 s to close fully and the lift 3 s to travel; a closing pair stops on an object
//! between them, both paddle contacts close, and the object is held (it follows the
//! robot, and rises with the lift) until the paddles open again. Paddles that close
//! fully on nothing press on each other, so both contacts close then too (ARIA reports
//! a gripper "closed" only when both contacts are pressed).
//!
//! The state is reported as the GRIPPERpac state byte of the P2OS manual, Table 10:
//! bit 0 grip limit (0 = paddles fully open), bit 1 lift limit (0 = lift fully up or
//! down), bit 2 outer beam (0 = obstructed), bit 3 inner beam (0 = obstructed),
//! bit 4 left paddle (0 = grasping), bit 5 right paddle (0 = grasping),
//! bit 6 lift moving (1), bit 7 gripper moving (1).

use skipper_core::GripperCommand;

/// Where the paddles start (robot frame x, m).
pub const PADDLE_BASE_X: f64 = 0.21;
/// Where the paddles end (m).
pub const PADDLE_TIP_X: f64 = 0.37;
/// Gap between fully open paddles (m).
pub const OPEN_GAP: f64 = 0.20;
/// Inner break beam (m).
pub const INNER_BEAM_X: f64 = 0.26;
/// Outer break beam (m).
pub const OUTER_BEAM_X: f64 = 0.34;
/// Seconds for a full paddle stroke.
pub const PADDLE_TIME: f64 = 2.0;
/// Seconds for a full lift stroke.
pub const LIFT_TIME: f64 = 3.0;
/// Height of the lift when fully up (m).
pub const LIFT_HEIGHT: f64 = 0.10;
/// Above this lift fraction the paddles pass over objects on the floor.
pub const LIFT_CLEARS_FLOOR: f64 = 0.3;

#[derive(Debug, Clone, Copy, PartialEq)]
enum PaddleCmd {
    Open,
    Close,
    Stop,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum LiftCmd {
    Up,
    Down,
    Stop,
    /// move for this many seconds (sign = direction)
    For(f64),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Sequence {
    None,
    /// close, then raise
    Store,
    /// lower, then open
    Deploy,
}

/// An object between the paddles: its index, position in the robot frame, radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Between {
    /// object index
    pub index: usize,
    /// robot-frame x (m)
    pub x: f64,
    /// robot-frame y (m)
    pub y: f64,
    /// radius (m)
    pub r: f64,
}

/// What happened in a gripper step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GripEvent {
    /// Nothing of note.
    None,
    /// The paddles closed on this object.
    Grasped(usize),
    /// The paddles let go of this object.
    Released(usize),
}

/// The gripper's state.
#[derive(Debug, Clone)]
pub struct Gripper {
    /// 0 = fully open, 1 = fully closed
    pub paddles: f64,
    /// 0 = fully down, 1 = fully up
    pub lift: f64,
    paddle_cmd: PaddleCmd,
    lift_cmd: LiftCmd,
    seq: Sequence,
    /// the object held, with its robot-frame position
    pub held: Option<Between>,
    paddles_moving: bool,
    lift_moving: bool,
    /// grip pressure time (20 ms units) set by GRIPPERVAL after GRIP_PRESSURE
    pub pressure: i16,
}

impl Default for Gripper {
    fn default() -> Self {
        Self {
            paddles: 0.0,
            lift: 0.0,
            paddle_cmd: PaddleCmd::Stop,
            lift_cmd: LiftCmd::Stop,
            seq: Sequence::None,
            held: None,
            paddles_moving: false,
            lift_moving: false,
            pressure: 0,
        }
    }
}

impl Gripper {
    /// The gap between the paddles (m).
    pub fn gap(&self) -> f64 {
        OPEN_GAP * (1.0 - self.paddles)
    }

    /// Take a command.
    pub fn command(&mut self, c: GripperCommand) {
        self.seq = Sequence::None;
        match c {
            GripperCommand::Open => self.paddle_cmd = PaddleCmd::Open,
            GripperCommand::Close => self.paddle_cmd = PaddleCmd::Close,
            GripperCommand::Stop => self.paddle_cmd = PaddleCmd::Stop,
            GripperCommand::LiftUp => self.lift_cmd = LiftCmd::Up,
            GripperCommand::LiftDown => self.lift_cmd = LiftCmd::Down,
            GripperCommand::LiftStop => self.lift_cmd = LiftCmd::Stop,
            GripperCommand::Store => {
                self.seq = Sequence::Store;
                self.paddle_cmd = PaddleCmd::Close;
                self.lift_cmd = LiftCmd::Stop;
            }
            GripperCommand::Deploy => {
                self.seq = Sequence::Deploy;
                self.lift_cmd = LiftCmd::Down;
                self.paddle_cmd = PaddleCmd::Stop;
            }
            GripperCommand::Halt => {
                self.paddle_cmd = PaddleCmd::Stop;
                self.lift_cmd = LiftCmd::Stop;
            }
            GripperCommand::Pressure(t) => self.pressure = t,
            GripperCommand::LiftCarry(t) => self.lift_cmd = LiftCmd::For(f64::from(t) * 0.020),
        }
    }

    /// Does the gripper reach objects on the floor?
    pub fn reaches_floor(&self) -> bool {
        self.lift < LIFT_CLEARS_FLOOR
    }

    /// Advance by `dt` s; `candidate` is the floor object between the paddles nearest to
    /// the robot (if the gripper reaches the floor).
    pub fn step(&mut self, dt: f64, candidate: Option<Between>) -> GripEvent {
        let mut event = GripEvent::None;
        // paddles
        let before = self.paddles;
        match self.paddle_cmd {
            PaddleCmd::Open => {
                self.paddles = (self.paddles - dt / PADDLE_TIME).max(0.0);
                if let Some(h) = self.held.take() {
                    event = GripEvent::Released(h.index);
                }
                if self.paddles == 0.0 {
                    self.paddle_cmd = PaddleCmd::Stop;
                }
            }
            PaddleCmd::Close => {
                if self.held.is_none() {
                    let mut next = (self.paddles + dt / PADDLE_TIME).min(1.0);
                    if let Some(c) = candidate {
                        let stop_at = (1.0 - 2.0 * c.r / OPEN_GAP).clamp(0.0, 1.0);
                        if next >= stop_at && c.y.abs() <= OPEN_GAP * (1.0 - stop_at) / 2.0 + c.r {
                            next = stop_at.max(self.paddles);
                            self.held = Some(Between { y: 0.0, ..c });
                            event = GripEvent::Grasped(c.index);
                        }
                    }
                    self.paddles = next;
                }
                if self.held.is_some() || self.paddles >= 1.0 {
                    self.paddle_cmd = PaddleCmd::Stop;
                }
            }
            PaddleCmd::Stop => {}
        }
        self.paddles_moving = self.paddles != before;
        // sequences
        match self.seq {
            Sequence::Store if self.paddle_cmd == PaddleCmd::Stop && !self.paddles_moving => {
                self.lift_cmd = LiftCmd::Up;
                self.seq = Sequence::None;
            }
            Sequence::Deploy
                if self.lift_cmd == LiftCmd::Stop && !self.lift_moving && self.lift == 0.0 =>
            {
                self.paddle_cmd = PaddleCmd::Open;
                self.seq = Sequence::None;
            }
            _ => {}
        }
        // lift
        let before = self.lift;
        match self.lift_cmd {
            LiftCmd::Up => {
                self.lift = (self.lift + dt / LIFT_TIME).min(1.0);
                if self.lift >= 1.0 {
                    self.lift_cmd = LiftCmd::Stop;
                }
            }
            LiftCmd::Down => {
                self.lift = (self.lift - dt / LIFT_TIME).max(0.0);
                if self.lift <= 0.0 {
                    self.lift_cmd = LiftCmd::Stop;
                }
            }
            LiftCmd::For(t) => {
                let step = dt.min(t.abs());
                self.lift = (self.lift + t.signum() * step / LIFT_TIME).clamp(0.0, 1.0);
                let left = t.abs() - step;
                self.lift_cmd = if left <= 0.0 || self.lift == 0.0 || self.lift == 1.0 {
                    LiftCmd::Stop
                } else {
                    LiftCmd::For(t.signum() * left)
                };
            }
            LiftCmd::Stop => {}
        }
        self.lift_moving = self.lift != before;
        event
    }

    /// The Table 10 state byte, given whether the outer and inner beams are obstructed.
    pub fn state_byte(&self, outer_blocked: bool, inner_blocked: bool) -> u8 {
        let mut b = 0u8;
        if self.paddles > 0.0 {
            b |= 1 << 0; // between or closed
        }
        if self.lift > 0.0 && self.lift < 1.0 {
            b |= 1 << 1; // lift in between
        }
        if !outer_blocked {
            b |= 1 << 2;
        }
        if !inner_blocked {
            b |= 1 << 3;
        }
        if self.held.is_none() && self.paddles < 1.0 {
            b |= (1 << 4) | (1 << 5); // paddles not grasping (fully closed: they touch)
        }
        if self.lift_moving {
            b |= 1 << 6;
        }
        if self.paddles_moving {
            b |= 1 << 7;
        }
        b
    }

    /// Is a beam at robot-frame x obstructed by an object at (ox, oy) of radius r?
    pub fn beam_blocked(&self, beam_x: f64, ox: f64, oy: f64, r: f64) -> bool {
        (ox - beam_x).abs() < r && oy.abs() < self.gap() / 2.0 + r * 0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_state_is_open_down_clear_and_still() {
        let g = Gripper::default();
        assert_eq!(g.state_byte(false, false), 0b0011_1100);
    }

    #[test]
    fn closing_on_nothing_closes_fully_with_the_paddles_touching() {
        let mut g = Gripper::default();
        g.command(GripperCommand::Close);
        g.step(0.1, None);
        assert_eq!(g.state_byte(false, false), 0b1011_1101); // moving, between, no contact
        for _ in 0..30 {
            g.step(0.1, None);
        }
        assert_eq!(g.paddles, 1.0);
        assert_eq!(g.state_byte(false, false), 0b0000_1101); // closed, both contacts pressed
    }

    #[test]
    fn lift_reports_limit_and_motion() {
        let mut g = Gripper::default();
        g.command(GripperCommand::LiftUp);
        g.step(0.1, None);
        assert_eq!(g.state_byte(false, false) & 0b0100_0010, 0b0100_0010);
        for _ in 0..40 {
            g.step(0.1, None);
        }
        assert_eq!(g.lift, 1.0);
        assert_eq!(g.state_byte(false, false) & 0b0100_0010, 0);
    }
}
