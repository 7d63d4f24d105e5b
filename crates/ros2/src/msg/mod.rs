//! The ROS 2 messages Skipper sends and receives, as Rust structs whose fields are in
//! the order of their `.msg` definitions, so that serde's CDR encoding is the wire form
//! rmw_fastrtps_cpp uses (XCDR1, little endian).
//!
//! - [`std`]: `builtin_interfaces`, `std_msgs`, `rosgraph_msgs`;
//! - [`geometry`]: `geometry_msgs`, `nav_msgs/Odometry`, `tf2_msgs/TFMessage`;
//! - [`sensor`]: `sensor_msgs` (LaserScan, Range, BatteryState, NavSatFix);
//! - [`skipper`]: `skipper_msgs` (interfaces/ros2/skipper_msgs): the goal actions and
//!   the AUV's depth and water properties.
//!
//! Texts and sequences of the messages Skipper publishes every cycle are [`Shared`]:
//! handing a publisher its copy of a kept message copies none of them, and the kept
//! message is refilled in place.

pub mod geometry;
pub mod sensor;
pub mod skipper;
pub mod std;

use ::std::fmt;
use ::std::ops::Deref;
use ::std::sync::Arc;
use serde::de::{SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A ROS type name (`geometry_msgs/msg/Twist`) of a Rust message struct.
pub trait RosType {
    /// The package (`geometry_msgs`).
    const PACKAGE: &'static str;
    /// The type in its package (`Twist`).
    const NAME: &'static str;
}

/// Implements [`RosType`] and `ros2_client::Message` for message structs.
macro_rules! ros_type {
    ($($t:ty => $pkg:literal / $name:literal),* $(,)?) => {$(
        impl $crate::msg::RosType for $t {
            const PACKAGE: &'static str = $pkg;
            const NAME: &'static str = $name;
        }
        impl ros2_client::Message for $t {}
    )*};
}
pub(crate) use ros_type;

/// A message field whose copies share one heap buffer: cloning the message that holds
/// it (a publisher takes its message by value) copies no text or sequence, and once the
/// copies are gone the kept message is refilled in place ([`Shared::make_mut`]). On the
/// wire it is the field itself.
#[derive(Debug, Default, PartialEq)]
pub struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    /// A field holding `v`.
    pub fn new(v: T) -> Self {
        Self(Arc::new(v))
    }
    /// The field to change: in place when no copy of it is left (the steady state:
    /// a publisher drops its copy once it is serialized), otherwise a fresh buffer.
    pub fn make_mut(&mut self) -> &mut T
    where
        T: Clone,
    {
        Arc::make_mut(&mut self.0)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> From<T> for Shared<T> {
    fn from(v: T) -> Self {
        Self::new(v)
    }
}

impl From<&str> for Shared<String> {
    fn from(v: &str) -> Self {
        Self::new(v.to_string())
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Self::new)
    }
}

/// A 6 x 6 covariance matrix (row major), a fixed-size array on the wire (no length).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Covariance6(pub [f64; 36]);

impl Default for Covariance6 {
    fn default() -> Self {
        Self([0.0; 36])
    }
}

impl Serialize for Covariance6 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(36)?;
        for v in &self.0 {
            t.serialize_element(v)?;
        }
        t.end()
    }
}

impl<'de> Deserialize<'de> for Covariance6 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Covariance6;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("36 float64")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Covariance6, A::Error> {
                let mut out = [0.0; 36];
                for (i, slot) in out.iter_mut().enumerate() {
                    *slot = seq
                        .next_element()?
                        .ok_or_else(|| serde::de::Error::invalid_length(i, &self))?;
                }
                Ok(Covariance6(out))
            }
        }
        d.deserialize_tuple(36, V)
    }
}
