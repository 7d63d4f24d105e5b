//! What a ROS 2 robot publishes, into its link: `nav_msgs/Odometry`,
//! `sensor_msgs/LaserScan`, `sensor_msgs/Range`, `sensor_msgs/BatteryState`,
//! `tf2_msgs/TFMessage` and `rosgraph_msgs/Clock`, each turned into the transport-neutral
//! reading of `skipper_core::vehicle::remote`. The [`Bounded`] checks here are what DDS
//! decoding leaves to check before the readings are made (texts and sequences not beyond
//! what a robot sends); the values themselves are checked by the link's feed.

use crate::cdr::{Bounded, MAX_TEXT};
use crate::msg::geometry::{Odometry, TfMessage};
use crate::msg::sensor::{BatteryState, LaserScan, Range};
use crate::msg::std::{Clock, Time};
use skipper_core::vehicle::remote::{
    BatteryReading, Link, OdometryReading, RangeReading, RobotClock, ScanReading, Transform,
};

/// The most transforms one TFMessage may carry.
pub const MAX_TRANSFORMS: usize = 4096;
/// The most ranges a scan may carry.
pub const MAX_RANGES: usize = 100_000;

fn text(name: &str, s: &str) -> Result<(), String> {
    if s.len() > MAX_TEXT {
        Err(format!(
            "{name} is {} bytes long, more than {MAX_TEXT}",
            s.len()
        ))
    } else {
        Ok(())
    }
}

impl Bounded for Odometry {
    fn check(&self) -> Result<(), String> {
        text("frame_id", &self.header.frame_id)?;
        text("child_frame_id", &self.child_frame_id)
    }
}

impl Bounded for LaserScan {
    fn check(&self) -> Result<(), String> {
        text("frame_id", &self.header.frame_id)?;
        if self.ranges.len() > MAX_RANGES || self.intensities.len() > MAX_RANGES {
            return Err(format!(
                "{} ranges and {} intensities, more than {MAX_RANGES}",
                self.ranges.len(),
                self.intensities.len()
            ));
        }
        Ok(())
    }
}

impl Bounded for Range {
    fn check(&self) -> Result<(), String> {
        text("frame_id", &self.header.frame_id)
    }
}

impl Bounded for BatteryState {
    fn check(&self) -> Result<(), String> {
        text("frame_id", &self.header.frame_id)?;
        text("location", &self.location)?;
        text("serial_number", &self.serial_number)
    }
}

impl Bounded for TfMessage {
    fn check(&self) -> Result<(), String> {
        if self.transforms.len() > MAX_TRANSFORMS {
            return Err(format!(
                "{} transforms, more than {MAX_TRANSFORMS}",
                self.transforms.len()
            ));
        }
        for t in self.transforms.iter() {
            text("frame_id", &t.header.frame_id)?;
            text("child_frame_id", &t.child_frame_id)?;
        }
        Ok(())
    }
}

impl Bounded for Clock {
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// A stamp in seconds.
pub fn seconds(t: &Time) -> f64 {
    t.as_secs_f64()
}

/// An odometry message into `link`.
pub fn odometry(link: &Link, m: &Odometry) {
    let p = &m.pose.pose;
    let t = &m.twist.twist;
    let r = OdometryReading {
        stamp: seconds(&m.header.stamp),
        x: p.position.x,
        y: p.position.y,
        yaw: p.orientation.yaw(),
        linear: t.linear.x,
        angular: t.angular.z,
    };
    link.feed().odometry(r, &m.child_frame_id);
}

/// A scan into `link`.
pub fn scan(link: &Link, m: &LaserScan) {
    link.feed().scan(&ScanReading {
        stamp: seconds(&m.header.stamp),
        frame: &m.header.frame_id,
        angle_min: f64::from(m.angle_min),
        angle_max: f64::from(m.angle_max),
        angle_increment: f64::from(m.angle_increment),
        range_min: f64::from(m.range_min),
        range_max: f64::from(m.range_max),
        ranges: &m.ranges,
    });
}

/// A range reading from `topic` into `link`.
pub fn range(link: &Link, topic: &str, m: &Range) {
    link.feed().range(&RangeReading {
        topic,
        frame: &m.header.frame_id,
        field_of_view: f64::from(m.field_of_view),
        min_range: f64::from(m.min_range),
        max_range: f64::from(m.max_range),
        range: f64::from(m.range),
    });
}

/// A battery state into `link`.
pub fn battery(link: &Link, m: &BatteryState) {
    link.feed().battery(BatteryReading {
        voltage: f64::from(m.voltage),
        percentage: f64::from(m.percentage),
    });
}

/// Transforms into `link`.
pub fn transforms(link: &Link, m: &TfMessage) {
    let mut feed = link.feed();
    for t in m.transforms.iter() {
        let (v, q) = (t.transform.translation, t.transform.rotation);
        feed.transform(
            &t.header.frame_id,
            &t.child_frame_id,
            Transform {
                translation: [v.x, v.y, v.z],
                rotation: [q.x, q.y, q.z, q.w],
            },
        );
    }
}

/// A `/clock` message into the robots' clock.
pub fn clock(c: &RobotClock, m: &Clock) {
    c.tick(seconds(&m.clock));
}
