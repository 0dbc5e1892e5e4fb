//! Gradient-boosted regression trees on top of the logistic regression:
//! P(clean | x) = σ(logit(x) + Σ_t tree_t(x)), where logit is the fitted
//! [`super::logistic::Logistic`]'s log-odds and the trees fit what it
//! leaves, the interactions a linear model cannot express (a short link
//! inside the best prose container is content, the same link in a menu is
//! not).
//!
//! The learner is the usual second-order histogram method (as XGBoost and
//! LightGBM do it): each feature's values are cut into at most [`BINS`]
//! quantile bins once; each tree grows level by level to [`Boost::depth`]
//! choosing, per node, the split of largest gain G_l²/(H_l+λ) +
//! G_r²/(H_r+λ) − G²/(H+λ) over the gradients and Hessians of the weighted
//! log-loss; leaves hold −G/(H+λ) times the learning rate. Each tree sees a
//! deterministic half of the rows (a seeded SplitMix64), so training is
//! reproducible bit for bit. Small: a few hundred trees of depth 5 are a
//! few hundred kilobytes and cost about a microsecond a segment.

/// `$body` compiled for each tree size a walk knows, with `$s` the size
/// as a constant, and run for the size `$slots`: the walks' loops then
/// unroll and their indices need no bounds checks. The sizes are 2^D
/// slots for D from 1 to [`MAX_DEPTH`] (`vector:` up to
/// [`simd::MAX_SLOTS`]); a larger `$slots` takes the largest.
macro_rules! by_tree_size {
    (@ $slots:expr, $s:ident => $body:expr, [$($size:literal)*] $last:literal) => {
        match $slots {
            $($size => {
                const $s: usize = $size;
                $body
            })*
            _ => {
                const $s: usize = $last;
                $body
            }
        }
    };
    (vector: $slots:expr, $s:ident => $body:expr) => {
        by_tree_size!(@ $slots, $s => $body, [2 4 8 16] 32)
    };
    ($slots:expr, $s:ident => $body:expr) => {
        by_tree_size!(@ $slots, $s => $body, [2 4 8 16 32 64 128 256 512] 1024)
    };
}

mod learn;
mod simd;
mod softmax;

use learn::{Grow, binned, cut_points, grow, splitmix, tree_value_binned};

pub use softmax::{fit_softmax, softmax};

/// Most bins per feature.
pub const BINS: usize = 64;

/// Fewest rows a thread takes at a time in the per-row passes of a fit.
const ROWS_PER_TASK: usize = 4096;

/// The shape and pace of the boosting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Boost {
    /// Number of trees.
    pub trees: usize,
    /// Depth of each tree (splits from root to leaf).
    pub depth: usize,
    /// Shrinkage of each tree's values.
    pub learning_rate: f32,
    /// L2 penalty on leaf values (λ).
    pub lambda: f64,
    /// Least Hessian (weighted p(1−p)) in a child, as a share of the root's.
    pub min_child_share: f64,
}

impl Default for Boost {
    fn default() -> Boost {
        Boost {
            trees: 200,
            depth: 5,
            learning_rate: 0.1,
            lambda: 1.0,
            min_child_share: 0.002,
        }
    }
}

/// The deepest trees a forest may have.
pub const MAX_DEPTH: usize = 10;

/// One node of a tree while it grows: a split (`feature` < [`LEAF`]) or a leaf.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Node {
    /// The feature tested, or [`LEAF`].
    feature: u16,
    /// Rows with `x[feature] < threshold` go left.
    threshold: f32,
    /// Index of the left child; for a leaf, unused.
    left: u32,
    /// Index of the right child; for a leaf, unused.
    right: u32,
    /// The leaf's value (log-odds added), for leaves.
    value: f32,
    /// For a split while the forest is fitted: rows whose bin of `feature`
    /// is below this go left, the same rows as `x[feature] < threshold`
    /// (see [`tree_value_binned`]).
    bins_left: u8,
}

/// `Node::feature` of a leaf.
const LEAF: u16 = u16::MAX;

/// Rows walked at once by [`Forest::margins`].
const LANES: usize = 4;

/// Groups of [`LANES`] rows taken through all the trees before the next
/// ones (16 groups of 4 rows of ~60 features: 15 KB, in L1 with the trees
/// in L2).
const CHUNK_GROUPS: usize = 16;

/// Boosted trees: the sum of their leaves' values is added to a logit.
///
/// Each tree is stored complete, to the forest's depth D: 2^D − 1 splits
/// (feature, threshold) in breadth-first order and 2^D leaf values, so that
/// a row goes down a tree with no pointers and no branches (node k's
/// children are 2k + 1 and 2k + 2). A branch that stopped early is padded
/// with splits that always go left (the bias, always 1, below `f32::MAX`)
/// and its value copied to every leaf under it.
///
/// In a model file its arrays are base64 strings of their bytes
/// (`classify::le_arrays`).
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Forest {
    /// The depth of every tree.
    pub depth: u8,
    /// The feature of every split, tree after tree.
    #[serde(
        serialize_with = "super::le_arrays::serialize",
        deserialize_with = "super::le_arrays::deserialize"
    )]
    pub features: Vec<u16>,
    /// The threshold of every split: rows with `x[feature] < threshold` go left.
    #[serde(
        serialize_with = "super::le_arrays::serialize",
        deserialize_with = "super::le_arrays::deserialize"
    )]
    pub thresholds: Vec<f32>,
    /// The leaf values, tree after tree.
    #[serde(
        serialize_with = "super::le_arrays::serialize",
        deserialize_with = "super::le_arrays::deserialize"
    )]
    pub leaves: Vec<f32>,
    /// The splits packed for [`Forest::margins`], built at its first call
    /// from the fields above (once per forest, not per page: packing is a
    /// visible share of cleaning a small page). A forest changed after its
    /// first `margins` must be cloned first: a clone packs afresh.
    #[serde(skip)]
    packed: std::sync::OnceLock<Packed>,
}

/// A forest's splits laid out for the walks of [`Forest::margins`], 2^D
/// slots a tree (the splits and one unused slot).
#[derive(Debug, Default)]
struct Packed {
    /// (threshold, feature) of every slot, for the scalar walk: a step is one load.
    pairs: Vec<(f32, u32)>,
    /// The thresholds alone, for the vector walk.
    thresholds: Vec<f32>,
    /// Each slot's feature times [`simd::LANES`], the offset of its values
    /// in a vector group; for the vector walk.
    offsets: Vec<i32>,
    /// The largest feature of any split plus one: the narrowest rows the
    /// vector walk may read (its loads check no bounds).
    width: usize,
}

impl Clone for Forest {
    fn clone(&self) -> Forest {
        Forest {
            depth: self.depth,
            features: self.features.clone(),
            thresholds: self.thresholds.clone(),
            leaves: self.leaves.clone(),
            packed: std::sync::OnceLock::new(),
        }
    }
}

/// Forests are equal when their trees are (the packed copy aside).
impl PartialEq for Forest {
    fn eq(&self, other: &Forest) -> bool {
        self.depth == other.depth
            && self.features == other.features
            && self.thresholds == other.thresholds
            && self.leaves == other.leaves
    }
}

impl Forest {
    /// The number of trees.
    pub fn len(&self) -> usize {
        self.leaves.len() >> self.depth.min(31)
    }

    /// Whether the forest has no trees.
    pub fn is_empty(&self) -> bool {
        self.leaves.is_empty()
    }

    /// The sum of the trees' values for a row (of at least the width the
    /// forest was validated for, [`Forest::is_valid`]). The walk reads the
    /// packed splits ([`Forest::margins`]), compiled for each tree size, so
    /// that a step is one load with no bounds check on the tree: the same
    /// sum bit for bit as the plain walk, trees added in the same order.
    pub fn margin(&self, x: &[f32]) -> f32 {
        let depth = self.depth as usize;
        if !(1..=MAX_DEPTH).contains(&depth) {
            return self.plain_margin(x);
        }
        let (pairs, leaves) = (&self.packed().pairs, &self.leaves[..]);
        if pairs.len() != leaves.len() {
            // Packed before trees were added (see `packed`): the arrays.
            return self.plain_margin(x);
        }
        by_tree_size!(1usize << depth, S => walk_one::<S>(pairs, leaves, x))
    }

    /// [`Forest::margin`] of a row held in an array of [`PADDED`] values,
    /// the row's `len` first: the walk indexes the array by a split's
    /// feature as a byte, with no bounds check (the forest's splits read
    /// features below `len`, else this is [`Forest::margin`] of the row).
    /// The same sum bit for bit, trees added in the same order.
    pub fn padded_margin(&self, x: &[f32; PADDED], len: usize) -> f32 {
        let len = len.min(PADDED);
        let depth = self.depth as usize;
        if !(1..=MAX_DEPTH).contains(&depth) {
            return self.plain_margin(&x[..len]);
        }
        let packed = self.packed();
        let (pairs, leaves) = (&packed.pairs, &self.leaves[..]);
        if pairs.len() != leaves.len() || packed.width > len {
            return self.margin(&x[..len]);
        }
        by_tree_size!(1usize << depth, S => walk_padded::<S>(pairs, leaves, x))
    }

    /// [`Forest::margin`] by the split arrays as stored, for a forest of
    /// no valid depth (and for tests, as the reference).
    fn plain_margin(&self, x: &[f32]) -> f32 {
        let depth = self.depth as usize;
        let splits = (1usize << depth) - 1;
        let mut sum = 0.0;
        for (t, leaves) in self.leaves.chunks_exact(splits + 1).enumerate() {
            let features = &self.features[t * splits..(t + 1) * splits];
            let thresholds = &self.thresholds[t * splits..(t + 1) * splits];
            let mut k = 0usize;
            for _ in 0..depth {
                let right = x[features[k] as usize] >= thresholds[k];
                k = 2 * k + 1 + usize::from(right);
            }
            sum += leaves[k - splits];
        }
        sum
    }

    /// [`Forest::margin`] of every row, the same numbers bit for bit (each
    /// row's trees are summed in the same order), computed tree by tree
    /// over groups of `LANES` rows: a tree's walk is a chain of dependent
    /// loads, and walking several rows at once lets them overlap while the
    /// tree stays in cache. Row by row, `margin` is one of the largest
    /// costs of `clean -j 1`.
    ///
    /// The splits are first packed as (threshold, feature) pairs, 2^D slots
    /// a tree (one unused), so that a step is one load; the walk is compiled
    /// for each tree size (`walk`), so that its indices need no bounds
    /// checks; and the rows are regrouped feature-major. With four lanes
    /// rather than eight the lanes' state stays in registers. Together these
    /// spare the walk its bounds checks and register spills.
    ///
    /// Where the CPU has AVX-512F or AVX2 and the trees have at most 32
    /// slots, the rows go down sixteen or eight at a time in vector
    /// registers instead, every split tested for all of them (`simd`, the
    /// same sums bit for bit, and faster than the scalar walk).
    pub fn margins<R: AsRef<[f32]>>(&self, rows: &[R]) -> Vec<f32> {
        let depth = self.depth as usize;
        if !(1..=MAX_DEPTH).contains(&depth) {
            // Not a valid forest ([`Forest::is_valid`]): the plain walk.
            return rows.iter().map(|r| self.plain_margin(r.as_ref())).collect();
        }
        let splits = (1usize << depth) - 1;
        let slots = splits + 1;
        let mut out = vec![0.0f32; rows.len()];
        if rows.is_empty() || self.is_empty() {
            return out;
        }
        let packed = self.packed();
        let width = rows.iter().map(|r| r.as_ref().len()).min().unwrap_or(0);
        match simd::Unit::best() {
            Some(unit) if slots <= simd::MAX_SLOTS && packed.width <= width => {
                simd::margins(unit, packed, &self.leaves, slots, rows, width, &mut out);
            }
            _ => scalar_margins(packed, &self.leaves, slots, rows, width, &mut out),
        }
        out
    }

    /// [`Forest::margins`] by the vector walk on `unit`, for tests that
    /// compare each unit this CPU has with the scalar walk.
    #[cfg(test)]
    fn vector_margins<R: AsRef<[f32]>>(&self, unit: simd::Unit, rows: &[R]) -> Vec<f32> {
        let slots = 1usize << self.depth;
        let mut out = vec![0.0f32; rows.len()];
        let width = rows.iter().map(|r| r.as_ref().len()).min().unwrap_or(0);
        simd::margins(
            unit,
            self.packed(),
            &self.leaves,
            slots,
            rows,
            width,
            &mut out,
        );
        out
    }

    /// The splits laid out for the walks (made once, at the first call).
    fn packed(&self) -> &Packed {
        let splits = (1usize << self.depth) - 1;
        let slots = splits + 1;
        self.packed.get_or_init(|| {
            let mut packed = Packed {
                pairs: Vec::with_capacity(self.len() * slots),
                thresholds: Vec::with_capacity(self.len() * slots),
                offsets: Vec::with_capacity(self.len() * slots),
                width: self
                    .features
                    .iter()
                    .map(|&f| usize::from(f) + 1)
                    .max()
                    .unwrap_or(0),
            };
            for (t, f) in self
                .thresholds
                .chunks_exact(splits)
                .zip(self.features.chunks_exact(splits))
            {
                for (&t, &f) in t.iter().zip(f).chain([(&f32::MAX, &0)]) {
                    packed.pairs.push((t, u32::from(f)));
                    packed.thresholds.push(t);
                    packed.offsets.push(i32::from(f) * simd::LANES as i32);
                }
            }
            packed
        })
    }

    /// [`Forest::margins`] by the scalar walk alone, for tests that compare
    /// it with the vector walk.
    #[cfg(test)]
    fn scalar_margins<R: AsRef<[f32]>>(&self, rows: &[R]) -> Vec<f32> {
        let slots = 1usize << self.depth;
        let mut out = vec![0.0f32; rows.len()];
        let packed = self.packed();
        let width = rows.iter().map(|r| r.as_ref().len()).min().unwrap_or(0);
        scalar_margins(packed, &self.leaves, slots, rows, width, &mut out);
        out
    }

    /// Whether the arrays fit together and every split refers to a feature
    /// below `width` (a check for model files).
    pub fn is_valid(&self, width: usize) -> bool {
        let depth = self.depth as usize;
        if !(1..=MAX_DEPTH).contains(&depth) {
            return self.is_empty() && self.features.is_empty() && self.thresholds.is_empty();
        }
        let splits = (1usize << depth) - 1;
        let trees = self.leaves.len() / (splits + 1);
        self.leaves.len() == trees * (splits + 1)
            && self.features.len() == trees * splits
            && self.thresholds.len() == trees * splits
            && self.features.iter().all(|&f| (f as usize) < width)
            && self.thresholds.iter().all(|t| !t.is_nan())
            && self.leaves.iter().all(|v| v.is_finite())
    }

    /// Appends a tree grown as linked nodes, padded to the forest's depth.
    fn push_tree(&mut self, nodes: &[Node], root: usize) {
        let depth = self.depth as usize;
        let splits = (1usize << depth) - 1;
        let at_f = self.features.len();
        let at_l = self.leaves.len();
        self.features.resize(at_f + splits, 0);
        self.thresholds.resize(at_f + splits, f32::MAX);
        self.leaves.resize(at_l + splits + 1, 0.0);
        // (complete-tree index, linked node)
        let mut stack = vec![(0usize, root)];
        while let Some((k, n)) = stack.pop() {
            let node = &nodes[n];
            if k >= splits {
                self.leaves[at_l + k - splits] = node.value;
            } else if node.feature == LEAF {
                // Always left, the same leaf below.
                stack.push((2 * k + 1, n));
                stack.push((2 * k + 2, n));
            } else {
                self.features[at_f + k] = node.feature;
                self.thresholds[at_f + k] = node.threshold;
                stack.push((2 * k + 1, node.left as usize));
                stack.push((2 * k + 2, node.right as usize));
            }
        }
    }

    /// Fits trees to rows `x`, labels `y`, row weights `w`, starting from the
    /// log-odds `base` of each row.
    ///
    /// The rows' gradients, the nodes' histograms and the margins are
    /// computed on rayon's threads, each number as one thread computes it:
    /// the forest is the same bit for bit on any number of threads.
    pub fn fit(x: &[Vec<f32>], y: &[bool], w: &[f32], base: &[f32], cfg: Boost) -> Forest {
        use rayon::prelude::*;
        let n = x.len();
        let d = x.first().map_or(0, Vec::len).min(LEAF as usize);
        let mut forest = Forest {
            depth: cfg.depth.clamp(1, MAX_DEPTH) as u8,
            ..Forest::default()
        };
        if n == 0 || d == 0 {
            return forest;
        }
        let cuts = cut_points(x, d);
        let bins = binned(x, &cuts);
        // A row with a NaN among the features goes right at a split on it
        // (`NaN < threshold` is false) but sits in bin 0, left of every
        // cut: such rows are walked on their values, all others on their
        // bins, which give the same leaf (tree_value_binned). (The splits
        // themselves are chosen on the bins, NaN on the left, while
        // prediction sends NaN right: a known disagreement, kept because
        // changing either side changes the models.)
        let nan_rows: Vec<bool> = x
            .iter()
            .map(|r| r[..d].iter().any(|v| v.is_nan()))
            .collect();
        let mut margin: Vec<f32> = base.to_vec();
        let mut rng = 0x5eed_u64;
        let mut g = vec![0f64; n];
        let mut h = vec![0f64; n];
        for _ in 0..cfg.trees {
            // Row by row, so the same whatever the threads.
            (&mut g, &mut h, &margin)
                .into_par_iter()
                .zip(y.par_iter().zip(w))
                .with_min_len(ROWS_PER_TASK)
                .for_each(|((gi, hi, &m), (&yi, &wi))| {
                    let p = 1.0 / (1.0 + (-(m as f64)).exp());
                    let wi = wi as f64;
                    *gi = wi * (p - f64::from(u8::from(yi)));
                    *hi = (wi * p * (1.0 - p)).max(1e-12);
                });
            let rows: Vec<u32> = (0..n as u32)
                .filter(|_| splitmix(&mut rng) >> 63 == 0)
                .collect();
            let min_h = cfg.min_child_share * rows.iter().map(|&r| h[r as usize]).sum::<f64>();
            let ctx = Grow {
                bins: &bins,
                cuts: &cuts,
                d,
                g: &g,
                h: &h,
                cfg,
                min_h,
            };
            let mut nodes = Vec::new();
            grow(&mut nodes, &ctx, rows, forest.depth as usize);
            margin
                .par_iter_mut()
                .zip(x.par_iter().zip(bins.par_chunks(d)).zip(&nan_rows))
                .with_min_len(ROWS_PER_TASK)
                .for_each(|(m, ((xi, bi), &nan))| {
                    *m += if nan {
                        tree_value(&nodes, xi)
                    } else {
                        tree_value_binned(&nodes, bi)
                    }
                });
            forest.push_tree(&nodes, 0);
        }
        forest
    }
}

/// Rows `x` regrouped into `block` for the walks: groups of `L` rows, each
/// group feature-major (`group[feature][lane]`), `width` features a row;
/// the last group's missing lanes are 0 (their sums are never read), and
/// so are the cells past a row narrower than `width`.
///
/// Only those cells are zeroed: every other one is written. Filling the
/// whole block first (`block.fill`) wrote it twice, a chunk's 64 groups ×
/// `width` × `L` floats each time: 17 M of the 2,181 M instructions of
/// 148 WCXB pages (callgrind), where the compiler made it a `memset`.
fn regroup<const L: usize, R: AsRef<[f32]>>(rows: &[R], width: usize, block: &mut [[f32; L]]) {
    let n = rows.len();
    if !n.is_multiple_of(L) {
        let last = n / L;
        for cell in &mut block[last * width..(last + 1) * width] {
            cell[n % L..].fill(0.0);
        }
    }
    for (i, row) in rows.iter().enumerate() {
        let group = &mut block[(i / L) * width..(i / L + 1) * width];
        let row = row.as_ref();
        for (cell, &x) in group.iter_mut().zip(row) {
            cell[i % L] = x;
        }
        for cell in group.iter_mut().skip(row.len()) {
            cell[i % L] = 0.0;
        }
    }
}

/// The rows regrouped (`regroup`) `groups` groups of `L` at a time, each
/// chunk walked through every tree by `walk` (so that it stays in cache
/// while the trees go by), with the chunk's part of `out`: the loop of the
/// scalar walk and of each vector walk.
fn by_chunks<const L: usize, R: AsRef<[f32]>>(
    rows: &[R],
    width: usize,
    groups: usize,
    out: &mut [f32],
    mut walk: impl FnMut(&[[f32; L]], &mut [f32]),
) {
    let chunk_groups = groups.min(rows.len().div_ceil(L));
    let mut block = vec![[0.0f32; L]; chunk_groups * width];
    for (rows, out) in rows.chunks(groups * L).zip(out.chunks_mut(groups * L)) {
        let block = &mut block[..rows.len().div_ceil(L) * width];
        regroup(rows, width, block);
        walk(block, out);
    }
}

/// [`walk`] for one tree size.
type ScalarWalk = fn(&[(f32, u32)], &[f32], &[[f32; LANES]], usize, &mut [f32]);

/// The scalar walk of [`Forest::margins`], [`LANES`] rows at a time.
///
/// The rows a chunk at a time through every tree, so that the chunk stays
/// in cache while the trees go by (all rows tree after tree would sweep a
/// 10 MB page's 12 MB of rows 200 times, once a tree). In a chunk, the rows
/// are in groups of LANES, each group
/// feature-major: a step reads `group[feature][lane]`, one bounds check
/// and no row pointer to load per lane.
fn scalar_margins<R: AsRef<[f32]>>(
    packed: &Packed,
    leaves: &[f32],
    slots: usize,
    rows: &[R],
    width: usize,
    out: &mut [f32],
) {
    // The tree size as a constant.
    let walk: ScalarWalk = by_tree_size!(slots, S => walk::<S>);
    by_chunks::<LANES, R>(rows, width, CHUNK_GROUPS, out, |block, out| {
        walk(&packed.pairs, leaves, block, width, out)
    });
}

/// [`Forest::margins`]' walk over trees of `S` slots (2^D: the splits and
/// one unused slot; `S` leaves): adds each tree's leaf to each row's sum,
/// tree after tree, for a chunk of groups of [`LANES`] rows stored
/// feature-major.
fn walk<const S: usize>(
    packed: &[(f32, u32)],
    leaves: &[f32],
    block: &[[f32; LANES]],
    width: usize,
    out: &mut [f32],
) {
    let depth = S.trailing_zeros();
    let splits = S - 1;
    for (nodes, leaves) in packed.chunks_exact(S).zip(leaves.chunks_exact(S)) {
        let nodes: &[(f32, u32); S] = nodes.try_into().expect("S slots");
        let leaves: &[f32; S] = leaves.try_into().expect("S leaves");
        for (group, sums) in block.chunks_exact(width.max(1)).zip(out.chunks_mut(LANES)) {
            let mut k = [0usize; LANES];
            for _ in 0..depth {
                for (j, kj) in k.iter_mut().enumerate() {
                    let (threshold, feature) = nodes[*kj & (S - 1)];
                    let right = group[feature as usize][j] >= threshold;
                    *kj = 2 * *kj + 1 + usize::from(right);
                }
            }
            for (sum, kj) in sums.iter_mut().zip(k) {
                *sum += leaves[(kj - splits) & (S - 1)];
            }
        }
    }
}

/// [`Forest::margin`]'s walk of one row through trees of `S` slots (2^D:
/// the splits and one unused slot; `S` leaves), as [`walk`] walks a group.
fn walk_one<const S: usize>(packed: &[(f32, u32)], leaves: &[f32], x: &[f32]) -> f32 {
    let depth = S.trailing_zeros();
    let splits = S - 1;
    let mut sum = 0.0;
    for (nodes, leaves) in packed.chunks_exact(S).zip(leaves.chunks_exact(S)) {
        let nodes: &[(f32, u32); S] = nodes.try_into().expect("S slots");
        let leaves: &[f32; S] = leaves.try_into().expect("S leaves");
        let mut k = 0usize;
        for _ in 0..depth {
            let (threshold, feature) = nodes[k & (S - 1)];
            k = 2 * k + 1 + usize::from(x[feature as usize] >= threshold);
        }
        sum += leaves[(k - splits) & (S - 1)];
    }
    sum
}

/// The values a row of [`Forest::padded_margin`] holds: a byte indexes them.
pub const PADDED: usize = 256;

/// [`walk_one`] over a row of [`PADDED`] values, whose every feature of a
/// split (under 256: checked by the caller) indexes it as a byte. A step
/// keeps the slot's place in its level (`k`) apart from the level's first
/// slot (2^level - 1, a constant once the levels are unrolled), so that it
/// is one `lea`: the slot as one index (`2k + 1 + right`, as [`walk_one`]
/// keeps it) made the compiler rebuild it from the earlier levels' bits,
/// 44 instructions a tree of depth 4 where this takes 33.
fn walk_padded<const S: usize>(packed: &[(f32, u32)], leaves: &[f32], x: &[f32; PADDED]) -> f32 {
    let depth = S.trailing_zeros() as usize;
    let mut sum = 0.0;
    for (nodes, leaves) in packed.chunks_exact(S).zip(leaves.chunks_exact(S)) {
        let nodes: &[(f32, u32); S] = nodes.try_into().expect("S slots");
        let leaves: &[f32; S] = leaves.try_into().expect("S leaves");
        let (mut k, mut first) = (0usize, 0usize);
        for level in 0..depth {
            let (threshold, feature) = nodes[(first + k) & (S - 1)];
            k = 2 * k + usize::from(x[usize::from(feature as u8)] >= threshold);
            first += 1 << level;
        }
        sum += leaves[k & (S - 1)];
    }
    sum
}

/// The value of a linked tree (root at 0) for a row.
fn tree_value(nodes: &[Node], x: &[f32]) -> f32 {
    let mut i = 0;
    loop {
        let n = &nodes[i];
        if n.feature == LEAF {
            return n.value;
        }
        i = if x[n.feature as usize] < n.threshold {
            n.left
        } else {
            n.right
        } as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::learn::PARALLEL_CELLS;
    use super::*;

    /// The fit walks its trees on the rows' bins: for every row with no NaN
    /// the leaf is the one the values give, whatever the values (ties,
    /// adjacent floats whose midpoints coincide, ±0, infinities, more
    /// distinct values than bins, few of them).
    #[test]
    fn binned_walk_finds_the_leaf_the_values_find() {
        let awkward = [
            f32::NEG_INFINITY,
            -1.0,
            -0.0,
            0.0,
            1.0,
            1.0 + f32::EPSILON,
            1.0 + 2.0 * f32::EPSILON,
            f32::MAX,
            f32::INFINITY,
        ];
        let mut s = 11u64;
        let mut x = Vec::new();
        for _ in 0..3000 {
            let mut pick = || awkward[(splitmix(&mut s) % awkward.len() as u64) as usize];
            let (a, b) = (pick(), pick());
            let c = (splitmix(&mut s) % 5000) as f32 / 7.0;
            let e = if splitmix(&mut s).is_multiple_of(3) {
                f32::MAX
            } else {
                c
            };
            x.push(vec![a, b, c, e]);
        }
        let d = 4;
        let cuts = cut_points(&x, d);
        let bins = binned(&x, &cuts);
        let g: Vec<f64> = (0..x.len())
            .map(|_| (splitmix(&mut s) % 1000) as f64 / 500.0 - 1.0)
            .collect();
        let h = vec![0.25; x.len()];
        let cfg = Boost {
            depth: 6,
            min_child_share: 0.0005,
            ..Boost::default()
        };
        let ctx = Grow {
            bins: &bins,
            cuts: &cuts,
            d,
            g: &g,
            h: &h,
            cfg,
            min_h: cfg.min_child_share * h.iter().sum::<f64>(),
        };
        let mut nodes = Vec::new();
        grow(&mut nodes, &ctx, (0..x.len() as u32).collect(), cfg.depth);
        assert!(nodes.iter().filter(|n| n.feature != LEAF).count() > 10);
        for (r, row) in x.iter().enumerate() {
            let by_value = tree_value(&nodes, row);
            let by_bin = tree_value_binned(&nodes, &bins[r * d..(r + 1) * d]);
            assert_eq!(by_value.to_bits(), by_bin.to_bits(), "row {row:?}");
        }
    }

    /// XOR of two features: no linear model separates it; a few trees do.
    #[test]
    fn trees_learn_an_interaction() {
        let mut x = Vec::new();
        let mut y = Vec::new();
        let mut s = 7u64;
        for _ in 0..4000 {
            let a = (splitmix(&mut s) % 1000) as f32 / 1000.0;
            let b = (splitmix(&mut s) % 1000) as f32 / 1000.0;
            x.push(vec![1.0, a, b]);
            y.push((a > 0.5) != (b > 0.5));
        }
        let w = vec![1.0; x.len()];
        let base = vec![0.0; x.len()];
        let f = Forest::fit(&x, &y, &w, &base, Boost::default());
        assert!(f.is_valid(3));
        assert_eq!(f.len(), Boost::default().trees);
        assert!(
            !Forest {
                features: vec![3; f.features.len()],
                ..f.clone()
            }
            .is_valid(3),
            "a split on a feature past the row"
        );
        let right = x
            .iter()
            .zip(&y)
            .filter(|(r, l)| (f.margin(r) > 0.0) == **l)
            .count();
        assert!(right as f64 / x.len() as f64 > 0.97, "{right}");
        // All rows at once give each row's margin bit for bit, for any
        // number of rows (groups of LANES, chunks of groups, and remainders).
        for n in [
            0,
            1,
            LANES - 1,
            LANES,
            3 * LANES + 5,
            2 * CHUNK_GROUPS * LANES + 3,
        ] {
            let rows = &x[..n];
            let all = f.margins(rows);
            let one: Vec<f32> = rows.iter().map(|r| f.margin(r)).collect();
            assert_eq!(
                all.iter().map(|m| m.to_bits()).collect::<Vec<_>>(),
                one.iter().map(|m| m.to_bits()).collect::<Vec<_>>()
            );
        }
        // The same at every depth the walk is compiled for.
        for depth in 1..=MAX_DEPTH {
            let cfg = Boost {
                trees: 3,
                depth,
                ..Boost::default()
            };
            let f = Forest::fit(&x, &y, &w, &base, cfg);
            let rows = &x[..2 * LANES + 1];
            let one: Vec<u32> = rows.iter().map(|r| f.margin(r).to_bits()).collect();
            let all: Vec<u32> = f.margins(rows).iter().map(|m| m.to_bits()).collect();
            assert_eq!(all, one, "depth {depth}");
            let plain: Vec<u32> = rows.iter().map(|r| f.plain_margin(r).to_bits()).collect();
            assert_eq!(
                plain, one,
                "depth {depth}: the packed walk and the plain one"
            );
            // A padded row gives the same (and a row too narrow for the
            // forest's splits falls back to the plain walks).
            let padded: Vec<u32> = rows
                .iter()
                .map(|r| {
                    let mut p = [0f32; PADDED];
                    p[..r.len()].copy_from_slice(r);
                    p[r.len()..].fill(f32::NAN);
                    f.padded_margin(&p, r.len()).to_bits()
                })
                .collect();
            assert_eq!(padded, one, "depth {depth}: the padded walk");
        }
        // The scalar and the vector walks (where this CPU has the vector
        // one) give the same sums bit for bit at every depth, for row
        // counts around their groups and chunks, with NaN and infinite
        // values, and rows wider than the forest needs.
        let mut odd: Vec<Vec<f32>> = x[..300].to_vec();
        odd[7][1] = f32::NAN;
        odd[20][2] = f32::INFINITY;
        odd[33][1] = f32::NEG_INFINITY;
        odd[40].push(5.0);
        for depth in 1..=7 {
            let cfg = Boost {
                trees: 5,
                depth,
                ..Boost::default()
            };
            let f = Forest::fit(&x, &y, &w, &base, cfg);
            // Values equal to thresholds (the fitted cuts fall between the
            // data's values): `>=` sends them right in both walks.
            let mut odd = odd.clone();
            for (i, row) in odd.iter_mut().enumerate().skip(50).take(100) {
                let at = (i * 7) % f.features.len();
                row[usize::from(f.features[at])] = f.thresholds[at];
            }
            for n in [1, 15, 16, 17, 63, 64, 65, 130, 300] {
                let rows = &odd[..n];
                let one: Vec<u32> = rows.iter().map(|r| f.margin(r).to_bits()).collect();
                let scalar: Vec<u32> = f.scalar_margins(rows).iter().map(|m| m.to_bits()).collect();
                let all: Vec<u32> = f.margins(rows).iter().map(|m| m.to_bits()).collect();
                assert_eq!(scalar, one, "scalar, depth {depth}, {n} rows");
                assert_eq!(
                    all,
                    one,
                    "depth {depth}, {n} rows ({:?})",
                    simd::Unit::best()
                );
                for unit in simd::Unit::ALL.into_iter().filter(|u| u.present()) {
                    if depth <= 5 {
                        let v: Vec<u32> = f
                            .vector_margins(unit, rows)
                            .iter()
                            .map(|m| m.to_bits())
                            .collect();
                        assert_eq!(v, one, "{unit:?}, depth {depth}, {n} rows");
                    }
                }
            }
        }
        // A padded complete tree gives what its linked form gives, for
        // trees that stop early too (depth 7 on this data leaves short branches).
        let g: Vec<f64> = y.iter().map(|&l| if l { -0.5 } else { 0.5 }).collect();
        let h = vec![0.25; x.len()];
        let cuts = cut_points(&x, 3);
        let bins: Vec<u8> = x
            .iter()
            .flat_map(|r| {
                (0..3)
                    .map(|j| cuts[j].partition_point(|&t| t <= r[j]) as u8)
                    .collect::<Vec<_>>()
            })
            .collect();
        let cfg = Boost {
            depth: 7,
            min_child_share: 0.05,
            ..Boost::default()
        };
        let ctx = Grow {
            bins: &bins,
            cuts: &cuts,
            d: 3,
            g: &g,
            h: &h,
            cfg,
            min_h: 0.05 * 1000.0,
        };
        let mut nodes = Vec::new();
        grow(&mut nodes, &ctx, (0..x.len() as u32).collect(), 7);
        assert!(nodes.iter().any(|n| n.feature == LEAF), "leaves");
        let mut one = Forest {
            depth: 7,
            ..Forest::default()
        };
        one.push_tree(&nodes, 0);
        assert!(one.is_valid(3));
        for r in &x {
            assert_eq!(one.margin(r), tree_value(&nodes, r));
        }
        // Deterministic: the same data give the same forest.
        assert_eq!(f, Forest::fit(&x, &y, &w, &base, Boost::default()));
    }

    /// Histograms are split among threads by features, rows by rows: one
    /// thread and several grow the same forest bit for bit, on nodes large
    /// enough to be split (rows × features above `PARALLEL_CELLS`).
    #[test]
    fn the_same_forest_on_any_number_of_threads() {
        let d = 9;
        let n = PARALLEL_CELLS / d * 3;
        let mut s = 3u64;
        let (mut x, mut y) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for _ in 0..n {
            let row: Vec<f32> = (0..d)
                .map(|_| (splitmix(&mut s) % 1000) as f32 / 1000.0)
                .collect();
            y.push((row[0] > 0.5) != (row[1] > 0.3) || row[2] > 0.9);
            x.push(row);
        }
        let w: Vec<f32> = (0..n).map(|i| 1.0 + (i % 5) as f32 / 4.0).collect();
        let base = vec![0.1; n];
        let cfg = Boost {
            trees: 6,
            ..Boost::default()
        };
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| Forest::fit(&x, &y, &w, &base, cfg))
        };
        let one = on(1);
        assert!(!one.is_empty(), "trees were grown");
        for threads in [2, 4, 7] {
            assert_eq!(on(threads), one, "{threads} threads");
        }
    }
}
