//! The simulated ground robot (a Pioneer 3-DX) and the world it drives in.

pub mod battery;
pub mod gripper;
pub mod models;
pub mod motion;
pub mod params;
pub mod populate;
pub mod robot;
pub mod sensors;
pub mod world;

pub use populate::{populate, with_robots};
pub use robot::GroundRobot;
pub use world::{GroundWorld, Object};
