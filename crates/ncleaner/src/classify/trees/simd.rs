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
            by_tree_size!(vector: slots, S => walk16::<S>(packed, leaves, block, width, out))
        }),
        // SAFETY: AVX2 is present (asserted above); the loads as above,
        // eight floats at feature × 8 of a group of width × 8.
        Unit::Avx2 => by_chunks::<8, R>(rows, width, GROUPS, out, |block, out| unsafe {
            by_tree_size!(vector: slots, S => walk8::<S>(packed, leaves, block, width, out))
        }),
    }
}

/// The walk of one chunk of groups (at most [`GROUPS`]) on AVX-512F:
/// [`walk`] with [`Avx512`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn walk16<const S: usize>(
    packed: &Packed,
    leaves: &[f32],
    block: &[[f32; 16]],
    width: usize,
    out: &mut [f32],
) {
    // SAFETY: as `walk` asks, which `margins` sets out; AVX-512F is enabled.
    unsafe { walk::<Avx512, S>(packed, leaves, block, width, out) }
}

/// The walk of one chunk of groups on AVX2: [`walk`] with [`Avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn walk8<const S: usize>(
    packed: &Packed,
    leaves: &[f32],
    block: &[[f32; 8]],
    width: usize,
    out: &mut [f32],
) {
    // SAFETY: as `walk` asks, which `margins` sets out; AVX2 is enabled.
    unsafe { walk::<Avx2, S>(packed, leaves, block, width, out) }
}

/// The operations of the walk on one vector unit's registers: `LANES`
/// floats (`F`), `LANES` words (`W`), a tree's leaves (`Leaves`). Each is
/// inlined into the walk of its unit ([`walk16`], [`walk8`]), which
/// enables the unit's instructions; called elsewhere they are undefined.
#[cfg(target_arch = "x86_64")]
trait Vector {
    /// Rows walked at once: the lanes of a register.
    const LANES: usize;
    /// A row group's values of one feature, `[f32; LANES]`.
    type Group;
    /// A register of floats.
    type F: Copy;
    /// A register of words.
    type W: Copy;
    /// The leaves of a tree of at most [`MAX_SLOTS`] slots, in registers.
    type Leaves: Copy;
    /// Every lane 0.
    unsafe fn zero() -> Self::F;
    /// Every lane `v`.
    unsafe fn splat(v: i32) -> Self::W;
    unsafe fn or(a: Self::W, b: Self::W) -> Self::W;
    unsafe fn and(a: Self::W, b: Self::W) -> Self::W;
    unsafe fn add(a: Self::W, b: Self::W) -> Self::W;
    unsafe fn sub(a: Self::W, b: Self::W) -> Self::W;
    /// Each lane of `a` shifted right by its lane of `by`.
    unsafe fn shift_right(a: Self::W, by: Self::W) -> Self::W;
    /// `w` with the bits of `bit` set in the lanes whose value among the
    /// `LANES` floats at `x` is at least `threshold` (`x >= threshold`:
    /// false for NaN).
    unsafe fn split(w: Self::W, x: *const f32, threshold: f32, bit: i32) -> Self::W;
    /// The leaves of a tree (its `S` leaves; the registers padded with 0).
    unsafe fn leaves(tree: &[f32]) -> Self::Leaves;
    /// Each lane's leaf `i` (0 ≤ i < 32).
    unsafe fn leaf(leaves: Self::Leaves, i: Self::W) -> Self::F;
    unsafe fn add_floats(a: Self::F, b: Self::F) -> Self::F;
    /// The lanes into `out` (at most `LANES` of them).
    unsafe fn store(a: Self::F, out: &mut [f32]);
}

/// AVX-512F: sixteen rows at a time, a tree's 32 leaves in two registers
/// (`vpermt2ps` looks a leaf up).
#[cfg(target_arch = "x86_64")]
struct Avx512;

#[cfg(target_arch = "x86_64")]
impl Vector for Avx512 {
    const LANES: usize = 16;
    type Group = [f32; 16];
    type F = std::arch::x86_64::__m512;
    type W = std::arch::x86_64::__m512i;
    type Leaves = (Self::F, Self::F);

    #[inline(always)]
    unsafe fn zero() -> Self::F {
        unsafe { std::arch::x86_64::_mm512_setzero_ps() }
    }

    #[inline(always)]
    unsafe fn splat(v: i32) -> Self::W {
        unsafe { std::arch::x86_64::_mm512_set1_epi32(v) }
    }

    #[inline(always)]
    unsafe fn or(a: Self::W, b: Self::W) -> Self::W {
        unsafe { std::arch::x86_64::_mm512_or_si512(a, b) }
    }

    #[inline(always)]
    unsafe fn and(a: Self::W, b: Self::W) -> Self::W {
        unsafe { std::arch::x86_64::_mm512_and_si512(a, b) }
    }

    #[inline(always)]
    unsafe fn add(a: Self::W, b: Self::W) -> Self::W {
        unsafe { std::arch::x86_64::_mm512_add_epi32(a, b) }
    }

    #[inline(always)]
    unsafe fn sub(a: Self::W, b: Self::W) -> Self::W {
        unsafe { std::arch::x86_64::_mm512_sub_epi32(a, b) }
    }

    #[inline(always)]
    unsafe fn shift_right(a: Self::W, by: Self::W) -> Self::W {
        unsafe { std::arch::x86_64::_mm512_srlv_epi32(a, by) }
    }

    #[inline(always)]
    unsafe fn split(w: Self::W, x: *const f32, threshold: f32, bit: i32) -> Self::W {
        use std::arch::x86_64::*;
        unsafe {
            let x = _mm512_loadu_ps(x);
            let right = _mm512_cmp_ps_mask::<_CMP_GE_OQ>(x, _mm512_set1_ps(threshold));
            _mm512_mask_or_epi32(w, right, w, _mm512_set1_epi32(bit))
        }
    }

    #[inline(always)]
    unsafe fn leaves(tree: &[f32]) -> Self::Leaves {
        // 0–15 and 16–31 (a smaller tree uses the first only).
        unsafe { (floats(tree), floats(&tree[tree.len().min(16)..])) }
    }

    #[inline(always)]
    unsafe fn leaf(leaves: Self::Leaves, i: Self::W) -> Self::F {
        unsafe { std::arch::x86_64::_mm512_permutex2var_ps(leaves.0, i, leaves.1) }
    }

    #[inline(always)]
    unsafe fn add_floats(a: Self::F, b: Self::F) -> Self::F {
        unsafe { std::arch::x86_64::_mm512_add_ps(a, b) }
    }

    #[inline(always)]
    unsafe fn store(a: Self::F, out: &mut [f32]) {
        let mut lanes = [0.0f32; 16];
        // SAFETY: `lanes` holds the register's sixteen floats.
        unsafe { std::arch::x86_64::_mm512_storeu_ps(lanes.as_mut_ptr(), a) };
        for (o, v) in out.iter_mut().zip(lanes) {
            *o = v;
        }
    }
}

/// AVX2: eight rows at a time, a tree's 32 leaves in four registers of
/// eight (a leaf looked up by permutes and blends).
#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Vector for Avx2 {
    const LANES: usize = 8;
    type Group = [f32; 8];
    type F = std::arch::x86_64::__m256;
    type W = std::arch::x86_64::__m256i;
    type Leaves = [Self::F; 4];

    #[inline(always)]
    unsafe fn zero() -> Self::F {
        unsafe { std::arch::x86_64::_mm256_setzero_ps() }
    }

    #[inline(always)]
    unsafe fn splat(v: i32) -> Self::W {
        unsafe { std::arch::x86_64::_mm256_set1_epi32(v) }
    }

    #[inline(always)]
    unsafe fn or(a: Self::W, b: Self::W) -> Self::W {
        unsafe { std::arch::x86_64::_mm256_or_si256(a, b) }
    }

    #[inline(always)]
    unsafe fn and(a: Self::W, b: Self::W) -> Self::W {
        unsafe { std::arch::x86_64::_mm256_and_si256(a, b) }
    }

    #[inline(always)]
    unsafe fn add(a: Self::W, b: Self::W) -> Self::W {
        unsafe { std::arch::x86_64::_mm256_add_epi32(a, b) }
    }

    #[inline(always)]
    unsafe fn sub(a: Self::W, b: Self::W) -> Self::W {
        unsafe { std::arch::x86_64::_mm256_sub_epi32(a, b) }
    }

    #[inline(always)]
    unsafe fn shift_right(a: Self::W, by: Self::W) -> Self::W {
        unsafe { std::arch::x86_64::_mm256_srlv_epi32(a, by) }
    }

    #[inline(always)]
    unsafe fn split(w: Self::W, x: *const f32, threshold: f32, bit: i32) -> Self::W {
        use std::arch::x86_64::*;
        unsafe {
            let x = _mm256_loadu_ps(x);
            let right =
                _mm256_castps_si256(_mm256_cmp_ps::<_CMP_GE_OQ>(x, _mm256_set1_ps(threshold)));
            _mm256_or_si256(w, _mm256_and_si256(right, _mm256_set1_epi32(bit)))
        }
    }

    #[inline(always)]
    unsafe fn leaves(tree: &[f32]) -> Self::Leaves {
        let eight = |q: usize| {
            let mut lanes = [0.0f32; 8];
            for (l, &v) in lanes.iter_mut().zip(tree.get(8 * q..).unwrap_or(&[])) {
                *l = v;
            }
            // SAFETY: `lanes` holds eight floats.
            unsafe { std::arch::x86_64::_mm256_loadu_ps(lanes.as_ptr()) }
        };
        // A smaller tree uses the first ones only.
        [eight(0), eight(1), eight(2), eight(3)]
    }

    #[inline(always)]
    unsafe fn leaf(leaves: Self::Leaves, i: Self::W) -> Self::F {
        use std::arch::x86_64::*;
        unsafe {
            // Leaf i: lane i mod 8 of register i / 8.
            let mut leaf = _mm256_permutevar8x32_ps(leaves[0], i);
            for (q, above) in [(leaves[1], 7), (leaves[2], 15), (leaves[3], 23)] {
                let from_q = _mm256_castsi256_ps(_mm256_cmpgt_epi32(i, _mm256_set1_epi32(above)));
                leaf = _mm256_blendv_ps(leaf, _mm256_permutevar8x32_ps(q, i), from_q);
            }
            leaf
        }
    }

    #[inline(always)]
    unsafe fn add_floats(a: Self::F, b: Self::F) -> Self::F {
        unsafe { std::arch::x86_64::_mm256_add_ps(a, b) }
    }

    #[inline(always)]
    unsafe fn store(a: Self::F, out: &mut [f32]) {
        let mut lanes = [0.0f32; 8];
        // SAFETY: `lanes` holds the register's eight floats.
        unsafe { std::arch::x86_64::_mm256_storeu_ps(lanes.as_mut_ptr(), a) };
        for (o, v) in out.iter_mut().zip(lanes) {
            *o = v;
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

/// The walk of one chunk of groups (at most [`GROUPS`]) of `V::LANES` rows,
/// tree after tree, for trees of `S` slots (`S − 1` splits, `S` leaves),
/// on the vector unit `V`; see [`margins`] for what it may assume. Inlined
/// into [`walk16`] and [`walk8`], which enable their unit.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn walk<V: Vector, const S: usize>(
    packed: &Packed,
    leaves: &[f32],
    block: &[V::Group],
    width: usize,
    out: &mut [f32],
) {
    unsafe {
        let depth = S.trailing_zeros();
        let groups = block.len() / width;
        let mut sums = [V::zero(); GROUPS];
        let one = V::splat(1);
        let first_leaf = V::splat(S as i32 - 1);
        for ((thresholds, offsets), leaves) in packed
            .thresholds
            .chunks_exact(S)
            .zip(packed.offsets.chunks_exact(S))
            .zip(leaves.chunks_exact(S))
        {
            let thresholds: &[f32; S] = thresholds.try_into().expect("S slots");
            let offsets: &[i32; S] = offsets.try_into().expect("S slots");
            let leaves = V::leaves(leaves);
            for (group, sum) in block.chunks_exact(width).zip(&mut sums[..groups]) {
                let values = group.as_ptr().cast::<f32>();
                // Bit j of a lane's word: its row goes right at split j. Two
                // words, even and odd splits, halve the chain of ORs.
                let split = |j: usize, w: V::W| {
                    // Packed offsets are feature × 16; a group here is
                    // feature × LANES.
                    // SAFETY: offsets[j] / (16 / LANES) + LANES ≤ width × LANES,
                    // as `margins` sets out.
                    let x = values.add(offsets[j] as usize / (LANES / V::LANES));
                    V::split(w, x, thresholds[j], 1 << j)
                };
                let (mut even, mut odd) = (V::splat(0), V::splat(0));
                let mut j = 0;
                while j + 1 < S - 1 {
                    even = split(j, even);
                    odd = split(j + 1, odd);
                    j += 2;
                }
                if j < S - 1 {
                    even = split(j, even);
                }
                let word = V::or(even, odd);
                // Down the tree: k ← 2k + 1 + (bit k of the word).
                let mut k = V::splat(0);
                for _ in 0..depth {
                    let right = V::and(V::shift_right(word, k), one);
                    k = V::add(V::add(V::add(k, k), one), right);
                }
                let leaf = V::leaf(leaves, V::sub(k, first_leaf));
                *sum = V::add_floats(*sum, leaf);
            }
        }
        for (sum, out) in sums[..groups].iter().zip(out.chunks_mut(V::LANES)) {
            V::store(*sum, out);
        }
    }
}
