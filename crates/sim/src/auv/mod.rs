//! The simulated AUV: an LRAUV-like vehicle ([`Lrauv`]) in an ocean worksite ([`AuvSite`]:
//! bathymetry, a coastline, temperature and salinity fields, GPS and satellite comms only at
//! the surface), held by an [`AuvWorld`].
//!
//! Frames: the local tangent plane at the worksite's origin, x east and y north (m); depth
//! positive down; headings as the LRAUV has them, clockwise from north, except in
//! [`skipper_core::Pose3`] and [`skipper_core::AuvSetpoints`], which use Skipper's
//! counter-clockwise-from-east convention.

pub mod site;
pub mod vehicle;
pub mod world;

pub use site::AuvSite;
pub use vehicle::{Lrauv, LrauvParams};
pub use world::AuvWorld;
