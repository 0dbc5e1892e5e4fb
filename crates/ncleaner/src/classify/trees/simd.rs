//! The vector walk of [`super::Forest::margins`]: sixteen rows go down a
//! tree at once in the lanes of an AVX-512 register where the CPU has
//! AVX-512F, eight in an AVX2 register where it has AVX2 only (checked once
//! at run time; the scalar walk otherwise), for trees of at most 32 slots
//! (depth ≤ 5, the embedded models' depth).
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
//! With AVX2 the same splits, bits and path take eight rows, and the leaf
//! is looked up among four registers of eight by permutes and blends.
//!
//! Testing every split beats following each lane's path with a gather of
//! the rows' values a level, which gathers make slow on some CPUs (AMD
//! EPYC among them); the path walk is not used. The AVX-512 walk is the
//! fastest where the CPU has it, then AVX2, then the scalar walk
//! (docs/benchmarks-log.md has the timings). valgrind emulates no AVX-512
//! and reports AVX2, so callgrind runs the AVX2 walk: `scripts/profile
//! callgrind` counts its instructions.
//!
//! The sums are the scalar walk's bit for bit: each split is the same
//! compare, `x >= threshold` (false for NaN, as `>=` is), so each row
//! reaches the same leaf, and each lane adds its row's leaves in f32, tree
//! after tree in the same order from 0.

use super::{Packed, by_chunks};

/// Rows walked at once by the AVX-512 walk: the lanes of a 512-bit register.
pub const LANES: usize = 16;

/// Groups of lanes' rows taken through all the trees before the next ones
/// (4 groups of 16 rows of ~90 features: 23 KB, in L1; 2, 4 and 8 groups
/// took the same time).
const GROUPS: usize = 4;

/// The most slots a tree may have for the vector walk: 32 leaves in
/// registers, 31 splits in the bits of a lane.
pub const MAX_SLOTS: usize = 32;

/// The vector units the walk runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// AVX-512F: sixteen rows at a time.
    Avx512,
    /// AVX2: eight rows at a time.
    Avx2,
}

impl Unit {
    /// Every unit, the widest first.
    pub const ALL: [Unit; 2] = [Unit::Avx512, Unit::Avx2];

    /// Whether this CPU has the unit (checked once, then cached by the
    /// standard library).
    pub fn present(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match self {
                Unit::Avx512 => std::is_x86_feature_detected!("avx512f"),
                Unit::Avx2 => std::is_x86_feature_detected!("avx2"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// The widest unit this CPU has, if any.
    pub fn best() -> Option<Unit> {
        Unit::ALL.into_iter().find(|u| u.present())
    }
}

/// The margins of `rows` (at least `width` features each, and `width` at
/// least `packed.width`) into `out`, by the vector walk on `unit`, for
/// trees of `slots` slots.
///
/// # Panics
/// If the CPU lacks the unit ([`Unit::present`]), the trees have more than
/// [`MAX_SLOTS`] slots, or the rows are narrower than the forest's splits
/// need: all are checked before any vector load runs.
pub(super) fn margins<R: AsRef<[f32]>>(
    unit: Unit,
    packed: &Packed,
    leaves: &[f32],
    slots: usize,
    rows: &[R],
    width: usize,
    out: &mut [f32],
) {
    assert!(unit.present(), "the vector walk needs {unit:?}");
    assert!(slots.is_power_of_two() && (2..=MAX_SLOTS).contains(&slots));
    assert!(
        packed.width <= width && width > 0,
        "rows too narrow for the forest"
    );
    assert_eq!(packed.thresholds.len(), packed.offsets.len());
    assert_eq!(packed.thresholds.len(), leaves.len());
    assert!(packed.thresholds.len().is_multiple_of(slots));
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (packed, leaves, rows, out);
    #[cfg(target_arch = "x86_64")]
    match unit {
        // SAFETY: AVX-512F is present (asserted above). A split's load
        // reads the sixteen floats at feature × 16 of a group, with
        // feature < packed.width ≤ width: inside the group's width × 16
        // floats.
        Unit::Avx512 => by_chunks::<16, R>(rows, width, GROUPS, out, |block, out| unsafe {
            // The tree size as a constant: the splits' loop unrolled.
            match slots {
                2 => walk16::<2>(packed, leaves, block, width, out),
                4 => walk16::<4>(packed, leaves, block, width, out),
                8 => walk16::<8>(packed, leaves, block, width, out),
                16 => walk16::<16>(packed, leaves, block, width, out),
                _ => walk16::<32>(packed, leaves, block, width, out),
            }
        }),
        // SAFETY: AVX2 is present (asserted above); the loads as above,
        // eight floats at feature × 8 of a group of width × 8.
        Unit::Avx2 => by_chunks::<8, R>(rows, width, GROUPS, out, |block, out| unsafe {
            match slots {
                2 => walk8::<2>(packed, leaves, block, width, out),
                4 => walk8::<4>(packed, leaves, block, width, out),
                8 => walk8::<8>(packed, leaves, block, width, out),
                16 => walk8::<16>(packed, leaves, block, width, out),
                _ => walk8::<32>(packed, leaves, block, width, out),
            }
        }),
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
unsafe fn walk16<const S: usize>(
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

/// [`walk16`] with AVX2, eight rows at a time: the same splits, bits and
/// path; the leaf looked up among four registers of eight by permutes and
/// blends.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn walk8<const S: usize>(
    packed: &Packed,
    leaves: &[f32],
    block: &[[f32; 8]],
    width: usize,
    out: &mut [f32],
) {
    use std::arch::x86_64::*;
    let depth = S.trailing_zeros();
    let groups = block.len() / width;
    let mut sums = [_mm256_setzero_ps(); GROUPS];
    let one = _mm256_set1_epi32(1);
    let first_leaf = _mm256_set1_epi32(S as i32 - 1);
    let (seven, fifteen, twenty_three) = (
        _mm256_set1_epi32(7),
        _mm256_set1_epi32(15),
        _mm256_set1_epi32(23),
    );
    let eight = |values: &[f32]| {
        let mut lanes = [0.0f32; 8];
        for (l, &v) in lanes.iter_mut().zip(values) {
            *l = v;
        }
        // SAFETY: `lanes` holds eight floats.
        unsafe { _mm256_loadu_ps(lanes.as_ptr()) }
    };
    for ((thresholds, offsets), leaves) in packed
        .thresholds
        .chunks_exact(S)
        .zip(packed.offsets.chunks_exact(S))
        .zip(leaves.chunks_exact(S))
    {
        let thresholds: &[f32; S] = thresholds.try_into().expect("S slots");
        let offsets: &[i32; S] = offsets.try_into().expect("S slots");
        // The leaves in four registers of eight (a smaller tree uses the
        // first ones only).
        let part = |q: usize| eight(leaves.get(8 * q..).unwrap_or(&[]));
        let (q0, q1, q2, q3) = (part(0), part(1), part(2), part(3));
        for (group, sum) in block.chunks_exact(width).zip(&mut sums[..groups]) {
            let values = group.as_ptr().cast::<f32>();
            let split = |j: usize, w: __m256i| {
                // Packed offsets are feature × 16; a group here is feature × 8.
                // SAFETY: offsets[j] / 2 + 8 ≤ width × 8, as `margins` sets out.
                let x = unsafe { _mm256_loadu_ps(values.add(offsets[j] as usize / 2)) };
                let right = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_GE_OQ>(
                    x,
                    _mm256_set1_ps(thresholds[j]),
                ));
                _mm256_or_si256(w, _mm256_and_si256(right, _mm256_set1_epi32(1 << j)))
            };
            let (mut even, mut odd) = (_mm256_setzero_si256(), _mm256_setzero_si256());
            let mut j = 0;
            while j + 1 < S - 1 {
                even = split(j, even);
                odd = split(j + 1, odd);
                j += 2;
            }
            if j < S - 1 {
                even = split(j, even);
            }
            let word = _mm256_or_si256(even, odd);
            let mut k = _mm256_setzero_si256();
            for _ in 0..depth {
                let right = _mm256_and_si256(_mm256_srlv_epi32(word, k), one);
                k = _mm256_add_epi32(_mm256_add_epi32(_mm256_add_epi32(k, k), one), right);
            }
            // Leaf i = k − (S − 1): lane i mod 8 of register i / 8.
            let i = _mm256_sub_epi32(k, first_leaf);
            let mut leaf = _mm256_permutevar8x32_ps(q0, i);
            for (q, above) in [(q1, seven), (q2, fifteen), (q3, twenty_three)] {
                let from_q = _mm256_castsi256_ps(_mm256_cmpgt_epi32(i, above));
                leaf = _mm256_blendv_ps(leaf, _mm256_permutevar8x32_ps(q, i), from_q);
            }
            *sum = _mm256_add_ps(*sum, leaf);
        }
    }
    for (sum, out) in sums[..groups].iter().zip(out.chunks_mut(8)) {
        let mut lanes = [0.0f32; 8];
        // SAFETY: `lanes` holds the register's eight floats.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), *sum) };
        for (o, v) in out.iter_mut().zip(lanes) {
            *o = v;
        }
    }
}
