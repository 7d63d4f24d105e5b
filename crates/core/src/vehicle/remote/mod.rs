//! Robots known only through the messages they publish and driven by the velocity they
//! are sent: the part of the ROS 2 and ROS 1 robots (`--vehicle ros2:/NS`,
//! `ros1:/NS`) that does not depend on the middleware. A transport subscribes the
//! robot's topics and puts each message in the robot's [`Link`] (odometry, scan, range
//! sensors, battery, transforms, `/clock`), and implements [`CommandOut`] for its
//! `cmd_vel`; this module does the rest:
//!
//! - [`address`]: where a robot is and how to drive it (`/NAMESPACE[,OPTION...]`);
//! - [`feed`]: the messages, checked (bad ones counted and skipped), the scan in the
//!   base's beam order, and what the robot was found to have;
//! - [`frames`]: where its sensors sit, from its transforms;
//! - [`clock`]: the robot's time (the wall clock, or its `/clock`);
//! - [`drive`]: drive commands as velocities;
//! - [`link`]: the safety bounds (stale odometry, a silent controller, a lost robot);
//! - [`robot`]: the [`crate::Vehicle`]; [`world`]: the [`crate::World`], its
//!   watchdog, and awaiting the robots.

pub mod address;
pub mod clock;
pub mod drive;
pub mod feed;
pub mod frames;
pub mod link;
pub mod robot;
pub mod world;

pub use address::RobotAddress;
pub use clock::RobotClock;
pub use drive::DriveParams;
pub use feed::{BatteryReading, Equipment, OdometryReading, RangeReading, ScanReading};
pub use frames::Transform;
pub use link::{Bounds, CommandOut, Link};
pub use robot::{RemoteConfig, RemoteRobot};
pub use world::{await_robots, robots, Expected, RemoteWorld};
