//! Skipper's simulator: worlds and simulated vehicles.
//!
//! - [`auv`]: an LRAUV-like AUV in an ocean worksite (bathymetry, coastline, water
//!   properties, GPS and satellite comms at the surface), in an [`AuvWorld`];
//! - [`ground`]: a differential-drive Pioneer 3-DX with its sonar ring, a laser, bumpers,
//!   a two-paddle gripper, digital and analog I/O, a TCM2-like compass and a battery, in a
//!   [`GroundWorld`] of walls, balls and cans shared by any number of robots;
//! - [`world_file`] and [`map_file`]: the Skipper world file and MobileSim/ARIA `.map`
//!   import, into a [`WorldSpec`];
//! - [`spatial`]: the grid, ray casting and contacts everything above is built on;
//!   [`enclosure`]: which places walls close off (a robot or goal inside furniture).
//!
//! Every random number comes from a generator seeded by the run's seed, and nothing
//! reads the wall clock, so the same inputs give the same run.

pub mod auv;
pub mod enclosure;
pub mod error;
pub mod ground;
pub mod map_file;
pub mod spatial;
pub mod spec;
pub mod world_file;

pub use auv::{AuvSite, AuvWorld, Lrauv};
pub use error::{Location, WorldError};
pub use ground::{GroundRobot, GroundWorld};
pub use spec::{ObjectKind, RobotSpec, Settings, WorldSpec};
pub use world_file::{load_world, parse_world, WorldErrors};
