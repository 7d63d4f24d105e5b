//! Robot models: the motion limits that make one ground robot drive unlike another.
//!
//! | model | top speed | turn rate | acceleration | turn acceleration | source |
//! | --- | --- | --- | --- | --- | --- |
//! | `p3dx` (and `p3dx-sh`, `p2dx`, `p2de`, `p3at`, `p3at-sh`) | 1.2 m/s (firmware 2.2) | 300 °/s (firmware 500) | 0.3 m/s² | 100 °/s² | ARIA's P3-DX parameters, P2OS firmware defaults |
//! | `splinter` | 0.5 m/s | 180 °/s | 2.1 m/s² | 750 °/s² | the Splinter robot of Splinter Soar (SPS) |
//!
//! The Splinter's speeds are the physical limits the SPS input-link spec gives
//! (`set-velocity`: ±0.5 m/s, ±180 °/s; its gamepad drove at about 0.5 m/s and 189 °/s).
//! Its accelerations come from the DC motor model of the SPS simulator (wheel diameter
//! 0.25 m, baseline 0.35 m, torque constant 3 N·m/A, back-EMF 2 V·s/rad, winding
//! resistance 5.5 Ω, inertia 0.5 kg·m², drag 1 N·m·s/rad): a first-order response with
//! time constant J / (drag + kt·ke / R) = 0.5 / (1 + 6 / 5.5) ≈ 0.24 s. A constant rate
//! that reaches the top speed in one time constant is 0.5 / 0.24 ≈ 2.1 m/s² and
//! 180 / 0.24 ≈ 750 °/s². The Splinter is a small robot on the Pioneer's body otherwise
//! (sensors, footprint): only the way it moves differs.

use super::params;

/// A model's motion limits: operating and absolute (firmware) maxima.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MotionModel {
    /// Operating translational velocity limit (m/s).
    pub max_velocity: f64,
    /// Operating rotational velocity limit (rad/s).
    pub max_rot_velocity: f64,
    /// The most a client may raise the translational limit to (m/s).
    pub abs_max_velocity: f64,
    /// The most a client may raise the rotational limit to (rad/s).
    pub abs_max_rot_velocity: f64,
    /// Translational acceleration and deceleration (m/s²).
    pub accel: f64,
    /// Rotational acceleration and deceleration (rad/s²).
    pub rot_accel: f64,
}

/// The Pioneer 3-DX (the default model).
pub const P3DX: MotionModel = MotionModel {
    max_velocity: params::MAX_VELOCITY,
    max_rot_velocity: params::MAX_ROT_VELOCITY_DEG * std::f64::consts::PI / 180.0,
    abs_max_velocity: params::ABS_MAX_VELOCITY,
    abs_max_rot_velocity: params::ABS_MAX_ROT_VELOCITY_DEG * std::f64::consts::PI / 180.0,
    accel: params::TRANS_ACCEL,
    rot_accel: params::ROT_ACCEL_DEG * std::f64::consts::PI / 180.0,
};

/// The Splinter robot of Splinter Soar (see the module documentation for the numbers).
pub const SPLINTER: MotionModel = MotionModel {
    max_velocity: 0.5,
    max_rot_velocity: std::f64::consts::PI,
    abs_max_velocity: 0.5,
    abs_max_rot_velocity: std::f64::consts::PI,
    accel: 2.1,
    rot_accel: 750.0 * std::f64::consts::PI / 180.0,
};

/// Every model name a world file or `--model` accepts.
pub const NAMES: [&str; 7] = [
    "p3dx", "p3dx-sh", "p2dx", "p2de", "p3at", "p3at-sh", "splinter",
];

/// The motion model of a model name, or `None` for a name we do not know.
pub fn motion_model(name: &str) -> Option<MotionModel> {
    match name {
        "splinter" => Some(SPLINTER),
        n if NAMES.contains(&n) => Some(P3DX),
        _ => None,
    }
}

/// "expected p3dx, p3dx-sh, ... or splinter", for error messages.
pub fn expected() -> String {
    let (last, rest) = NAMES.split_last().unwrap_or((&"p3dx", &[]));
    format!("expected {} or {last}", rest.join(", "))
}

/// `--model [ROBOT=]MODEL`: the model of every simulated robot, or of the one named.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelChoice {
    /// The robot it is for (`None`: every robot).
    pub robot: Option<String>,
    /// A model name (`p3dx`, `splinter`, ...).
    pub model: String,
}

impl std::str::FromStr for ModelChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (robot, model) = match s.split_once('=') {
            Some((r, m)) => (Some(r.to_string()), m),
            None => (None, s),
        };
        if motion_model(model).is_none() {
            return Err(format!("unknown model `{model}`; {}", expected()));
        }
        Ok(Self {
            robot,
            model: model.to_string(),
        })
    }
}

/// Give the robots of `spec` the models chosen, in order (a later choice wins); a robot
/// name the world does not have is an error.
pub fn apply(spec: &mut crate::spec::WorldSpec, models: &[ModelChoice]) -> Result<(), String> {
    for m in models {
        let mut found = false;
        for r in &mut spec.robots {
            if m.robot.as_deref().is_none_or(|n| n == r.name) {
                r.model = m.model.clone();
                found = true;
            }
        }
        if let (Some(name), false) = (&m.robot, found) {
            let names: Vec<_> = spec.robots.iter().map(|r| r.name.as_str()).collect();
            return Err(format!(
                "--model {name}={}: the world has no robot `{name}` (it has {})",
                m.model,
                names.join(", ")
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_read_and_apply_to_every_robot_or_the_one_named() {
        let mut spec = crate::spec::WorldSpec::empty_room();
        let all: ModelChoice = "splinter".parse().unwrap();
        assert_eq!(all.robot, None);
        apply(&mut spec, &[all]).unwrap();
        assert!(spec.robots.iter().all(|r| r.model == "splinter"));
        let name = spec.robots[0].name.clone();
        let one: ModelChoice = format!("{name}=p3at").parse().unwrap();
        apply(&mut spec, &[one]).unwrap();
        assert_eq!(spec.robots[0].model, "p3at");
        let e = "roomba".parse::<ModelChoice>().unwrap_err();
        assert!(
            e.starts_with("unknown model `roomba`; expected p3dx"),
            "{e}"
        );
        let ghost: ModelChoice = "ghost=p3dx".parse().unwrap();
        let e = apply(&mut spec, &[ghost]).unwrap_err();
        assert!(e.contains("the world has no robot `ghost`"), "{e}");
    }

    #[test]
    fn every_name_has_a_model_and_splinter_is_slower() {
        for n in NAMES {
            assert!(motion_model(n).is_some(), "{n}");
        }
        assert_eq!(motion_model("roomba"), None);
        let s = motion_model("splinter").unwrap();
        assert!(s.max_velocity < P3DX.max_velocity);
        assert_eq!(motion_model("p3at"), Some(P3DX));
        assert!(expected().ends_with("p3at-sh or splinter"));
    }
}
