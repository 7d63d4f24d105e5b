//! The description of a ground world, as loaded from a world file or a `.map` file:
//! walls, objects, robots and their start poses, named goals and landmarks, settings, and
//! where on the globe the world's origin lies.

use crate::error::Location;
use crate::spatial::Segment;
use skipper_core::{Pose2, Vec2};

/// A movable object the gripper can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectKind {
    /// A ball (rolls when pushed).
    Ball,
    /// A can (slides a little when pushed).
    Can,
}

impl ObjectKind {
    /// Default radius (m): a tennis ball, a soda can.
    pub fn default_radius(self) -> f64 {
        match self {
            ObjectKind::Ball => 0.035,
            ObjectKind::Can => 0.033,
        }
    }
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Ball => "ball",
            ObjectKind::Can => "can",
        }
    }
}

/// A wall segment with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct WallSpec {
    /// The segment (m).
    pub segment: Segment,
    /// Where it came from.
    pub loc: Option<Location>,
}

/// An object in the world.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectSpec {
    /// Ball or can.
    pub kind: ObjectKind,
    /// Position (m).
    pub pos: Vec2,
    /// Radius (m).
    pub radius: f64,
    /// Where it came from.
    pub loc: Option<Location>,
}

/// A robot and its options.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotSpec {
    /// Unique name.
    pub name: String,
    /// Start pose.
    pub pose: Pose2,
    /// Model (`p3dx`).
    pub model: String,
    /// Digital inputs (byte).
    pub digin: u8,
    /// Analog port values (10-bit, 0..1023).
    pub analog: [u16; 8],
    /// Battery voltage when full (V).
    pub battery: f64,
    /// Has a gripper.
    pub gripper: bool,
    /// Has a laser.
    pub laser: bool,
    /// Where it came from.
    pub loc: Option<Location>,
}

impl RobotSpec {
    /// A P3-DX with the default accessories at `pose`.
    pub fn new(name: impl Into<String>, pose: Pose2) -> Self {
        Self {
            name: name.into(),
            pose,
            model: "p3dx".into(),
            digin: 0xFF,
            analog: [0; 8],
            battery: 13.0,
            gripper: true,
            laser: true,
            loc: None,
        }
    }
}

/// A named point: a `.map` goal, a landmark.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaceSpec {
    /// Name.
    pub name: String,
    /// Position (m).
    pub pos: Vec2,
    /// Heading (rad), if given.
    pub heading: Option<f64>,
}

/// Where a world's origin lies on the globe (a `.map` file's `OriginLatLongAlt`): the
/// world's x axis points east, its y axis north.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GeoOrigin {
    /// Latitude (deg, WGS84, north positive).
    pub latitude: f64,
    /// Longitude (deg, WGS84, east positive).
    pub longitude: f64,
    /// Altitude (m above the WGS84 ellipsoid).
    pub altitude: f64,
}

impl GeoOrigin {
    /// An origin, if the latitude is within ±90°, the longitude within ±180° and all
    /// three are finite.
    pub fn new(latitude: f64, longitude: f64, altitude: f64) -> Result<Self, GeoOriginError> {
        if !(latitude.is_finite() && (-90.0..=90.0).contains(&latitude)) {
            return Err(GeoOriginError::Latitude(latitude));
        }
        if !(longitude.is_finite() && (-180.0..=180.0).contains(&longitude)) {
            return Err(GeoOriginError::Longitude(longitude));
        }
        if !altitude.is_finite() {
            return Err(GeoOriginError::Altitude(altitude));
        }
        Ok(Self {
            latitude,
            longitude,
            altitude,
        })
    }
}

/// Which value of a [`GeoOrigin`] is out of range.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum GeoOriginError {
    /// The latitude is not within ±90°.
    #[error("the latitude must be within ±90 degrees, found {0}")]
    Latitude(f64),
    /// The longitude is not within ±180°.
    #[error("the longitude must be within ±180 degrees, found {0}")]
    Longitude(f64),
    /// The altitude is not a finite number.
    #[error("the altitude must be a number, found {0}")]
    Altitude(f64),
}

impl GeoOriginError {
    /// Which value it is: 0 latitude, 1 longitude, 2 altitude (their order in a file).
    pub fn position(&self) -> usize {
        match self {
            GeoOriginError::Latitude(_) => 0,
            GeoOriginError::Longitude(_) => 1,
            GeoOriginError::Altitude(_) => 2,
        }
    }
}

/// The default odometry noise: MobileSim's odometry error for its Pioneer models (±0.75%
/// of each motion, drawn anew every update), here the standard deviation of each wheel's
/// travel in a physics step.
pub const ODOMETRY_NOISE: f64 = 0.0075;
/// The default sonar noise (m): MobileSim's range error for the Pioneer sonar ring
/// (±0.5 mm).
pub const SONAR_NOISE: f64 = 0.0005;
/// The default laser noise (m): MobileSim's range error for the SICK LMS-200 (±5 mm).
pub const LASER_NOISE: f64 = 0.005;

/// Simulation settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Laser range (m).
    pub laser_range: f64,
    /// Sonar range (m).
    pub sonar_range: f64,
    /// Seconds between two pings of one sonar array: the front (0-7) and rear (8-15)
    /// arrays each fire their transducers in turn, one every `sonar_period` (the P3
    /// firmware's 40 ms); 0 fires all 16 every cycle.
    pub sonar_period: f64,
    /// Odometry noise: standard deviation of each wheel's distance in a physics step, as
    /// a fraction of it ([`ODOMETRY_NOISE`] by default).
    pub odometry_noise: f64,
    /// Sonar noise: standard deviation of a range (m; [`SONAR_NOISE`] by default).
    pub sonar_noise: f64,
    /// Laser noise: standard deviation of a range (m; [`LASER_NOISE`] by default).
    pub laser_noise: f64,
    /// Air temperature (°C).
    pub temperature: f64,
    /// Grid cell for spatial queries (m).
    pub grid_cell: f64,
    /// Camera field of view for ball and landmark percepts (deg, full width).
    pub camera_fov: f64,
    /// Camera range (m).
    pub camera_range: f64,
}

impl Settings {
    /// No sensor or odometry noise: every run of the same world is the same whatever the
    /// seed (`skipper run --exact`).
    pub fn exact(&mut self) {
        self.odometry_noise = 0.0;
        self.sonar_noise = 0.0;
        self.laser_noise = 0.0;
    }

    /// Whether any noise is on.
    pub fn noisy(&self) -> bool {
        self.odometry_noise > 0.0 || self.sonar_noise > 0.0 || self.laser_noise > 0.0
    }

    /// The noise as the run summary says it: `odometry 0.75%, sonar 0.5 mm, laser 5 mm`,
    /// or `none` when there is none.
    pub fn noise_summary(&self) -> String {
        if !self.noisy() {
            return "none".into();
        }
        format!(
            "odometry {}%, sonar {} mm, laser {} mm",
            short(self.odometry_noise * 100.0),
            short(self.sonar_noise * 1000.0),
            short(self.laser_noise * 1000.0)
        )
    }
}

/// A number with at most 4 decimals and no trailing zeros.
fn short(x: f64) -> String {
    let s = format!("{x:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            laser_range: 8.0,
            sonar_range: 5.0,
            sonar_period: 0.040,
            odometry_noise: ODOMETRY_NOISE,
            sonar_noise: SONAR_NOISE,
            laser_noise: LASER_NOISE,
            temperature: 20.0,
            grid_cell: 1.0,
            camera_fov: 90.0,
            camera_range: 8.0,
        }
    }
}

/// A whole ground world.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WorldSpec {
    /// Name.
    pub name: String,
    /// The file it was read from (empty for a world built in code): errors that belong to
    /// no line of it name it.
    pub file: String,
    /// Walls.
    pub walls: Vec<WallSpec>,
    /// Balls and cans.
    pub objects: Vec<ObjectSpec>,
    /// Robots.
    pub robots: Vec<RobotSpec>,
    /// Named goals (from `.map` cairns or `goal` lines).
    pub goals: Vec<PlaceSpec>,
    /// Where the goals a world file names were written: (index into `goals`, where).
    pub goal_locations: Vec<(usize, Location)>,
    /// Landmarks the robots perceive (distance and bearing).
    pub landmarks: Vec<PlaceSpec>,
    /// Points of a `.map` DATA section (drawn, not obstacles).
    pub points: Vec<Vec2>,
    /// Settings.
    pub settings: Settings,
    /// Where the origin lies on the globe, if the world says (the simulated GPS).
    pub origin: Option<GeoOrigin>,
}

impl WorldSpec {
    /// The default world: an empty 25 m × 25 m room with one robot in the middle.
    pub fn empty_room() -> Self {
        let mut w = WorldSpec {
            name: "empty".into(),
            ..Default::default()
        };
        w.add_box(Vec2::default(), 25.0, 25.0, 0.0, None);
        w.robots.push(RobotSpec::new("robot1", Pose2::default()));
        w
    }

    /// Add the four walls of a rectangle centred at `c` (m), turned by `yaw` (rad).
    pub fn add_box(&mut self, c: Vec2, width: f64, height: f64, yaw: f64, loc: Option<Location>) {
        let (hw, hh) = (width / 2.0, height / 2.0);
        let corners = [
            Vec2::new(-hw, -hh),
            Vec2::new(hw, -hh),
            Vec2::new(hw, hh),
            Vec2::new(-hw, hh),
        ]
        .map(|p| c + p.rotate(yaw));
        for i in 0..4 {
            self.walls.push(WallSpec {
                segment: Segment {
                    a: corners[i],
                    b: corners[(i + 1) % 4],
                },
                loc: loc.clone(),
            });
        }
    }

    /// The bounding box of walls, robots and objects.
    pub fn bounds(&self) -> (Vec2, Vec2) {
        let mut lo = Vec2::new(f64::INFINITY, f64::INFINITY);
        let mut hi = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        let mut grow = |p: Vec2| {
            lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
        };
        for w in &self.walls {
            grow(w.segment.a);
            grow(w.segment.b);
        }
        for r in &self.robots {
            grow(r.pose.position());
        }
        for o in &self.objects {
            grow(o.pos);
        }
        if !lo.x.is_finite() {
            return (Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0));
        }
        (lo, hi)
    }
}
