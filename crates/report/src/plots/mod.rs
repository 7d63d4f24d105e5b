//! The report's plots, drawn as SVG with `plotters`: the map with the tracks
//! ([`map`]), time series with a line per robot ([`time`]), a fleet's median and spread
//! ([`band`]), the depth and altitude profile ([`profile`]) and the behavior timeline
//! ([`timeline`]).
//!
//! Each kind of thing has its own colour (see [`style`]), so a reader — and the tests —
//! can tell walls from tracks from capture circles in the SVG; every line of a plot is in
//! its legend or labelled where it is drawn, and says so ([`mark_lines`]): each line is
//! an SVG `polyline` of class `line` (`line robot` when it is one robot's) whose
//! `data-legend` is the text of its legend entry or label.

pub mod band;
pub mod map;
pub mod profile;
pub mod time;
pub mod timeline;

pub use band::{band_svg, Band, BandPlot};
pub use map::{map_svg, MapData, TrackLine};
pub use profile::{profile_svg, Profile};
pub use time::{time_svg, TimeLine, TimePlot};
pub use timeline::timeline_svg;

use plotters::prelude::*;
use std::fmt::Write as _;

/// The width of a plot (px).
pub const PLOT_W: u32 = 900;

/// Colours of the things drawn (robots use [`ROBOT_COLORS`]).
pub mod style {
    use plotters::style::RGBColor;
    /// Walls and the world's outline.
    pub const WALL: RGBColor = RGBColor(0x30, 0x30, 0x30);
    /// Goals named in the world file.
    pub const GOAL: RGBColor = RGBColor(0x00, 0x64, 0x00);
    /// Landmarks of the world file.
    pub const LANDMARK: RGBColor = RGBColor(0x8B, 0x45, 0x13);
    /// Waypoints found in the controllers' states and events.
    pub const WAYPOINT: RGBColor = RGBColor(0xC7, 0x15, 0x85);
    /// Capture circles.
    pub const CAPTURE: RGBColor = RGBColor(0xDB, 0x70, 0x93);
    /// Coastline.
    pub const COAST: RGBColor = RGBColor(0x46, 0x82, 0xB4);
    /// Depth and altitude envelopes.
    pub const ENVELOPE: RGBColor = RGBColor(0xFF, 0x8C, 0x00);
    /// The seafloor under an AUV.
    pub const SEAFLOOR: RGBColor = RGBColor(0xA0, 0x52, 0x2D);
    /// Balls and cans: amber with a dark rim, a colour no robot's track has.
    pub const OBJECT: RGBColor = RGBColor(0xFF, 0xC1, 0x07);
    /// The rim of a ball or can, and its name.
    pub const OBJECT_RIM: RGBColor = RGBColor(0x3A, 0x2E, 0x00);
    /// Map points (`.map` files' scan points).
    pub const POINT: RGBColor = RGBColor(0x90, 0x90, 0x90);
    /// Event marks on the timeline.
    pub const MARK: RGBColor = RGBColor(0xB2, 0x22, 0x22);
    /// The tracks of a fleet's robots that are not named on the map.
    pub const OTHER_TRACK: RGBColor = RGBColor(0xC8, 0xC8, 0xC8);
    /// A fleet's median line.
    pub const MEDIAN: RGBColor = RGBColor(0x1F, 0x3A, 0x93);
    /// The spread of a fleet (the band between two quantiles).
    pub const SPREAD: RGBColor = RGBColor(0x9E, 0xB3, 0xE8);
}

/// One colour per robot, in turn (Tableau 10, without its grey).
pub const ROBOT_COLORS: [RGBColor; 9] = [
    RGBColor(0x1F, 0x77, 0xB4),
    RGBColor(0xFF, 0x7F, 0x0E),
    RGBColor(0x2C, 0xA0, 0x2C),
    RGBColor(0xD6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xBD),
    RGBColor(0x8C, 0x56, 0x4B),
    RGBColor(0xE3, 0x77, 0xC2),
    RGBColor(0xBC, 0xBD, 0x22),
    RGBColor(0x17, 0xBE, 0xCF),
];

/// The colour of robot `i`.
pub fn robot_color(i: usize) -> RGBColor {
    ROBOT_COLORS[i % ROBOT_COLORS.len()]
}

/// `#RRGGBB`, as the SVG has it.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// Why a plot could not be drawn.
pub type Res<T> = Result<T, String>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// A chart with numbers on both axes, drawn as SVG.
type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Draw the legend of the labelled series at `at`.
fn legend<'a, 'b: 'a>(chart: &mut Chart<'a, 'b>, at: SeriesLabelPosition) -> Res<()> {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .position(at)
        .draw()
        .map_err(err)
}

/// A short line in `c` for a legend.
fn swatch(c: RGBColor, width: u32) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(width))
}

/// Whether lines in `c` are individual robots' (a robot's colour, or the grey of a
/// fleet's other tracks).
pub fn is_robot_color(c: RGBColor) -> bool {
    ROBOT_COLORS.contains(&c) || c == style::OTHER_TRACK
}

/// The SVG `svg` with its lines marked: each `polyline` drawn in the colour of one of
/// `legends` gets `class="line"` (`class="line robot"` in a robot's colour) and
/// `data-legend`, the text of that colour's legend entry or label (given HTML-escaped, as
/// the page has it). Lines in other colours (axes, grid) are left as they are.
pub fn mark_lines(svg: &str, legends: &[(RGBColor, String)]) -> String {
    const TAG: &str = "<polyline";
    let colors: Vec<(String, &(RGBColor, String))> =
        legends.iter().map(|l| (hex(l.0), l)).collect();
    let mut out = String::with_capacity(svg.len() + svg.len() / 8);
    let mut rest = svg;
    while let Some(at) = rest.find(TAG) {
        let (head, tail) = rest.split_at(at + TAG.len());
        out.push_str(head);
        let element = tail.find('>').map_or(tail, |end| &tail[..end]);
        let found =
            stroke_of(element).and_then(|s| colors.iter().find(|(h, _)| h.eq_ignore_ascii_case(s)));
        if let Some((_, (c, text))) = found {
            let class = if is_robot_color(*c) {
                "line robot"
            } else {
                "line"
            };
            let _ = write!(out, " class=\"{class}\" data-legend=\"{text}\"");
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// The `stroke` colour of an SVG element's attributes.
fn stroke_of(attrs: &str) -> Option<&str> {
    let at = attrs.find(" stroke=\"")? + " stroke=\"".len();
    let rest = attrs.get(at..)?;
    rest.get(..rest.find('"')?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use map::clip_polyline;

    #[test]
    fn lines_are_marked_with_their_legend() {
        let svg = "<svg><polyline fill=\"none\" stroke=\"#1F77B4\" points=\"0,0 1,1\"/>\
                   <polyline stroke=\"#000000\" points=\"0,0\"/>\
                   <polyline stroke=\"#4682B4\" points=\"2,2\"/></svg>";
        let legends = [
            (robot_color(0), "r&lt;1&gt;".to_string()),
            (style::COAST, "coastline".to_string()),
        ];
        let m = mark_lines(svg, &legends);
        assert!(m.contains("<polyline class=\"line robot\" data-legend=\"r&lt;1&gt;\" fill"));
        assert!(
            m.contains("<polyline stroke=\"#000000\""),
            "axes are left alone"
        );
        assert!(m.contains("<polyline class=\"line\" data-legend=\"coastline\" stroke"));
        assert_eq!(mark_lines("<polyline", &legends), "<polyline");
    }
    use timeline::value_color;

    #[test]
    fn coastlines_are_clipped_to_the_map() {
        let r = [0.0, 0.0, 10.0, 10.0];
        // crosses the map: one part, cut at the border
        let parts = clip_polyline(&[(-5.0, 5.0), (15.0, 5.0)], r);
        assert_eq!(parts, vec![vec![(0.0, 5.0), (10.0, 5.0)]]);
        // wholly outside: nothing
        assert!(clip_polyline(&[(20.0, -50.0), (20.0, 50.0)], r).is_empty());
        // leaves and comes back: two parts
        let parts = clip_polyline(&[(1.0, 1.0), (1.0, 20.0), (5.0, 20.0), (5.0, 1.0)], r);
        assert_eq!(parts.len(), 2);
    }

    #[test]
    fn colours_are_stable_and_distinct_from_the_map_styles() {
        assert_eq!(value_color("active"), value_color("active"));
        for c in ROBOT_COLORS {
            for s in [
                style::WALL,
                style::GOAL,
                style::WAYPOINT,
                style::CAPTURE,
                style::COAST,
                style::LANDMARK,
                style::ENVELOPE,
                style::SEAFLOOR,
            ] {
                assert_ne!(hex(c), hex(s));
            }
        }
    }
}
