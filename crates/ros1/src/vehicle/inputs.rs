//! What a ROS 1 robot publishes, into its link: `nav_msgs/Odometry`,
//! `sensor_msgs/LaserScan`, `sensor_msgs/Range`, `sensor_msgs/BatteryState`,
//! `tf2_msgs/TFMessage` and `rosgraph_msgs/Clock`, each turned into the transport-neutral
//! reading of `skipper_core::vehicle::remote`, whose feed checks the values. (TCPROS
//! frames that do not decode are counted and skipped by the node.)

use skipper_core::vehicle::remote::{
    BatteryReading, Link, OdometryReading, RangeReading, RobotClock, ScanReading, Transform,
};
use skipper_ros1_wire::msg::common::{Odometry, Quaternion};
use skipper_ros1_wire::msg::sensor::{BatteryState, Clock, LaserScan, Range, TfMessage};

fn yaw(q: &Quaternion) -> f64 {
    (2.0 * (q.w * q.z + q.x * q.y)).atan2(1.0 - 2.0 * (q.y * q.y + q.z * q.z))
}

/// An odometry message into `link`.
pub fn odometry(link: &Link, m: &Odometry) {
    let p = &m.pose.pose;
    let t = &m.twist.twist;
    let r = OdometryReading {
        stamp: m.header.stamp.as_secs_f64(),
        x: p.position.x,
        y: p.position.y,
        yaw: yaw(&p.orientation),
        linear: t.linear.x,
        angular: t.angular.z,
    };
    link.feed().odometry(r, &m.child_frame_id);
}

/// A scan into `link`.
pub fn scan(link: &Link, m: &LaserScan) {
    link.feed().scan(&ScanReading {
        stamp: m.header.stamp.as_secs_f64(),
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
    for t in &m.transforms {
        let (v, q) = (&t.transform.translation, &t.transform.rotation);
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
    c.tick(m.clock.as_secs_f64());
}
