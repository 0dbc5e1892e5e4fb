//! Word model files: our compact binary form and the ARPA text format.
//!
//! Binary form (`.ncwl`): the magic `NCWL`, a little-endian u32 format
//! version, u32 order, u64 token count, a length-prefixed UTF-8 provenance,
//! u32 vocabulary size and the words (id order) as u32 length + UTF-8; then
//! per order a u64 entry count and four little-endian columns: u64 keys,
//! f32 log10 probabilities, f32 log10 backoffs, u32 raw counts. Loading is
//! a copy of the columns (no parsing of numbers), a few milliseconds for the
//! embedded model; the columns are laid out so that a memory-mapped reader
//! could use them in place.
//!
//! ARPA: the format of SRILM and KenLM (`\data\`, `ngram k=N`, `\k-grams:`
//! sections of `log10p<TAB>words[<TAB>log10backoff]`, `\end\`). Reading keeps
//! orders up to [`MAX_ORDER`]; a file without `<unk>` gets `<unk>` with
//! log10 probability −100, as KenLM does.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;

use super::{MAX_ORDER, MAX_VOCAB, Table, WordLm, key};
use crate::error::{Error, Result};

/// The binary format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 4] = b"NCWL";

/// The word models embedded in the library: (name, binary model file).
pub const EMBEDDED: &[(&str, &[u8])] = &[("en-ppl", include_bytes!("../../models/en-ppl.ncwl"))];

/// Loads an embedded word model by name (`en-ppl`).
pub fn embedded(name: &str) -> Result<WordLm> {
    let (_, bytes) = EMBEDDED
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| Error::UnknownModel(name.to_string()))?;
    WordLm::from_bytes(bytes, &format!("embedded word model {name}"))
}

impl WordLm {
    /// Loads a word model by name: an embedded one (`en-ppl`), else a model
    /// file (binary or ARPA) at that path.
    pub fn open(name: &str) -> Result<WordLm> {
        if EMBEDDED.iter().any(|(n, _)| *n == name) {
            return embedded(name);
        }
        if !Path::new(name).exists() {
            return Err(Error::Parameter(format!(
                "word model {name}: no such file, and not an embedded model (en-ppl)"
            )));
        }
        WordLm::load(Path::new(name))
    }

    /// Reads a model file: our binary form, or ARPA text (recognised by its first bytes).
    pub fn load(path: &Path) -> Result<WordLm> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let what = path.display().to_string();
        if bytes.starts_with(MAGIC) {
            WordLm::from_bytes(&bytes, &what)
        } else {
            WordLm::from_arpa(&bytes[..], &what)
        }
    }

    /// Writes the binary form.
    pub fn save(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_bytes()).map_err(|e| Error::io(path, e))
    }

    /// The binary form.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        b.extend_from_slice(&(self.order as u32).to_le_bytes());
        b.extend_from_slice(&self.tokens.to_le_bytes());
        put_str(&mut b, &self.provenance);
        b.extend_from_slice(&(self.vocab.len() as u32).to_le_bytes());
        for w in &self.vocab {
            put_str(&mut b, w);
        }
        for t in &self.tables {
            b.extend_from_slice(&(t.keys.len() as u64).to_le_bytes());
            t.keys
                .iter()
                .for_each(|x| b.extend_from_slice(&x.to_le_bytes()));
            t.prob
                .iter()
                .for_each(|x| b.extend_from_slice(&x.to_le_bytes()));
            t.backoff
                .iter()
                .for_each(|x| b.extend_from_slice(&x.to_le_bytes()));
            t.count
                .iter()
                .for_each(|x| b.extend_from_slice(&x.to_le_bytes()));
        }
        b
    }

    /// Reads the binary form; `what` names the input in errors.
    pub fn from_bytes(bytes: &[u8], what: &str) -> Result<WordLm> {
        let bad = |reason: &str| Error::BadModel {
            what: what.to_string(),
            reason: reason.to_string(),
        };
        let mut r = Reader { b: bytes, pos: 0 };
        if r.take(4).ok_or_else(|| bad("empty file"))? != MAGIC {
            return Err(bad("not a word model (magic NCWL)"));
        }
        let truncated = || bad("truncated");
        let version = r.u32().ok_or_else(truncated)?;
        if version != FORMAT_VERSION {
            return Err(bad(&format!(
                "format version {version}, this build reads {FORMAT_VERSION}"
            )));
        }
        let order = r.u32().ok_or_else(truncated)? as usize;
        if !(1..=MAX_ORDER).contains(&order) {
            return Err(bad(&format!("order {order}")));
        }
        let tokens = r.u64().ok_or_else(truncated)?;
        let provenance = r.string().ok_or_else(truncated)?;
        let nv = r.u32().ok_or_else(truncated)? as usize;
        if nv > MAX_VOCAB {
            return Err(bad("vocabulary too large"));
        }
        let mut vocab = Vec::with_capacity(nv);
        for _ in 0..nv {
            vocab.push(r.string().ok_or_else(truncated)?);
        }
        let mut tables = Vec::with_capacity(order);
        for _ in 0..order {
            let n = r.u64().ok_or_else(truncated)? as usize;
            if n.checked_mul(20).is_none_or(|len| len > r.b.len() - r.pos) {
                return Err(truncated());
            }
            let keys = r
                .take(n * 8)
                .ok_or_else(truncated)?
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8")))
                .collect();
            let prob = r
                .take(n * 4)
                .ok_or_else(truncated)?
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4")))
                .collect();
            let backoff = r
                .take(n * 4)
                .ok_or_else(truncated)?
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4")))
                .collect();
            let count = r
                .take(n * 4)
                .ok_or_else(truncated)?
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4")))
                .collect();
            tables.push(Table {
                keys,
                prob,
                backoff,
                count,
            });
        }
        if r.pos != bytes.len() {
            return Err(bad("trailing bytes"));
        }
        WordLm::from_parts(order, vocab, tables, tokens, provenance, what)
    }

    /// Writes the ARPA form (n-grams in key order; backoffs on all but the highest order).
    pub fn write_arpa(&self, w: &mut impl Write) -> std::io::Result<()> {
        writeln!(w, "\n\\data\\")?;
        for (k, t) in self.tables.iter().enumerate() {
            writeln!(w, "ngram {}={}", k + 1, t.len())?;
        }
        for (k, t) in self.tables.iter().enumerate() {
            writeln!(w, "\n\\{}-grams:", k + 1)?;
            for i in 0..t.len() {
                let words: Vec<&str> = (0..=k)
                    .rev()
                    .map(|j| {
                        self.vocab[((t.keys[i] >> (21 * j as u32)) & ((1 << 21) - 1)) as usize]
                            .as_str()
                    })
                    .collect();
                write!(w, "{}\t{}", t.prob[i], words.join(" "))?;
                if k + 1 < self.order {
                    write!(w, "\t{}", t.backoff[i])?;
                }
                writeln!(w)?;
            }
        }
        writeln!(w, "\n\\end\\")
    }

    /// Reads an ARPA file; `what` names the input in errors.
    pub fn from_arpa(input: impl BufRead, what: &str) -> Result<WordLm> {
        let bad = |line: usize, reason: String| Error::BadModel {
            what: what.to_string(),
            reason: format!("line {line}: {reason}"),
        };
        let mut arpa = Arpa::new();
        let mut ended = false;
        for (ln, line) in input.lines().enumerate() {
            let ln = ln + 1;
            let line = line.map_err(|e| bad(ln, e.to_string()))?;
            let line = line.trim_end_matches(['\r', '\n']);
            if line.trim().is_empty() {
                continue;
            }
            if line == "\\end\\" {
                ended = true;
                break;
            }
            arpa.line(line).map_err(|r| bad(ln, r))?;
        }
        if !ended {
            return Err(bad(0, "no \\end\\ line (truncated?)".into()));
        }
        let (vocab, tables) = arpa.tables().map_err(|r| bad(0, r))?;
        WordLm::from_parts(
            tables.len(),
            vocab,
            tables,
            0,
            format!("read from ARPA file {what}"),
            what,
        )
    }
}

/// An ARPA file as [`WordLm::from_arpa`] has read it so far.
struct Arpa {
    /// The words, by id: `<unk>`, `<s>`, `</s>`, then as they come.
    vocab: Vec<String>,
    /// Each word's id.
    index: HashMap<String, u32>,
    /// The counts the `ngram k=N` lines declare, by order.
    declared: Vec<usize>,
    /// The n-grams of each order: (key, log10 probability, log10 backoff).
    rows: Vec<Vec<(u64, f32, f32)>>,
    /// The order of the section being read.
    section: Option<usize>,
    /// Whether `\data\` was read.
    in_data: bool,
}

impl Arpa {
    fn new() -> Arpa {
        let vocab: Vec<String> = vec!["<unk>".into(), "<s>".into(), "</s>".into()];
        let index = vocab
            .iter()
            .enumerate()
            .map(|(i, w)| (w.clone(), i as u32))
            .collect();
        Arpa {
            vocab,
            index,
            declared: Vec::new(),
            rows: Vec::new(),
            section: None,
            in_data: false,
        }
    }

    /// Reads a line that is neither blank nor `\end\`; an error says what
    /// is wrong with it.
    fn line(&mut self, line: &str) -> std::result::Result<(), String> {
        if line == "\\data\\" {
            self.in_data = true;
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix("ngram ") {
            let (k, n) = rest
                .split_once('=')
                .ok_or_else(|| "bad ngram count line".to_string())?;
            let k: usize = k.trim().parse().map_err(|_| "bad order".to_string())?;
            let n: usize = n.trim().parse().map_err(|_| "bad count".to_string())?;
            if k != self.declared.len() + 1 {
                return Err("ngram counts out of order".into());
            }
            self.declared.push(n);
            return Ok(());
        }
        if let Some(k) = line
            .strip_prefix('\\')
            .and_then(|l| l.strip_suffix("-grams:"))
        {
            return self.section(k);
        }
        let (Some(k), true) = (self.section, self.in_data) else {
            if self.in_data {
                return Err("n-gram outside a section".into());
            }
            return Ok(()); // text before \data\ is a comment
        };
        self.ngram(k, line)
    }

    /// Starts the section of the `\K-grams:` line.
    fn section(&mut self, k: &str) -> std::result::Result<(), String> {
        let k: usize = k.parse().map_err(|_| "bad section header".to_string())?;
        if k > MAX_ORDER {
            return Err(format!(
                "{k}-grams: this build reads orders up to {MAX_ORDER}"
            ));
        }
        if k != self.rows.len() + 1 {
            return Err("sections out of order".into());
        }
        self.rows.push(Vec::with_capacity(
            self.declared.get(k - 1).copied().unwrap_or(0),
        ));
        self.section = Some(k);
        Ok(())
    }

    /// Reads an n-gram line of the section of order `k`: its fields
    /// separated by tabs, or by spaces only, as some writers do.
    fn ngram(&mut self, k: usize, line: &str) -> std::result::Result<(), String> {
        let mut fields = line.split('\t');
        let (p, words, bo) = match (fields.next(), fields.next(), fields.next()) {
            (Some(p), Some(ws), bo) => (p, ws, bo),
            _ => {
                let parts: Vec<&str> = line.split_whitespace().collect();
                if parts.len() < k + 1 {
                    return Err("too few fields".into());
                }
                let bo = (parts.len() > k + 1).then(|| parts[k + 1]);
                let words = parts[1..=k].join(" ");
                let p: f32 = parts[0]
                    .parse()
                    .map_err(|_| "bad probability".to_string())?;
                let bo: f32 = bo
                    .map_or(Ok(0.0), str::parse)
                    .map_err(|_| "bad backoff".to_string())?;
                let ids = ids_of(&words, &mut self.vocab, &mut self.index)?;
                if ids.len() != k {
                    return Err(format!("expected {k} words"));
                }
                self.rows[k - 1].push((key(&ids), p, bo));
                return Ok(());
            }
        };
        let p: f32 = p
            .trim()
            .parse()
            .map_err(|_| "bad probability".to_string())?;
        let bo: f32 = bo
            .map_or(Ok(0.0), |s| s.trim().parse())
            .map_err(|_| "bad backoff".to_string())?;
        let ids = ids_of(words, &mut self.vocab, &mut self.index)?;
        if ids.len() != k {
            return Err(format!("expected {k} words, found {}", ids.len()));
        }
        self.rows[k - 1].push((key(&ids), p, bo));
        Ok(())
    }

    /// The vocabulary and the tables of every order, once the file is
    /// read: the counts checked against the header, `<unk>` added when
    /// missing, each table sorted by key (the first of equal keys kept).
    fn tables(mut self) -> std::result::Result<(Vec<String>, Vec<Table>), String> {
        let rows = &mut self.rows;
        if rows.is_empty() {
            return Err("no n-grams".into());
        }
        for (k, r) in rows.iter().enumerate() {
            if self.declared.get(k).is_some_and(|&n| n != r.len()) {
                return Err(format!(
                    "{}-grams: header says {}, found {}",
                    k + 1,
                    self.declared[k],
                    r.len()
                ));
            }
        }
        if !rows[0].iter().any(|r| r.0 == u64::from(super::UNK)) {
            rows[0].push((u64::from(super::UNK), -100.0, 0.0));
        }
        let tables = self
            .rows
            .into_iter()
            .map(|mut r| {
                r.sort_by_key(|x| x.0);
                r.dedup_by_key(|x| x.0);
                Table {
                    keys: r.iter().map(|x| x.0).collect(),
                    prob: r.iter().map(|x| x.1).collect(),
                    backoff: r.iter().map(|x| x.2).collect(),
                    count: vec![0; r.len()],
                }
            })
            .collect();
        Ok((self.vocab, tables))
    }
}

fn ids_of(
    words: &str,
    vocab: &mut Vec<String>,
    index: &mut HashMap<String, u32>,
) -> std::result::Result<Vec<u32>, String> {
    words
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(|w| {
            if let Some(&id) = index.get(w) {
                return Ok(id);
            }
            if vocab.len() >= MAX_VOCAB {
                return Err(format!("more than {MAX_VOCAB} words"));
            }
            let id = vocab.len() as u32;
            vocab.push(w.to_string());
            index.insert(w.to_string(), id);
            Ok(id)
        })
        .collect()
}

fn put_str(b: &mut Vec<u8>, s: &str) {
    b.extend_from_slice(&(s.len() as u32).to_le_bytes());
    b.extend_from_slice(s.as_bytes());
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.b.get(self.pos..self.pos.checked_add(n)?)?;
        self.pos += n;
        Some(s)
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn string(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
}
