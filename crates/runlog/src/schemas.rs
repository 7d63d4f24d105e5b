//! JSON Schemas of the run log's topics.

/// `/signals`: the signals of one robot that changed this cycle.
pub const SIGNALS: &str = r#"{
  "title": "skipper.Signals",
  "description": "The signals of one robot whose logged value changed in this cycle (all of them in the first cycle), floats rounded to what the sensors resolve (docs/run-log.md); laser ranges go to /scan instead.",
  "type": "object",
  "properties": {
    "robot": {"type": "string", "description": "robot name"},
    "t": {"type": "number", "description": "simulated time (s)"},
    "values": {"type": "object", "description": "signal name to value (number, boolean, integer, string, {lat, lon} or null when invalid)"}
  },
  "required": ["robot", "t", "values"]
}"#;

/// `/actuation`: what the controller asked of one robot, when that changed.
pub const ACTUATION: &str = r#"{
  "title": "skipper.Actuation",
  "description": "What the controller asked of one robot, written when it differs from the request last written and in every cycle with a say or reset_odometry; it holds until the next message. Only the parts it set; setpoints to 1e-4.",
  "type": "object",
  "properties": {
    "robot": {"type": "string"},
    "t": {"type": "number"},
    "drive": {"type": "object"},
    "limits": {"type": "object"},
    "motors_enabled": {"type": "boolean"},
    "reset_odometry": {"type": "boolean"},
    "gripper": {},
    "digital_out": {"type": "array"},
    "analog_select": {"type": "integer"},
    "sonar_enabled": {"type": "boolean"},
    "bump_stall": {"type": "integer"},
    "say": {"type": "array", "items": {"type": "string"}, "description": "utterances, one per say, in order"},
    "auv": {"type": "object"}
  },
  "required": ["robot", "t"]
}"#;

/// `/events`: one event.
pub const EVENT: &str = r#"{
  "title": "skipper.Event",
  "description": "Something that happened: speech, collision, command status, state transition, goal, estop, controller status.",
  "type": "object",
  "properties": {
    "robot": {"type": "string"},
    "t": {"type": "number"},
    "kind": {"type": "string"},
    "data": {}
  },
  "required": ["robot", "t", "kind", "data"]
}"#;

/// `/controller`: the engine's state, when it changed.
pub const CONTROLLER: &str = r#"{
  "title": "skipper.ControllerState",
  "description": "The state of a robot's controller (XABSL activation path, mission item states, link tree diff, ...), written when it changes.",
  "type": "object",
  "properties": {
    "robot": {"type": "string"},
    "t": {"type": "number"},
    "controller": {"type": "string"},
    "state": {}
  },
  "required": ["robot", "t", "controller", "state"]
}"#;

/// `/pose`: Foxglove's PoseInFrame, plus the robot's name and the time in seconds.
pub const POSE: &str = r#"{
  "title": "foxglove.PoseInFrame",
  "description": "A timestamped pose for an object or reference frame in 3D space",
  "type": "object",
  "properties": {
    "timestamp": {"type": "object", "title": "time", "properties": {"sec": {"type": "integer", "minimum": 0}, "nsec": {"type": "integer", "minimum": 0, "maximum": 999999999}}},
    "frame_id": {"type": "string"},
    "pose": {"type": "object", "title": "foxglove.Pose", "properties": {
      "position": {"type": "object", "title": "foxglove.Vector3", "properties": {"x": {"type": "number"}, "y": {"type": "number"}, "z": {"type": "number"}}},
      "orientation": {"type": "object", "title": "foxglove.Quaternion", "properties": {"x": {"type": "number"}, "y": {"type": "number"}, "z": {"type": "number"}, "w": {"type": "number"}}}
    }},
    "robot": {"type": "string"},
    "t": {"type": "number"}
  }
}"#;

/// `/world`: the world, once at the start.
pub const WORLD: &str = r#"{
  "title": "skipper.World",
  "description": "The world of the run (walls, goals, landmarks, coastline...) and its robots, written once at the start.",
  "type": "object",
  "properties": {
    "t": {"type": "number"},
    "world": {"type": "object"},
    "robots": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "kind": {"type": "string"}, "model": {"type": "string"}, "sensors": {"type": "object", "description": "What the robot carries, as its vehicle describes it (m, rad, in the robot frame): laser (x, angle_min, angle_increment, range_min, range_max) or null, sonar (x, y, yaw, field_of_view, min_range, max_range each, in signal order), bumper_segments."}}}},
    "period_s": {"type": "number"}
  },
  "required": ["t", "world", "robots"]
}"#;

/// `/objects`: balls and cans, when they move.
pub const OBJECTS: &str = r#"{
  "title": "skipper.Objects",
  "description": "The positions of the world's movable objects (balls, cans), written when they change.",
  "type": "object",
  "properties": {
    "t": {"type": "number"},
    "objects": {"type": "array"}
  },
  "required": ["t", "objects"]
}"#;

/// `/summary`: the run's summary, once at the end.
pub const SUMMARY: &str = r#"{
  "title": "skipper.Summary",
  "description": "The run's summary, as --summary-json writes it but without wall_time_s (so logs of equal runs are byte-identical).",
  "type": "object",
  "properties": {
    "outcome": {"type": "string", "enum": ["finished", "time_limit", "aborted", "failed", "interrupted"]},
    "sim_time_s": {"type": "number"},
    "cycles": {"type": "integer"},
    "distance_m": {"type": "number"},
    "collisions": {"type": "integer"},
    "robots": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["outcome", "sim_time_s", "cycles", "distance_m", "collisions"]
}"#;

/// `/scan`: Foxglove's LaserScan, plus the robot's name and the time in seconds.
pub const SCAN: &str = r#"{
  "title": "foxglove.LaserScan",
  "description": "A single scan from a planar laser range-finder (ranges in m, to the millimetre)",
  "type": "object",
  "properties": {
    "timestamp": {"type": "object", "title": "time", "properties": {"sec": {"type": "integer", "minimum": 0}, "nsec": {"type": "integer", "minimum": 0, "maximum": 999999999}}},
    "frame_id": {"type": "string"},
    "pose": {"type": "object", "title": "foxglove.Pose", "properties": {
      "position": {"type": "object", "title": "foxglove.Vector3", "properties": {"x": {"type": "number"}, "y": {"type": "number"}, "z": {"type": "number"}}},
      "orientation": {"type": "object", "title": "foxglove.Quaternion", "properties": {"x": {"type": "number"}, "y": {"type": "number"}, "z": {"type": "number"}, "w": {"type": "number"}}}
    }},
    "start_angle": {"type": "number"},
    "end_angle": {"type": "number"},
    "ranges": {"type": "array", "items": {"type": "number"}},
    "intensities": {"type": "array", "items": {"type": "number"}},
    "robot": {"type": "string"},
    "t": {"type": "number"}
  }
}"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_is_json() {
        for (name, text) in [
            ("signals", SIGNALS),
            ("actuation", ACTUATION),
            ("event", EVENT),
            ("controller", CONTROLLER),
            ("pose", POSE),
            ("world", WORLD),
            ("objects", OBJECTS),
            ("summary", SUMMARY),
            ("scan", SCAN),
        ] {
            let v: serde_json::Value =
                serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(v.get("properties").is_some(), "{name}");
        }
    }
}
