//! Arguments shared by the experiment commands: the pool of pages, folds,
//! grids and the report directory.

use std::path::PathBuf;

use crate::experiment;
use crate::pool::Pool;
use anyhow::Result;

/// `--html DIR --gold DIR` pairs, folds and seed.
#[derive(clap::Args, Clone)]
pub struct PoolArgs {
    /// Directory of HTML pages (repeatable; pairs with the --gold of the same position).
    #[arg(long, value_name = "DIR", required = true)]
    pub html: Vec<PathBuf>,
    /// Directory of gold files (repeatable).
    #[arg(long, value_name = "DIR", required = true)]
    pub gold: Vec<PathBuf>,
    /// Number of folds.
    #[arg(long, default_value_t = 10)]
    pub folds: usize,
    /// Seed of the fold assignment.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl PoolArgs {
    /// The (pages, gold) directory pairs, checked to come in pairs.
    pub fn dirs(&self) -> Result<Vec<(PathBuf, PathBuf)>> {
        anyhow::ensure!(
            self.html.len() == self.gold.len(),
            "give --html and --gold in pairs"
        );
        anyhow::ensure!(self.folds >= 2, "--folds must be at least 2");
        Ok(self
            .html
            .iter()
            .cloned()
            .zip(self.gold.iter().cloned())
            .collect())
    }

    /// Pairs every page with its gold file.
    pub fn pairs(&self) -> Result<Vec<crate::train::Pair>> {
        Ok(experiment::pairs(&self.dirs()?)?)
    }

    /// Reads and segments the pages (in parallel) and assigns folds.
    pub fn load(&self) -> Result<Pool> {
        let t = std::time::Instant::now();
        let pool = Pool::from_dirs(&self.dirs()?, self.folds, self.seed)?;
        eprintln!(
            "ncleaner: {} pages read and segmented in {:.1} s",
            pool.pages.len(),
            t.elapsed().as_secs_f64()
        );
        Ok(pool)
    }
}

/// Parses `A..B` (inclusive) or a comma-separated list of orders.
pub fn parse_orders(s: &str) -> Result<Vec<usize>, String> {
    let bad = || format!("{s:?}: give orders as 1..8 or 2,3,6");
    if let Some((a, b)) = s.split_once("..") {
        let a: usize = a.trim().parse().map_err(|_| bad())?;
        let b: usize = b
            .trim_start_matches('=')
            .trim()
            .parse()
            .map_err(|_| bad())?;
        if a == 0 || b < a {
            return Err(bad());
        }
        return Ok((a..=b).collect());
    }
    s.split(',')
        .map(|x| x.trim().parse().map_err(|_| bad()))
        .collect()
}

/// Parses `FROM:TO:STEP` (inclusive, rounded to 1e-9) or a comma-separated list of numbers.
pub fn parse_grid(s: &str) -> Result<Vec<f64>, String> {
    let bad = || format!("{s:?}: give values as 0.05:0.95:0.05 or 0.3,0.5,0.6");
    let parts: Vec<&str> = s.split(':').collect();
    if parts.len() == 3 {
        let v: Vec<f64> = parts
            .iter()
            .map(|x| x.trim().parse::<f64>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let (a, b, step) = (v[0], v[1], v[2]);
        if step.is_nan() || step <= 0.0 || b < a || !a.is_finite() || !b.is_finite() {
            return Err(bad());
        }
        let n = ((b - a) / step + 1e-9).floor() as usize;
        return Ok((0..=n)
            .map(|i| ((a + i as f64 * step) * 1e9).round() / 1e9)
            .collect());
    }
    s.split(',')
        .map(|x| x.trim().parse::<f64>().map_err(|_| bad()))
        .collect()
}

/// `--report DIR`: where Markdown and charts go.
#[derive(clap::Args, Clone)]
pub struct ReportArgs {
    /// Write the results as Markdown tables and SVG/PNG charts into DIR.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
}

impl ReportArgs {
    /// Writes `DIR/NAME` if a report directory was given; returns its path.
    pub fn write(&self, name: &str, text: &str) -> Result<Option<PathBuf>> {
        let Some(dir) = &self.report else {
            return Ok(None);
        };
        let path = dir.join(name);
        crate::pool::write_report(&path, text)?;
        eprintln!("ncleaner: wrote {}", path.display());
        Ok(Some(path))
    }

    /// Draws a chart as `DIR/STEM.svg` and `DIR/STEM.png` if a report directory was given.
    pub fn chart(&self, stem: &str, chart: &impl experiment::plot::Draw) -> Result<()> {
        if let Some(dir) = &self.report {
            for p in experiment::plot::write_chart(chart, &dir.join(stem))? {
                eprintln!("ncleaner: wrote {}", p.display());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids() {
        assert_eq!(parse_orders("1..4").unwrap(), vec![1, 2, 3, 4]);
        assert_eq!(parse_orders("1..=3").unwrap(), vec![1, 2, 3]);
        assert_eq!(parse_orders("2,3,6").unwrap(), vec![2, 3, 6]);
        assert!(parse_orders("4..2").is_err());
        assert!(parse_orders("x").is_err());
        let q = parse_grid("0.05:0.95:0.05").unwrap();
        assert_eq!(q.len(), 19);
        assert_eq!(q[0], 0.05);
        assert_eq!(q[11], 0.6);
        assert_eq!(q[18], 0.95);
        assert_eq!(parse_grid("0.5,0.6").unwrap(), vec![0.5, 0.6]);
        assert_eq!(parse_grid("-2,0,2").unwrap(), vec![-2.0, 0.0, 2.0]);
        assert!(parse_grid("0.1:0.9:0").is_err());
    }
}
