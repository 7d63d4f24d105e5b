//! `NS/move_base_simple/goal` (`geometry_msgs/PoseStamped`, what rviz's "2D Nav Goal"
//! publishes): each pose becomes a goal of the robot's goto kind, to the pose's position,
//! replacing the goal before it as the goal layer's single-goal policy says. A pose that
//! cannot be a goal (a frame other than the robot's odometry frame or `map`) is
//! refused with a warning; `NS/move_base` ([`crate::goals`]) is the action form.

use skipper_core::goals::{GoalKind, GoalPort, Record};
use skipper_ros1_wire::msg::common::PoseStamped;
use skipper_ros1_wire::node::Subscriber;
use skipper_ros1_wire::topics::subscribe;
use skipper_ros1_wire::{Node, RosError};
use std::sync::Arc;

/// Subscribe `NS/move_base_simple/goal` into `port`'s goto `kind` (`x`, `y`).
pub fn subscribe_simple_goal(
    node: &Node,
    ns: &str,
    kind: &'static GoalKind,
    port: Arc<dyn GoalPort>,
) -> Result<Subscriber, RosError> {
    let frames = [
        String::new(),
        "odom".into(),
        "map".into(),
        format!("{ns}/odom"),
        node.resolve(&format!("{ns}/odom"))?,
    ];
    let topic = format!("{ns}/move_base_simple/goal");
    let t2 = topic.clone();
    subscribe::<PoseStamped>(node, &topic, move |p, from| {
        if !frames.contains(&p.header.frame_id) {
            tracing::warn!(
                "{t2}: a goal from {from} in frame `{}` refused (this robot takes {})",
                p.header.frame_id,
                frames[1..].join(", ")
            );
            return;
        }
        let goal = Record::defaults(kind.goal)
            .with("x", p.pose.position.x)
            .with("y", p.pose.position.y);
        if let Err(e) = port.send(kind.name, goal) {
            tracing::warn!("{t2}: {e}");
        }
    })
}
