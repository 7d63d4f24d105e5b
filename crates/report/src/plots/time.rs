//! Time plots: a line per robot (or per quantity), each in the legend.

use super::{err, legend, mark_lines, swatch, Chart, Res, PLOT_W};
use plotters::prelude::*;

/// One line in a time plot, in parts (split where it wraps or has no data).
pub struct TimeLine {
    /// Its colour.
    pub color: RGBColor,
    /// Its name, for the legend.
    pub name: String,
    /// The parts.
    pub parts: Vec<Vec<(f64, f64)>>,
    /// Drawn dashed (a reference, such as the fleet's median).
    pub dashed: bool,
}

/// A time plot.
pub struct TimePlot<'a> {
    /// Caption.
    pub title: &'a str,
    /// What the y axis shows, with its unit.
    pub y_desc: &'a str,
    /// The lines.
    pub lines: &'a [TimeLine],
    /// The x range (s).
    pub t_end: f64,
    /// Fixed y range, else from the data.
    pub y_range: Option<(f64, f64)>,
    /// Its height (px).
    pub height: u32,
}

fn data_range(lines: &[TimeLine]) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for l in lines {
        for p in &l.parts {
            for &(_, v) in p {
                if v.is_finite() {
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-6 {
        return (lo - 0.5, hi + 0.5);
    }
    let pad = (hi - lo) * 0.05;
    (lo - pad, hi + pad)
}

/// A time plot: speed, heading, ...
pub fn time_svg(p: &TimePlot<'_>) -> Res<String> {
    let (lo, hi) = p.y_range.unwrap_or_else(|| data_range(p.lines));
    let t_end = p.t_end.max(1e-3);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (PLOT_W, p.height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(15)
            .caption(p.title, ("sans-serif", 18))
            .x_label_area_size(35)
            .y_label_area_size(55)
            .build_cartesian_2d(0.0..t_end, lo..hi)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc(p.y_desc)
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.08))
            .draw()
            .map_err(err)?;
        for l in p.lines {
            draw_line(&mut chart, l)?;
        }
        if !p.lines.is_empty() {
            legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        }
        root.present().map_err(err)?;
    }
    Ok(mark_lines(&svg, &legends_of(p.lines)))
}

/// Each line's colour and legend text (HTML-escaped).
pub(super) fn legends_of(lines: &[TimeLine]) -> Vec<(plotters::style::RGBColor, String)> {
    lines
        .iter()
        .map(|l| (l.color, crate::esc(&l.name)))
        .collect()
}

/// A line's parts, the first in the legend.
pub(super) fn draw_line(chart: &mut Chart<'_, '_>, l: &TimeLine) -> Res<()> {
    let c = l.color;
    for (k, part) in l.parts.iter().enumerate() {
        let s = if l.dashed {
            chart.draw_series(DashedLineSeries::new(
                part.iter().copied(),
                5,
                3,
                c.stroke_width(1),
            ))
        } else {
            chart.draw_series(LineSeries::new(part.iter().copied(), c.stroke_width(1)))
        }
        .map_err(err)?;
        if k == 0 {
            s.label(l.name.clone()).legend(swatch(c, 2));
        }
    }
    Ok(())
}
