//! `NS/cmd_vel` (`geometry_msgs/Twist`): each command goes into the robot's velocity
//! inbox, stamped with the wall clock (ROS peers live in it): `linear.x` forward,
//! `angular.z` turn rate, `linear.z` climb. The goal runner's velocity override obeys it
//! while fresh.

use skipper_core::velocity::{VelocityCommand, VelocityInbox};
use skipper_ros1_wire::msg::common::Twist;
use skipper_ros1_wire::node::Subscriber;
use skipper_ros1_wire::topics::subscribe;
use skipper_ros1_wire::{Node, RosError};
use std::time::Instant;

/// Subscribe `NS/cmd_vel` into `inbox`.
pub fn subscribe_cmd_vel(
    node: &Node,
    ns: &str,
    inbox: VelocityInbox,
) -> Result<Subscriber, RosError> {
    subscribe::<Twist>(node, &format!("{ns}/cmd_vel"), move |t, _| {
        let v = VelocityCommand {
            forward: t.linear.x,
            turn_rate: t.angular.z,
            climb: t.linear.z,
        };
        inbox.put(v, Instant::now())
    })
}
