//! Helpers shared by the tests that compare with the Python reference.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The `shared` directory (holding `data/` and `tools/`): `$NCLEANER_SHARED`,
/// or `../shared` next to the workspace. Panics, with the reason, if absent:
/// these tests must not pass without checking anything.
pub fn shared_dir() -> PathBuf {
    let dir = match std::env::var_os("NCLEANER_SHARED") {
        // Accept the data directory itself too.
        Some(d) if Path::new(&d).join("gold").is_dir() => Path::new(&d).join(".."),
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    assert!(
        dir.join("data/gold").is_dir() && dir.join("tools/cleaneval_score.py").is_file(),
        "{}: no data/gold or tools/cleaneval_score.py here; set NCLEANER_SHARED to the \
         shared directory (the one holding data/ and tools/)",
        dir.display()
    );
    dir
}

/// Runs `python3 -c script args…` with `input` on stdin and returns its stdout.
/// Panics if python3 is missing: a silent pass would check nothing.
pub fn run_python(script: &str, args: &[&Path], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run python3 ({e}): this test compares with Python's difflib and \
                 the reference scorer, install python3 or put it on PATH"
            )
        });
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("python3 runs");
    writer
        .join()
        .expect("writer thread")
        .expect("write to python3");
    assert!(
        out.status.success(),
        "python3 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A small deterministic PRNG (splitmix64), enough for test data.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    /// A random element of `xs`.
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Pieces that exercise the tokeniser's rules when inserted into a text.
pub const TRICKY: &[&str] = &[
    "é",
    "\u{a0}",
    "€",
    "<pé>",
    "<P>",
    "<h>",
    "<L>",
    "<x>",
    "\x0c",
    "\x0b",
    "\x1c",
    "\x7f",
    "\r\n",
    "\t",
    "\nURL: http://x/\n",
    "\n  URL",
    "  ",
    "\u{85}",
    "\u{2028}",
    "word<p>",
    "<",
];

/// `gold` with some lines dropped, duplicated, swapped or moved, markers
/// changed and tricky characters inserted: a plausible cleaner output.
pub fn perturb(gold: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = gold.split('\n').map(str::to_owned).collect();
    let ops = rng.below(12);
    for _ in 0..ops {
        if lines.is_empty() {
            break;
        }
        let i = rng.below(lines.len());
        match rng.below(9) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
            3 => {
                // Move a run of lines elsewhere.
                let n = 1 + rng.below(5).min(lines.len() - i - 1);
                let run: Vec<String> = lines.drain(i..i + n).collect();
                let at = rng.below(lines.len() + 1);
                for (k, l) in run.into_iter().enumerate() {
                    lines.insert(at + k, l);
                }
            }
            4 => {
                let to = *rng.pick(&["<p>", "<P>", "<h>", "<l>", ""]);
                lines[i] = lines[i]
                    .replace("<h>", to)
                    .replace("<l>", to)
                    .replace("<p>", to);
            }
            5 | 6 => {
                let l = &lines[i];
                let cut = (0..=l.len())
                    .filter(|&k| l.is_char_boundary(k))
                    .nth(rng.below(l.chars().count() + 1))
                    .unwrap_or(0);
                let piece = *rng.pick(TRICKY);
                lines[i].insert_str(cut, piece);
            }
            7 => {
                // Keep the first words only, as a cleaner cutting a paragraph.
                let keep = rng.below(8);
                lines[i] = lines[i].split(' ').take(keep).collect::<Vec<_>>().join(" ");
            }
            _ => {
                lines[i] = lines[i].to_uppercase();
            }
        }
    }
    if rng.chance(1, 10) {
        lines.truncate(lines.len() / 2);
    }
    lines.join("\n")
}

/// Gold files (`*.txt`) under `dir`, sorted.
pub fn txt_files(dir: &Path) -> Vec<PathBuf> {
    let mut acc = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "txt") {
                acc.push(p);
            }
        }
    }
    acc.sort();
    acc
}

/// Every file under `dir`, sorted.
pub fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The bytes of a page (`.html`, `.htm`, or gunzipped `.html.gz`); `None`
/// for other files.
pub fn read_page(path: &Path) -> Option<Vec<u8>> {
    let name = path.file_name()?.to_str()?;
    let raw = std::fs::read(path).ok()?;
    if name.ends_with(".html.gz") {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&raw[..]), &mut out).ok()?;
        Some(out)
    } else if name.ends_with(".html") || name.ends_with(".htm") {
        Some(raw)
    } else {
        None
    }
}
