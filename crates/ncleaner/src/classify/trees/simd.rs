//! The vector walk of [`super::Forest::margins`]: sixteen rows go down a
//! tree at once, in the lanes of one AVX-512 register, where the CPU has
//! AVX-512F (checked once at run time; the scalar walk otherwise) and the
//! trees have at most 32 slots (depth ≤ 5, the embedded models' depth).
//!
//! A tree of 32 slots fits in registers: its thresholds, its split
//! features and its leaves are two 16-float registers each, and one
//! two-register permute (`vpermt2ps`) looks up each lane's node. A step of
//! the walk is then two permutes, one gather of the sixteen rows' values of
//! their nodes' features, and a compare that sends each lane left or right.
//!
//! Measured and not kept: the same walk with AVX2, eight lanes and the
//! thresholds and features gathered from memory (three gathers a step) was
//! slower than the scalar walk on this project's machine (AMD EPYC: `clean
//! -j 1` 1.16 s against 1.05 s on BENCHMARKS.md's pages); interleaving four
//! groups' steps by hand gained nothing over letting the CPU overlap them.
//! (valgrind emulates no AVX-512: under callgrind the scalar walk runs, so
//! `scripts/profile callgrind` counts its instructions.)
//!
//! The sums are the scalar walk's bit for bit: each lane adds its row's
//! leaves in f32, tree after tree in the same order from 0, and the compare
//! is the same `x >= threshold` (false for NaN, as `>=` is).

use super::{Packed, regroup};

/// Rows walked at once by the vector walk: the lanes of a 512-bit register.
pub const LANES: usize = 16;

/// Groups of [`LANES`] rows taken through all the trees before the next
/// ones (4 groups of 16 rows of ~90 features: 23 KB, in L1; 2, 4 and 8
/// groups took the same time).
const GROUPS: usize = 4;

/// The most slots a tree may have for the vector walk: two registers.
pub const MAX_SLOTS: usize = 32;

/// Whether the vector walk can run on this CPU.
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The margins of `rows` (at least `width` features each, and `width` at
/// least `packed.width`) into `out`, by the vector walk, for trees of
/// `slots` slots.
///
/// # Panics
/// If the CPU lacks AVX-512F ([`available`]), the trees have more than
/// [`MAX_SLOTS`] slots, or the rows are narrower than the forest's splits
/// need: all are checked before any gather runs.
pub(super) fn margins<R: AsRef<[f32]>>(
    packed: &Packed,
    leaves: &[f32],
    slots: usize,
    rows: &[R],
    width: usize,
    out: &mut [f32],
) {
    assert!(available(), "the vector walk needs AVX-512F");
    assert!(slots.is_power_of_two() && (2..=MAX_SLOTS).contains(&slots));
    assert!(
        packed.width <= width && width > 0,
        "rows too narrow for the forest"
    );
    assert_eq!(packed.thresholds.len(), packed.offsets.len());
    assert_eq!(packed.thresholds.len(), leaves.len());
    assert!(packed.thresholds.len().is_multiple_of(slots));
    let chunk_groups = GROUPS.min(rows.len().div_ceil(LANES));
    let mut block = vec![[0.0f32; LANES]; chunk_groups * width];
    for (rows, out) in rows
        .chunks(GROUPS * LANES)
        .zip(out.chunks_mut(GROUPS * LANES))
    {
        let block = &mut block[..rows.len().div_ceil(LANES) * width];
        regroup(rows, width, block);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX-512F is present (asserted above). The one gather
        // reads lane j of a group at feature × LANES + j, with feature <
        // packed.width ≤ width: inside the group's width × LANES floats.
        unsafe {
            walk(packed, leaves, slots, block, width, out);
        }
    }
}

/// The first sixteen values of `values` (fewer padded with their type's
/// default, which no walk reads) as a register of floats.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn floats(values: &[f32]) -> std::arch::x86_64::__m512 {
    let mut lanes = [0.0; LANES];
    for (l, &v) in lanes.iter_mut().zip(values) {
        *l = v;
    }
    // SAFETY: `lanes` holds sixteen floats.
    unsafe { std::arch::x86_64::_mm512_loadu_ps(lanes.as_ptr()) }
}

/// [`floats`] for integers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn integers(values: &[i32]) -> std::arch::x86_64::__m512i {
    let mut lanes = [0; LANES];
    for (l, &v) in lanes.iter_mut().zip(values) {
        *l = v;
    }
    // SAFETY: `lanes` holds sixteen 32-bit integers.
    unsafe { std::arch::x86_64::_mm512_loadu_si512(lanes.as_ptr().cast()) }
}

/// The walk of one chunk of groups (at most [`GROUPS`]), tree after
/// tree; see [`margins`] for what it may assume.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn walk(
    packed: &Packed,
    leaves: &[f32],
    slots: usize,
    block: &[[f32; LANES]],
    width: usize,
    out: &mut [f32],
) {
    use std::arch::x86_64::*;
    let depth = slots.trailing_zeros();
    let groups = block.len() / width;
    let mut sums = [_mm512_setzero_ps(); GROUPS];
    let lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let one = _mm512_set1_epi32(1);
    let splits = _mm512_set1_epi32(slots as i32 - 1);
    for ((thresholds, offsets), leaves) in packed
        .thresholds
        .chunks_exact(slots)
        .zip(packed.offsets.chunks_exact(slots))
        .zip(leaves.chunks_exact(slots))
    {
        // The tree in six registers: slots 0–15 and 16–31 (a smaller tree
        // uses the first only).
        let high = slots.min(16);
        let (t0, t1) = (floats(thresholds), floats(&thresholds[high..]));
        let (f0, f1) = (integers(offsets), integers(&offsets[high..]));
        let (l0, l1) = (floats(leaves), floats(&leaves[high..]));
        for (group, sum) in block.chunks_exact(width).zip(&mut sums[..groups]) {
            let values = group.as_ptr().cast::<f32>();
            let mut k = _mm512_setzero_si512();
            for _ in 0..depth {
                let threshold = _mm512_permutex2var_ps(t0, k, t1);
                let offset = _mm512_add_epi32(_mm512_permutex2var_epi32(f0, k, f1), lane);
                // SAFETY: in bounds, as `margins` sets out.
                let x = unsafe { _mm512_i32gather_ps::<4>(offset, values) };
                let right = _mm512_cmp_ps_mask::<_CMP_GE_OQ>(x, threshold);
                // k ← 2k + 1, and one more where the row goes right.
                let next = _mm512_add_epi32(_mm512_add_epi32(k, k), one);
                k = _mm512_mask_add_epi32(next, right, next, one);
            }
            let leaf = _mm512_permutex2var_ps(l0, _mm512_sub_epi32(k, splits), l1);
            *sum = _mm512_add_ps(*sum, leaf);
        }
    }
    for (sum, out) in sums[..groups].iter().zip(out.chunks_mut(LANES)) {
        let mut lanes = [0.0f32; LANES];
        // SAFETY: `lanes` holds the register's sixteen floats.
        unsafe { _mm512_storeu_ps(lanes.as_mut_ptr(), *sum) };
        for (o, v) in out.iter_mut().zip(lanes) {
            *o = v;
        }
    }
}
