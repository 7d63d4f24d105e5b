//! The report's plots, drawn as SVG with `plotters`: the map with the tracks
//! ([`map`]), time series with a line per robot ([`time`]), a fleet's median and spread
//! ([`band`]), the depth and altitude profile ([`profile`]) and the behavior timeline
//! ([`timeline`]).
//!
//! Each kind of thing has its own colour (see [`style`]), so a reader — and the tests —
//! can tell walls from tracks from capture circles in the SVG; every line of a plot is in
//! its legend or labelled where it is drawn.

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

#[cfg(test)]
mod tests {
    use super::*;
    use map::clip_polyline;
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
