//! The vector walk of [`super::Forest::margins`]: sixteen rows go down a
//! tree at once, in the lanes of one AVX-512 register, where the CPU has
//! AVX-512F (checked once at run time; the scalar walk otherwise) and the
//! trees have at most 32 slots (depth ≤ 5, the embedded models' depth).
//!
//! Every split of the tree is tested for the sixteen rows, not only those
//! on each row's path: the rows are stored feature-major, so a split's
//! feature is one load of sixteen values, compared with the
//! threshold broadcast, and the sixteen outcomes become bit j of each
//! lane's word (a masked OR). A row's path is then read from its word in D
//! shifts (node k: right if bit k is set; k ← 2k + 1 + bit) and its leaf
//! looked up among the tree's 32 by a two-register permute (`vpermt2ps`).
//! There are no gathers, and 31 splits cost 31 loads, compares and ORs for
//! sixteen rows where the scalar walk takes about 8 instructions a row a
//! level.
//!
//! Measured (`clean -j 1` on BENCHMARKS.md's 53 MB of pages, `perf stat`):
//! the scalar walk 0.87–0.92 s; a first vector walk that followed each
//! lane's path with a gather of the rows' values a level (and the nodes
//! looked up by permutes) 0.945 s against the scalar walk's 0.997 s in an
//! earlier run; this one 0.81 s. Left out: the path walk with AVX2, eight
//! lanes and three gathers a level, slower than the scalar walk on this
//! project's machine (AMD EPYC: gathers are slow there). valgrind emulates
//! no AVX-512: under callgrind the scalar walk runs, so `scripts/profile
//! callgrind` counts its instructions.
//!
//! The sums are the scalar walk's bit for bit: each split is the same
//! compare, `x >= threshold` (false for NaN, as `>=` is), so each row
//! reaches the same leaf, and each lane adds its row's leaves in f32, tree
//! after tree in the same order from 0.

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
/// need: all are checked before any vector load runs.
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
        // SAFETY: AVX-512F is present (asserted above). A split's load
        // reads the sixteen floats at feature × LANES of a group, with
        // feature < packed.width ≤ width: inside the group's width × LANES
        // floats.
        unsafe {
            // The tree size as a constant: the splits' loop unrolled.
            match slots {
                2 => walk::<2>(packed, leaves, block, width, out),
                4 => walk::<4>(packed, leaves, block, width, out),
                8 => walk::<8>(packed, leaves, block, width, out),
                16 => walk::<16>(packed, leaves, block, width, out),
                _ => walk::<32>(packed, leaves, block, width, out),
            }
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

/// The walk of one chunk of groups (at most [`GROUPS`]), tree after tree,
/// for trees of `S` slots (`S − 1` splits, `S` leaves); see [`margins`] for
/// what it may assume.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn walk<const S: usize>(
    packed: &Packed,
    leaves: &[f32],
    block: &[[f32; LANES]],
    width: usize,
    out: &mut [f32],
) {
    use std::arch::x86_64::*;
    let depth = S.trailing_zeros();
    let groups = block.len() / width;
    let mut sums = [_mm512_setzero_ps(); GROUPS];
    let one = _mm512_set1_epi32(1);
    let first_leaf = _mm512_set1_epi32(S as i32 - 1);
    for ((thresholds, offsets), leaves) in packed
        .thresholds
        .chunks_exact(S)
        .zip(packed.offsets.chunks_exact(S))
        .zip(leaves.chunks_exact(S))
    {
        let thresholds: &[f32; S] = thresholds.try_into().expect("S slots");
        let offsets: &[i32; S] = offsets.try_into().expect("S slots");
        // The leaves in two registers: 0–15 and 16–31 (a smaller tree uses
        // the first only).
        let (l0, l1) = (floats(leaves), floats(&leaves[S.min(16)..]));
        for (group, sum) in block.chunks_exact(width).zip(&mut sums[..groups]) {
            let values = group.as_ptr().cast::<f32>();
            // Bit j of a lane's word: its row goes right at split j. Two
            // words, even and odd splits, halve the chain of ORs.
            let split = |j: usize, w: __m512i| {
                // SAFETY: offsets[j] + 16 ≤ width × LANES, as `margins` sets out.
                let x = unsafe { _mm512_loadu_ps(values.add(offsets[j] as usize)) };
                let right = _mm512_cmp_ps_mask::<_CMP_GE_OQ>(x, _mm512_set1_ps(thresholds[j]));
                _mm512_mask_or_epi32(w, right, w, _mm512_set1_epi32(1 << j))
            };
            let (mut even, mut odd) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            let mut j = 0;
            while j + 1 < S - 1 {
                even = split(j, even);
                odd = split(j + 1, odd);
                j += 2;
            }
            if j < S - 1 {
                even = split(j, even);
            }
            let word = _mm512_or_si512(even, odd);
            // Down the tree: k ← 2k + 1 + (bit k of the word).
            let mut k = _mm512_setzero_si512();
            for _ in 0..depth {
                let right = _mm512_and_si512(_mm512_srlv_epi32(word, k), one);
                k = _mm512_add_epi32(_mm512_add_epi32(_mm512_add_epi32(k, k), one), right);
            }
            let leaf = _mm512_permutex2var_ps(l0, _mm512_sub_epi32(k, first_leaf), l1);
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
