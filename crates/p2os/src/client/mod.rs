//! The client driver (what ARIA does): [`link`] (TCP or serial), [`connection`] (the
//! handshake and packet I/O) and [`vehicle`] (a Skipper vehicle on a P2OS robot).

pub mod connection;
pub mod link;
pub mod vehicle;

pub use connection::{ClientOptions, Connection};
pub use link::{Link, LinkSpec};
pub use vehicle::{DriverOptions, P2osVehicle, P2osWorld, RobotState};
