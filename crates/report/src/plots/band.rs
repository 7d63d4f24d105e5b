//! A fleet over time: the median over the robots as a line and the spread between two
//! quantiles as a band, with any robot's own line drawn over them, all in the legend.

use super::time::{draw_line, TimeLine};
use super::{err, legend, mark_lines, style, swatch, Res, PLOT_W};
use plotters::prelude::*;

/// At one time: the low quantile, the median and the high quantile.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band {
    /// Time (s).
    pub t: f64,
    /// The low quantile.
    pub lo: f64,
    /// The median.
    pub mid: f64,
    /// The high quantile.
    pub hi: f64,
}

/// A plot of a fleet's median and spread.
pub struct BandPlot<'a> {
    /// Caption.
    pub title: &'a str,
    /// What the y axis shows, with its unit.
    pub y_desc: &'a str,
    /// The band over time.
    pub band: &'a [Band],
    /// What the band is (`10–90 % of 200 robots`).
    pub band_label: &'a str,
    /// What the median is.
    pub median_label: &'a str,
    /// Lines drawn over the band (robots named in the legend).
    pub lines: &'a [TimeLine],
    /// The x range (s).
    pub t_end: f64,
}

fn y_range(p: &BandPlot<'_>) -> (f64, f64) {
    let values = p
        .band
        .iter()
        .flat_map(|b| [b.lo, b.hi])
        .chain(
            p.lines
                .iter()
                .flat_map(|l| l.parts.iter().flatten().map(|q| q.1)),
        )
        .filter(|v| v.is_finite());
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let lo = lo.min(0.0);
    let pad = ((hi - lo) * 0.05).max(1e-3);
    (lo, hi + pad)
}

/// The plot: band, median, lines.
pub fn band_svg(p: &BandPlot<'_>) -> Res<String> {
    let (lo, hi) = y_range(p);
    let t_end = p.t_end.max(1e-3);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (PLOT_W, 300)).into_drawing_area();
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
        if !p.band.is_empty() {
            let outline: Vec<(f64, f64)> = p
                .band
                .iter()
                .map(|b| (b.t, b.hi))
                .chain(p.band.iter().rev().map(|b| (b.t, b.lo)))
                .collect();
            chart
                .draw_series(std::iter::once(Polygon::new(
                    outline,
                    style::SPREAD.filled(),
                )))
                .map_err(err)?
                .label(p.band_label)
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 16, y + 5)], style::SPREAD.filled())
                });
            chart
                .draw_series(LineSeries::new(
                    p.band.iter().map(|b| (b.t, b.mid)),
                    style::MEDIAN.stroke_width(2),
                ))
                .map_err(err)?
                .label(p.median_label)
                .legend(swatch(style::MEDIAN, 2));
        }
        for l in p.lines {
            draw_line(&mut chart, l)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        root.present().map_err(err)?;
    }
    let mut legends = vec![(style::MEDIAN, crate::esc(p.median_label))];
    legends.extend(super::time::legends_of(p.lines));
    Ok(mark_lines(&svg, &legends))
}
