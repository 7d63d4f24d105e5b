//! Quality of service as rclpy's defaults have it, so that rclpy nodes with default
//! settings match Skipper's topics and actions:
//!
//! - topics: reliable, volatile, keep last 10 (`qos_profile_default`); a reliable
//!   writer also serves best-effort readers (rclpy's `/clock` subscription,
//!   `qos_profile_sensor_data`);
//! - `/tf_static`: reliable, transient local, keep last 1, so late joiners get it;
//! - action services and feedback: reliable, volatile, keep last 10; action status:
//!   reliable, transient local, keep last 1 (`qos_profile_action_status_default`).

use ros2_client::action::ActionServerQosPolicies;
use ros2_client::qos::{Durability, History, Reliability, WhenFull};
use ros2_client::QosProfile;
use std::time::Duration;

/// How long a reliable write waits for room in a full send window before it is
/// dropped (a slow reader must not stall the cycle).
const WRITE_WAIT: Duration = Duration::from_millis(5);

fn profile(durability: Durability, depth: usize) -> QosProfile {
    QosProfile::publisher_default()
        .reliability(Reliability::Reliable {
            when_full: WhenFull::Wait(WRITE_WAIT),
        })
        .durability(durability)
        .history(History::KeepLast { depth })
}

/// rclpy's default: reliable, volatile, keep last 10.
pub fn default() -> QosProfile {
    profile(Durability::Volatile, 10)
}

/// `/tf_static`, action status: reliable, transient local, keep last 1.
pub fn latched() -> QosProfile {
    profile(Durability::TransientLocal, 1)
}

/// `/tf`: reliable, volatile, keep last 100 (tf2's broadcaster).
pub fn tf() -> QosProfile {
    profile(Durability::Volatile, 100)
}

/// An action server's services and topics.
pub fn action() -> ActionServerQosPolicies {
    ActionServerQosPolicies {
        goal_service: default(),
        result_service: default(),
        cancel_service: default(),
        feedback_publisher: default(),
        status_publisher: latched(),
    }
}
