//! The simulator behind Skipper's P2OS robot server (what `skipper sim serve` runs): the
//! robots of a simulated [`GroundWorld`](skipper_sim::GroundWorld), each on a TCP port
//! of its own, for ARIA programs, the ROS p2os driver and Skipper's own P2OS driver, as
//! MobileSim serves its robots.
//!
//! - [`fleet`]: [`SimFleet`], the simulated world behind `skipper_p2os::server`'s
//!   `RobotFleet` trait;
//! - [`geo`]: map coordinates as latitude, longitude and altitude (the simulated GPS);
//! - [`serve`]: checking the server's settings and starting it on one port per robot.

pub mod fleet;
pub mod geo;
pub mod serve;

pub use fleet::{SimFleet, SIMULATOR_SERIAL};
pub use serve::{start, start_with_origin, Error, ServeOptions};
