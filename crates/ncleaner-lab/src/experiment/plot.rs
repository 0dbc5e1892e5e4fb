//! The paper's figures as SVG and PNG charts (`plotters`).
//!
//! Text is laid out with `ab_glyph` and the DejaVu Sans font compiled into
//! the binary (crate `dejavu`), never with system fonts: a fresh machine
//! without fontconfig or any font installed draws the same charts. Every
//! chart is written twice, `STEM.svg` and `STEM.png`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;

use super::curve::Curve;
use super::entropy::EntropyGrid;
use super::report::histogram;
use super::tune::FGrid;
use crate::error::{Error, Result};

/// The family name under which the embedded font is registered.
const FONT: &str = "sans-serif";

/// Chart size in pixels (PNG) or user units (SVG).
const SIZE: (u32, u32) = (900, 600);

const COLORS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

fn register_font() -> Result<()> {
    static DONE: OnceLock<bool> = OnceLock::new();
    let ok = *DONE.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(Error::Parameter(
            "the embedded DejaVu Sans font does not load".into(),
        ))
    }
}

/// One line of a line chart.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// The points, in x order.
    pub points: Vec<(f64, f64)>,
    /// Vertical bars (x, low, high), drawn in the line's colour.
    pub bars: Vec<(f64, f64, f64)>,
    /// Drawn thin and grey-ish, for reference levels.
    pub reference: bool,
    /// Colour index (into a ten-colour palette).
    pub color: usize,
}

/// A chart of lines.
#[derive(Debug, Clone)]
pub struct LineChart {
    /// Title above the chart.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// A logarithmic x axis.
    pub log_x: bool,
    /// The lines.
    pub series: Vec<Series>,
}

/// A histogram: bars of given counts over bins of equal width.
#[derive(Debug, Clone)]
pub struct BarChart {
    /// Title above the chart.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// Bin width.
    pub width: f64,
    /// (bin start, count).
    pub bins: Vec<(f64, usize)>,
}

fn err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::io(
        path,
        std::io::Error::other(format!("drawing the chart: {e}")),
    )
}

/// Something that draws itself on any plotters backend.
pub trait Draw {
    /// Draws the chart on `root`.
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> std::result::Result<(), String>;
}

/// Writes `STEM.svg` and `STEM.png` (creating the directory); returns both paths.
pub fn write_chart(chart: &impl Draw, stem: &Path) -> Result<Vec<PathBuf>> {
    register_font()?;
    if let Some(dir) = stem.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let with_ext = |ext: &str| {
        let mut s = stem.as_os_str().to_owned();
        s.push(".");
        s.push(ext);
        PathBuf::from(s)
    };
    let (svg, png) = (with_ext("svg"), with_ext("png"));
    {
        let root = SVGBackend::new(&svg, SIZE).into_drawing_area();
        chart.draw(&root).map_err(|e| err(&svg, e))?;
        root.present().map_err(|e| err(&svg, e))?;
    }
    {
        let root = BitMapBackend::new(&png, SIZE).into_drawing_area();
        chart.draw(&root).map_err(|e| err(&png, e))?;
        root.present().map_err(|e| err(&png, e))?;
    }
    Ok(vec![svg, png])
}

fn padded(lo: f64, hi: f64, frac: f64) -> (f64, f64) {
    let span = if hi > lo { hi - lo } else { lo.abs().max(1.0) };
    (lo - frac * span, hi + frac * span)
}

impl Draw for LineChart {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> std::result::Result<(), String> {
        let s = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        root.fill(&WHITE).map_err(s)?;
        let xs = self.series.iter().flat_map(|l| {
            l.points
                .iter()
                .map(|p| p.0)
                .chain(l.bars.iter().map(|b| b.0))
        });
        let ys = self.series.iter().flat_map(|l| {
            l.points
                .iter()
                .map(|p| p.1)
                .chain(l.bars.iter().flat_map(|b| [b.1, b.2]))
        });
        let (x0, x1) = min_max(xs).ok_or("a chart without points")?;
        let (y0, y1) = min_max(ys).ok_or("a chart without points")?;
        let (y0, y1) = padded(y0, y1, 0.05);
        let mut b = ChartBuilder::on(root);
        b.caption(&self.title, (FONT, 22))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60);
        if self.log_x {
            let (x0, x1) = (x0.max(1e-9) / 1.2, x1 * 1.2);
            let mut chart = b
                .build_cartesian_2d((x0..x1).log_scale(), y0..y1)
                .map_err(s)?;
            lines(&mut chart, self, &|x| format!("{x}"))
        } else {
            let (x0, x1) = padded(x0, x1, 0.02);
            let mut chart = b.build_cartesian_2d(x0..x1, y0..y1).map_err(s)?;
            lines(&mut chart, self, &|x| format!("{x:.2}"))
        }
    }
}

fn min_max(it: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    it.filter(|x| x.is_finite()).fold(None, |acc, x| match acc {
        None => Some((x, x)),
        Some((lo, hi)) => Some((lo.min(x), hi.max(x))),
    })
}

fn lines<'a, DB: DrawingBackend + 'a, X>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, plotters::coord::types::RangedCoordf64>>,
    c: &LineChart,
    x_fmt: &dyn Fn(&f64) -> String,
) -> std::result::Result<(), String>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let s = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    chart
        .configure_mesh()
        .x_desc(c.x_label.as_str())
        .y_desc(c.y_label.as_str())
        .x_label_formatter(x_fmt)
        .y_label_formatter(&|y| format!("{y:.2}"))
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 17))
        .light_line_style(WHITE)
        .draw()
        .map_err(s)?;
    for l in &c.series {
        let color = COLORS[l.color % COLORS.len()];
        let style = if l.reference {
            color.mix(0.6).stroke_width(1)
        } else {
            color.stroke_width(2)
        };
        chart
            .draw_series(LineSeries::new(l.points.iter().copied(), style))
            .map_err(s)?
            .label(l.name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        if !l.reference {
            chart
                .draw_series(l.points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(s)?;
        }
        chart
            .draw_series(l.bars.iter().map(|&(x, lo, hi)| {
                PathElement::new(vec![(x, lo), (x, hi)], color.stroke_width(1))
            }))
            .map_err(s)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FONT, 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(s)?;
    Ok(())
}

impl Draw for BarChart {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> std::result::Result<(), String> {
        let s = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        root.fill(&WHITE).map_err(s)?;
        let (x0, _) = min_max(self.bins.iter().map(|b| b.0)).ok_or("a histogram without bins")?;
        let (_, x1) = min_max(self.bins.iter().map(|b| b.0 + self.width)).ok_or("no bins")?;
        let top = self.bins.iter().map(|b| b.1).max().unwrap_or(1) as f64 * 1.08;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 22))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(x0..x1, 0.0..top.max(1.0))
            .map_err(s)?;
        chart
            .configure_mesh()
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .x_label_formatter(&|x| format!("{x:+.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 17))
            .light_line_style(WHITE)
            .draw()
            .map_err(s)?;
        let fill = COLORS[0].mix(0.8).filled();
        chart
            .draw_series(
                self.bins
                    .iter()
                    .map(|&(lo, c)| Rectangle::new([(lo, 0.0), (lo + self.width, c as f64)], fill)),
            )
            .map_err(s)?;
        chart
            .draw_series(self.bins.iter().map(|&(lo, c)| {
                Rectangle::new(
                    [(lo, 0.0), (lo + self.width, c as f64)],
                    BLACK.stroke_width(1),
                )
            }))
            .map_err(s)?;
        // the line of no difference
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, 0.0), (0.0, top)],
                BLACK.stroke_width(2),
            )))
            .map_err(s)?;
        Ok(())
    }
}

/// Figure 2: cross-entropy against q, one line per n.
pub fn entropy_chart(g: &EntropyGrid) -> LineChart {
    LineChart {
        title: format!(
            "Cross-entropy of the {} raw-dump model ({}-fold CV)",
            g.alphabet.name(),
            g.folds
        ),
        x_label: "interpolation parameter q".into(),
        y_label: "cross-entropy (bits per character)".into(),
        log_x: false,
        series: g
            .orders
            .iter()
            .enumerate()
            .map(|(i, &n)| Series {
                name: format!("n = {n}"),
                points: g
                    .qs
                    .iter()
                    .copied()
                    .zip(g.bits[i].iter().copied())
                    .collect(),
                bars: Vec::new(),
                reference: false,
                color: i,
            })
            .collect(),
    }
}

/// Cross-validated micro F against q at one threshold, one line per n.
pub fn f_chart(g: &FGrid, threshold: f64) -> LineChart {
    LineChart {
        title: format!(
            "Cross-validated micro F, {} models, threshold {threshold}",
            g.options.alphabet.name()
        ),
        x_label: "interpolation parameter q".into(),
        y_label: "micro-averaged F (%)".into(),
        log_x: false,
        series: g
            .options
            .orders
            .iter()
            .enumerate()
            .map(|(i, &n)| Series {
                name: format!("n = {n}"),
                points: g
                    .options
                    .qs
                    .iter()
                    .filter_map(|&q| g.at(n, q, threshold).map(|p| (q, 100.0 * p.micro.f)))
                    .collect(),
                bars: Vec::new(),
                reference: false,
                color: i,
            })
            .collect(),
    }
}

/// Figure 3: histogram of per-file precision differences (points).
pub fn precision_chart(diffs: &[f64], row: &str, bin: f64) -> BarChart {
    BarChart {
        title: format!("Per-file precision: {row} minus the raw dump"),
        x_label: "difference in precision (percentage points)".into(),
        y_label: "files".into(),
        width: bin,
        bins: histogram(diffs, bin),
    }
}

/// Figure 4: micro F, P and R against training pages (log scale), mean over
/// draws with the range of the draws as bars, and the raw dump's levels.
/// A value of the learning curve and its (low, high) range, if any.
type Point = (f64, Option<(f64, f64)>);

/// The learning curve (Figure 4) as a chart: F by training size, one line per model.
pub fn curve_chart(c: &Curve) -> LineChart {
    let sizes = c.sizes();
    let xs: Vec<f64> = sizes.iter().map(|z| z.pages as f64).collect();
    let (lo, hi) = (
        xs.first().copied().unwrap_or(1.0),
        xs.last().copied().unwrap_or(1.0),
    );
    let line = |name: &str, color: usize, f: &dyn Fn(&super::curve::CurveSize) -> Point| Series {
        name: name.into(),
        points: sizes
            .iter()
            .map(|z| (z.pages as f64, 100.0 * f(z).0))
            .collect(),
        bars: sizes
            .iter()
            .filter_map(|z| f(z).1.map(|(a, b)| (z.pages as f64, 100.0 * a, 100.0 * b)))
            .collect(),
        reference: false,
        color,
    };
    let level = |name: String, color: usize, y: f64| Series {
        name,
        points: vec![(lo, 100.0 * y), (hi, 100.0 * y)],
        bars: Vec::new(),
        reference: true,
        color,
    };
    LineChart {
        title: format!(
            "Learning curve ({} held-out pages, {} draws per size)",
            c.held_out.len(),
            c.options.draws
        ),
        x_label: "training pages (log scale)".into(),
        y_label: "micro-averaged score (%)".into(),
        log_x: true,
        series: vec![
            line("F", 0, &|z| (z.f.mean, Some(z.f_range))),
            line("precision", 1, &|z| {
                (z.precision.mean, Some(z.precision_range))
            }),
            line("recall", 2, &|z| (z.recall.mean, None)),
            level(
                format!("raw dump F {:.1}", 100.0 * c.baseline.f),
                0,
                c.baseline.f,
            ),
            level(
                format!("raw dump P {:.1}", 100.0 * c.baseline.precision),
                1,
                c.baseline.precision,
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Charts draw with the embedded font alone (no system font is asked
    /// for), into both formats, with the text in place.
    #[test]
    fn charts_draw_without_system_fonts() {
        let dir = std::env::temp_dir().join(format!("ncleaner-plot-{}", std::process::id()));
        let chart = LineChart {
            title: "Cross-entropy ± q".into(),
            x_label: "q".into(),
            y_label: "bits".into(),
            log_x: false,
            series: vec![Series {
                name: "n = 3".into(),
                points: vec![(0.1, 3.0), (0.5, 2.5), (0.9, 2.8)],
                bars: vec![(0.5, 2.4, 2.6)],
                reference: false,
                color: 0,
            }],
        };
        let paths = write_chart(&chart, &dir.join("line")).unwrap();
        let svg = std::fs::read_to_string(&paths[0]).unwrap();
        assert!(svg.contains("n = 3") && svg.contains("<svg"));
        let png = std::fs::read(&paths[1]).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let log = LineChart {
            log_x: true,
            series: vec![Series {
                points: vec![(1.0, 90.0), (10.0, 92.0), (300.0, 93.0)],
                ..chart.series[0].clone()
            }],
            ..chart
        };
        write_chart(&log, &dir.join("log")).unwrap();
        let bars = precision_chart(&[-3.0, 0.0, 4.0, 12.0, 12.5], "NCleaner", 5.0);
        let paths = write_chart(&bars, &dir.join("bars")).unwrap();
        // the text was laid out with real glyph metrics: the PNG holds dark pixels
        // (text, axes) besides the bars and the white background
        let png = std::fs::read(&paths[1]).unwrap();
        assert!(png.len() > 2000);
        std::fs::remove_dir_all(&dir).ok();
    }
}
