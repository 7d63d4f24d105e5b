//! A world's picture: its walls, goals, landmarks, balls and cans, `.map` points and
//! robots, drawn as the report's map draws a run (`skipper world check --svg`), so that a
//! world can be seen before anything runs in it.

use super::plots::{self, MapData, TrackLine};
use super::series::Waypoint;
use skipper_sim::{ObjectKind, WorldSpec};

/// How far a robot's heading mark reaches ahead of it (m).
const HEADING_MARK: f64 = 0.6;

/// The SVG of `spec`: each robot a short line in its colour from where it starts (the
/// hollow circle) toward where it faces (the filled one).
pub fn world_svg(spec: &WorldSpec) -> Result<String, String> {
    let walls: Vec<[f64; 4]> = spec
        .walls
        .iter()
        .map(|w| [w.segment.a.x, w.segment.a.y, w.segment.b.x, w.segment.b.y])
        .collect();
    let goals: Vec<Waypoint> = spec
        .goals
        .iter()
        .map(|g| Waypoint {
            label: g.name.clone(),
            x: g.pos.x,
            y: g.pos.y,
            radius: None,
            from_world: true,
        })
        .collect();
    let landmarks: Vec<(String, f64, f64)> = spec
        .landmarks
        .iter()
        .map(|l| (l.name.clone(), l.pos.x, l.pos.y))
        .collect();
    let objects: Vec<(String, f64, f64)> = spec
        .objects
        .iter()
        .map(|o| {
            let kind = match o.kind {
                ObjectKind::Ball => "ball",
                ObjectKind::Can => "can",
            };
            (kind.to_string(), o.pos.x, o.pos.y)
        })
        .collect();
    let points: Vec<(f64, f64)> = spec.points.iter().map(|p| (p.x, p.y)).collect();
    let robots: Vec<TrackLine> = spec
        .robots
        .iter()
        .enumerate()
        .map(|(i, r)| TrackLine {
            color: plots::robot_color(i),
            name: r.name.clone(),
            label: true,
            points: vec![
                (r.pose.x, r.pose.y),
                (
                    r.pose.x + HEADING_MARK * r.pose.yaw.cos(),
                    r.pose.y + HEADING_MARK * r.pose.yaw.sin(),
                ),
            ],
        })
        .collect();
    let (lo, hi) = spec.bounds();
    let title = format!("World `{}`: robots face from ○ to ●", spec.name);
    plots::map_svg(&MapData {
        title: &title,
        walls: &walls,
        coast: &[],
        waypoints: &goals,
        landmarks: &landmarks,
        objects: &objects,
        points: &points,
        tracks: &robots,
        bounds: (hi.x > lo.x && hi.y > lo.y).then_some([lo.x, lo.y, hi.x, hi.y]),
    })
}
