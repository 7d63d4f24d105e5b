//! What the ROS 2 graph says about a robot's topics while it is awaited, from DDS
//! discovery: which of its topics have a publisher, which `sensor_msgs/Range` topics it
//! has (`sonar*`, `range*`), and what type its `cmd_vel` reader takes.

use ros2_client::dds::rustdds::DomainParticipant;

/// The DDS name of ROS topic `topic` (`/bot/scan` → `rt/bot/scan`).
pub fn dds_name(topic: &str) -> String {
    format!("rt{topic}")
}

/// The DDS type name of a ROS type (`sensor_msgs`, `Range` →
/// `sensor_msgs::msg::dds_::Range_`).
pub fn dds_type(package: &str, name: &str) -> String {
    format!("{package}::msg::dds_::{name}_")
}

/// A snapshot of the writers and readers discovered so far.
pub struct Graph {
    writers: Vec<(String, String)>,
    readers: Vec<(String, String)>,
}

impl Graph {
    /// What `participant` has discovered.
    pub fn of(participant: &DomainParticipant) -> Self {
        Self {
            writers: participant
                .discovered_writers()
                .into_iter()
                .map(|w| {
                    let t = w.publication_topic_data;
                    (t.topic_name, t.type_name)
                })
                .collect(),
            readers: participant
                .discovered_readers()
                .into_iter()
                .map(|r| {
                    let t = r.subscription_topic_data;
                    (t.topic_name().clone(), t.type_name().clone())
                })
                .collect(),
        }
    }

    /// Does ROS topic `topic` have a publisher (not this process's)?
    pub fn has_publisher(&self, topic: &str) -> bool {
        let n = dds_name(topic);
        self.writers.iter().any(|(t, _)| *t == n)
    }

    /// The `sensor_msgs/Range` topics published under namespace prefix `ns` (`/bot`, or
    /// empty for the root) whose last part starts with `sonar` or `range`, sorted.
    pub fn range_topics(&self, ns: &str) -> Vec<String> {
        let prefix = dds_name(&format!("{ns}/"));
        let ty = dds_type("sensor_msgs", "Range");
        let mut v: Vec<String> = self
            .writers
            .iter()
            .filter(|(_, t)| *t == ty)
            .filter_map(|(name, _)| {
                let rest = name.strip_prefix(&prefix)?;
                let sensor = match rest.split_once('/') {
                    // `sonar`, `sonar_3`, `range_front`
                    None => rest.starts_with("sonar") || rest.starts_with("range"),
                    // `sonar/left`, `ranges/front`
                    Some((dir, leaf)) => {
                        !leaf.contains('/')
                            && (dir.starts_with("sonar") || dir.starts_with("range"))
                    }
                };
                sensor.then(|| format!("{ns}/{rest}"))
            })
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// The type the readers of ROS topic `topic` take: `Some(true)` if one takes
    /// `geometry_msgs/TwistStamped` and none `Twist`, `Some(false)` if one takes `Twist`,
    /// `None` if there is no reader.
    pub fn takes_stamped(&self, topic: &str) -> Option<bool> {
        let n = dds_name(topic);
        let types: Vec<&str> = self
            .readers
            .iter()
            .filter(|(t, _)| *t == n)
            .map(|(_, ty)| ty.as_str())
            .collect();
        if types.contains(&dds_type("geometry_msgs", "Twist").as_str()) {
            Some(false)
        } else if types.contains(&dds_type("geometry_msgs", "TwistStamped").as_str()) {
            Some(true)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph() -> Graph {
        let w = |t: &str, ty: &str| (t.to_string(), ty.to_string());
        let range = dds_type("sensor_msgs", "Range");
        Graph {
            writers: vec![
                w("rt/bot/sonar", &range),
                w("rt/bot/range_front", &range),
                w("rt/bot/sonar/left", &range),
                w("rt/bot/sonar/a/b", &range),
                w("rt/bot/scan", &dds_type("sensor_msgs", "LaserScan")),
                w("rt/other/sonar", &range),
                w("rt/bot/bumper", &range),
            ],
            readers: vec![
                w("rt/bot/cmd_vel", &dds_type("geometry_msgs", "TwistStamped")),
                w("rt/cmd_vel", &dds_type("geometry_msgs", "Twist")),
            ],
        }
    }

    #[test]
    fn range_topics_and_publishers_are_found_under_the_namespace() {
        let g = graph();
        assert_eq!(
            g.range_topics("/bot"),
            ["/bot/range_front", "/bot/sonar", "/bot/sonar/left"]
        );
        assert_eq!(g.range_topics(""), Vec::<String>::new());
        assert!(g.has_publisher("/bot/scan") && !g.has_publisher("/bot/odom"));
    }

    #[test]
    fn the_cmd_vel_type_is_the_readers() {
        let g = graph();
        assert_eq!(g.takes_stamped("/bot/cmd_vel"), Some(true));
        assert_eq!(g.takes_stamped("/cmd_vel"), Some(false));
        assert_eq!(g.takes_stamped("/x/cmd_vel"), None);
    }
}
