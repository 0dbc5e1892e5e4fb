//! The histogram learner of [`super::Forest::fit`] and [`super::fit_softmax`]:
//! each feature's values cut into quantile bins once ([`cut_points`],
//! [`binned`]), the rows' seeded half ([`splitmix`]), the gradient and
//! Hessian histograms of a node, and the growth of one tree level by level
//! ([`grow`]); the fit walks each new tree on the rows' bins
//! ([`tree_value_binned`]).

use super::{BINS, Boost, LEAF, Node};

/// [`super::tree_value`] of a row with no NaN among its features, walked on the
/// row's bins (`binned`) instead of its values: one byte a step, in the
/// row's `d` bytes rather than its floats. The same leaf: a feature's cuts
/// are sorted, a value's bin is the number of cuts at or below it, and a
/// split's threshold is its feature's cut `bins_left − 1`, so the bin is
/// below `bins_left` exactly when the value is below the threshold (for
/// any value that is not NaN, infinities included).
pub(super) fn tree_value_binned(nodes: &[Node], bins: &[u8]) -> f32 {
    let mut i = 0;
    loop {
        let n = &nodes[i];
        if n.feature == LEAF {
            return n.value;
        }
        i = if bins[n.feature as usize] < n.bins_left {
            n.left
        } else {
            n.right
        } as usize;
    }
}

/// Each row's bin of each feature, row after row.
pub(super) fn binned(x: &[Vec<f32>], cuts: &[Vec<f32>]) -> Vec<u8> {
    x.iter()
        .flat_map(|row| {
            cuts.iter()
                .enumerate()
                .map(move |(j, c)| c.partition_point(|&t| t <= row[j]) as u8)
        })
        .collect()
}

pub(super) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Up to `BINS − 1` cut points per feature, at quantiles of its distinct values.
pub(super) fn cut_points(x: &[Vec<f32>], d: usize) -> Vec<Vec<f32>> {
    let step = (x.len() / 50_000).max(1);
    (0..d)
        .map(|j| {
            let mut v: Vec<f32> = x
                .iter()
                .step_by(step)
                .map(|r| r[j])
                .filter(|v| v.is_finite())
                .collect();
            v.sort_by(f32::total_cmp);
            v.dedup();
            if v.len() <= BINS {
                // Cut between consecutive distinct values.
                v.windows(2).map(|p| (p[0] + p[1]) / 2.0).collect()
            } else {
                let mut c: Vec<f32> = (1..BINS)
                    .map(|k| {
                        let i = k * v.len() / BINS;
                        (v[i - 1] + v[i]) / 2.0
                    })
                    .collect();
                c.dedup();
                c
            }
        })
        .collect()
}

pub(super) struct Grow<'a> {
    pub(super) bins: &'a [u8],
    pub(super) cuts: &'a [Vec<f32>],
    pub(super) d: usize,
    pub(super) g: &'a [f64],
    pub(super) h: &'a [f64],
    pub(super) cfg: Boost,
    pub(super) min_h: f64,
}

/// Rows × features at and above which a node's histogram is built by
/// several threads (below it, splitting the work costs more than it saves).
pub(super) const PARALLEL_CELLS: usize = 1 << 17;

/// The sums of gradients and Hessians of `rows` per feature and bin
/// (`hist[feature * BINS + bin]`). On large nodes the features are split
/// among rayon's threads; each thread adds the rows of its features in the
/// rows' order, as one thread would, so every sum is the same bit for bit
/// whatever the number of threads (floating-point addition is not
/// associative: splitting the rows instead would change the trees).
fn histogram(ctx: &Grow<'_>, rows: &[u32]) -> Vec<(f64, f64)> {
    use rayon::prelude::*;
    let d = ctx.d;
    let mut hist = vec![(0f64, 0f64); d * BINS];
    let threads = rayon::current_num_threads().min(d);
    if threads < 2 || rows.len() * d < PARALLEL_CELLS {
        add_rows(ctx, rows, 0, &mut hist);
    } else {
        let per = d.div_ceil(threads);
        hist.par_chunks_mut(per * BINS)
            .enumerate()
            .for_each(|(c, part)| add_rows(ctx, rows, c * per, part));
    }
    hist
}

/// Adds `rows` into `part`, the histogram of the features from `first` on
/// (as many as `part` holds).
fn add_rows(ctx: &Grow<'_>, rows: &[u32], first: usize, part: &mut [(f64, f64)]) {
    let width = part.len() / BINS;
    for &r in rows {
        let (gr, hr) = (ctx.g[r as usize], ctx.h[r as usize]);
        let at = r as usize * ctx.d + first;
        for (j, &b) in ctx.bins[at..at + width].iter().enumerate() {
            let e = &mut part[j * BINS + b as usize];
            e.0 += gr;
            e.1 += hr;
        }
    }
}

/// Grows the subtree of `rows` at the end of `nodes` (its root at the
/// current end) and returns the root's index.
pub(super) fn grow(nodes: &mut Vec<Node>, ctx: &Grow<'_>, rows: Vec<u32>, depth: usize) -> u32 {
    let at = nodes.len();
    let (gs, hs) = rows.iter().fold((0.0, 0.0), |(a, b), &r| {
        (a + ctx.g[r as usize], b + ctx.h[r as usize])
    });
    let leaf = Node {
        feature: LEAF,
        threshold: 0.0,
        left: 0,
        right: 0,
        value: (-gs / (hs + ctx.cfg.lambda)) as f32 * ctx.cfg.learning_rate,
        bins_left: 0,
    };
    nodes.push(leaf);
    if depth == 0 || hs < 2.0 * ctx.min_h {
        return at as u32;
    }
    let hist = histogram(ctx, &rows);
    let lambda = ctx.cfg.lambda;
    let parent = gs * gs / (hs + lambda);
    let mut best: Option<(f64, usize, usize)> = None; // (gain, feature, bins going left)
    for j in 0..ctx.d {
        let n_bins = ctx.cuts[j].len() + 1;
        let (mut gl, mut hl) = (0.0, 0.0);
        for b in 0..n_bins - 1 {
            let e = hist[j * BINS + b];
            gl += e.0;
            hl += e.1;
            let (gr, hr) = (gs - gl, hs - hl);
            if hl < ctx.min_h || hr < ctx.min_h {
                continue;
            }
            let gain = gl * gl / (hl + lambda) + gr * gr / (hr + lambda) - parent;
            if gain > 1e-9 && best.is_none_or(|(bg, _, _)| gain > bg) {
                best = Some((gain, j, b + 1));
            }
        }
    }
    let Some((_, feature, left_bins)) = best else {
        return at as u32;
    };
    let (left, right): (Vec<u32>, Vec<u32>) = rows
        .into_iter()
        .partition(|&r| (ctx.bins[r as usize * ctx.d + feature] as usize) < left_bins);
    drop(hist);
    let left = grow(nodes, ctx, left, depth - 1);
    let right = grow(nodes, ctx, right, depth - 1);
    nodes[at] = Node {
        feature: feature as u16,
        threshold: ctx.cuts[feature][left_bins - 1],
        left,
        right,
        value: 0.0,
        bins_left: left_bins as u8,
    };
    at as u32
}
