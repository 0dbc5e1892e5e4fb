//! Model files: a human-readable text form and a compact binary form.
//!
//! Both hold the same data: a header (format version, n, q, alphabet, how the
//! dirty model is estimated, provenance) and the count tables from which the
//! models are estimated (`clean`: gold text; `raw`: raw dumps). Counts, not
//! probabilities, are stored so that a model can be re-estimated with other
//! parameters (a smaller n, another q) and so that the file says what it was
//! trained on. Tables are written sorted, so that training the same data twice
//! gives the same bytes.
//!
//! Text form (`.txt` by convention):
//!
//! ```text
//! ncleaner-model 1
//! n 3
//! q 0.5
//! alphabet lexical
//! dirty differential
//! language en
//! provenance trained by `ncleaner train` on 398 pages …
//! table clean
//! 1<TAB>e<TAB>123456
//! 3<TAB>\nTh<TAB>789
//! …
//! end
//! ```
//!
//! One line per k-gram: order, the k-gram's characters (the boundary symbol
//! written `\n`, a backslash `\\`), count, separated by tabs.
//!
//! Binary form (`.nclm`): the magic `NCLM`, a little-endian u32 version, the
//! header lines as a length-prefixed UTF-8 string, then per table and order
//! the number of entries and the entries as LEB128 varints: the key delta from
//! the previous key (keys ascending) and the count; then the classifier's
//! JSON (length-prefixed, empty for none) and the n-gram scorer's tables
//! (length-prefixed, [`super::scorer::Scorer::write`]). The tables are
//! derived from the counts and the header's parameters; stored, they spare
//! every start of `clean` building them. A model whose counts or
//! parameters change after loading is a new model
//! ([`Model::with_parameters`]), which builds its own.

use std::collections::HashMap;
use std::path::Path;

use super::varint::{get_varint, put_varint};
use super::{Alphabet, Counts, DirtyEstimate, Model, ModelMeta, check_key, pack, unpack};
use crate::error::{Error, Result};

/// The model file format version this build writes.
///
/// Version 2 added the optional segment classifier after the count tables,
/// version 3 the scorer's tables after it (binary form only); version 1
/// and 2 files are still read, and their tables built on first use.
/// Version 4 writes the classifier's long arrays (the trees' splits and
/// leaves, the attribute words' log-odds) as base64 strings of their
/// bytes, not as JSON numbers (`classify::le_arrays`); earlier
/// files' numbers are read as before. The optional `language`
/// header line (a model's language tag, [`ModelMeta::language`]) needed no
/// new version: header lines are `key value` pairs that readers look up by
/// name, so files without it load as `None` and older readers skip it.
pub const FORMAT_VERSION: u32 = 4;

/// The versions this build reads.
const READABLE: [u32; 4] = [1, 2, 3, 4];

const MAGIC: &[u8; 4] = b"NCLM";
const TEXT_MAGIC: &str = "ncleaner-model";

/// The models embedded in the library: (name, binary model file).
pub const EMBEDDED: &[(&str, &[u8])] = &[
    ("en", include_bytes!("../../models/en.nclm")),
    ("en-nonlex", include_bytes!("../../models/en-nonlex.nclm")),
    ("multi", include_bytes!("../../models/multi.nclm")),
];

/// Loads an embedded model by name (`en`, `en-nonlex`, `multi`).
pub fn embedded(name: &str) -> Result<Model> {
    let (_, bytes) = EMBEDDED
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| Error::UnknownModel(name.to_string()))?;
    read_binary(bytes, Some(bytes)).map_err(|reason| Error::BadModel {
        what: format!("embedded model {name}"),
        reason,
    })
}

impl Model {
    /// Loads a model by name: an embedded one (`en`, `en-nonlex`, `multi`), else a
    /// model file (text or binary form) at that path.
    pub fn open(name_or_path: &str) -> Result<Model> {
        if EMBEDDED.iter().any(|(n, _)| *n == name_or_path) {
            return embedded(name_or_path);
        }
        let path = Path::new(name_or_path);
        if !path.exists() {
            let names: Vec<&str> = EMBEDDED.iter().map(|(n, _)| *n).collect();
            return Err(Error::Parameter(format!(
                "model {name_or_path}: no such file, and not an embedded model ({})",
                names.join(", ")
            )));
        }
        Model::load(path)
    }

    /// Reads a model file (text or binary form, recognised by its first bytes).
    pub fn load(path: &Path) -> Result<Model> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        Model::from_bytes(&bytes, &path.display().to_string())
    }

    /// Reads a model from the bytes of a file; `what` names it in errors.
    pub fn from_bytes(bytes: &[u8], what: &str) -> Result<Model> {
        let bad = |reason: String| Error::BadModel {
            what: what.to_string(),
            reason,
        };
        if bytes.starts_with(MAGIC) {
            read_binary(bytes, None).map_err(bad)
        } else if bytes.starts_with(TEXT_MAGIC.as_bytes()) {
            let text =
                std::str::from_utf8(bytes).map_err(|_| bad("the text form is not UTF-8".into()))?;
            read_text(text).map_err(bad)
        } else {
            Err(bad(
                "unknown format (neither the NCLM binary nor the text form)".into(),
            ))
        }
    }

    /// Writes the model, in text form if the file name ends in `.txt`, else binary.
    pub fn save(&self, path: &Path) -> Result<()> {
        if self
            .classifier
            .as_ref()
            .is_some_and(|c| c.words.0.is_some())
        {
            return Err(Error::Parameter(
                "a classifier with word-model features (an ablation experiment) cannot be saved"
                    .into(),
            ));
        }
        let bytes = if path.extension().is_some_and(|e| e == "txt") {
            self.to_text().into_bytes()
        } else {
            self.to_binary()
        };
        std::fs::write(path, bytes).map_err(|e| Error::io(path, e))
    }

    fn header(&self) -> String {
        let m = &self.meta;
        // The language line only when there is a tag, and before
        // `provenance` (where readers stop): a model without one is written
        // without the line, and readers that do not know the line ignore it.
        let language = m
            .language
            .as_deref()
            .map(|l| format!("language {}\n", l.replace(['\n', ' '], "")))
            .unwrap_or_default();
        format!(
            "{TEXT_MAGIC} {FORMAT_VERSION}\nn {}\nq {}\nalphabet {}\ndirty {}\n{language}provenance {}\n",
            m.n,
            m.q,
            m.alphabet.name(),
            m.dirty.name(),
            m.provenance.replace('\n', " ")
        )
    }

    fn tables(&self) -> Vec<(&'static str, &Counts)> {
        let mut t = vec![("clean", self.clean()), ("raw", self.raw())];
        if let Some(d) = self.dirty() {
            t.push(("dirty", d));
        }
        t
    }

    /// The text form of the model.
    pub fn to_text(&self) -> String {
        let syms = self.meta.alphabet.symbols();
        let mut out = self.header();
        for (name, counts) in self.tables() {
            out.push_str(&format!("table {name}\n"));
            for (k, table) in counts.orders.iter().enumerate() {
                for (key, count) in sorted(table) {
                    let gram: String = unpack(key, k + 1)
                        .into_iter()
                        .map(|s| match syms.get(s as usize) {
                            Some(b'\n') => "\\n".to_string(),
                            Some(b'\\') => "\\\\".to_string(),
                            Some(&c) => (c as char).to_string(),
                            None => "\\?".to_string(),
                        })
                        .collect();
                    out.push_str(&format!("{}\t{gram}\t{count}\n", k + 1));
                }
            }
        }
        if let Some(c) = &self.classifier {
            out.push_str("classifier ");
            out.push_str(
                &serde_json::to_string(&self.classifier_json(c)).expect("a classifier serialises"),
            );
            out.push('\n');
        }
        out.push_str("end\n");
        out
    }

    /// The binary form of the model.
    pub fn to_binary(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let header = self.header();
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        for (_, counts) in self.tables() {
            for table in &counts.orders {
                put_varint(&mut out, table.len() as u64);
                let mut prev = 0u64;
                for (key, count) in sorted(table) {
                    put_varint(&mut out, key - prev);
                    put_varint(&mut out, count);
                    prev = key;
                }
            }
        }
        let classifier = self
            .classifier
            .as_ref()
            .map(|c| serde_json::to_vec(&self.classifier_json(c)).expect("a classifier serialises"))
            .unwrap_or_default();
        put_section(&mut out, &classifier);
        let mut tables = Vec::new();
        self.scorer().write(&mut tables);
        put_section(&mut out, &tables);
        out
    }
}

fn sorted(table: &rustc_hash::FxHashMap<u64, u64>) -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = table.iter().map(|(&k, &c)| (k, c)).collect();
    v.sort_unstable();
    v
}

/// Parses the header lines; returns the metadata.
fn parse_header<'a>(
    lines: &mut impl Iterator<Item = &'a str>,
) -> std::result::Result<ModelMeta, String> {
    let first = lines.next().ok_or("empty file")?;
    let version = first
        .strip_prefix(TEXT_MAGIC)
        .map(str::trim)
        .ok_or("missing the `ncleaner-model` line")?;
    if !READABLE.iter().any(|v| v.to_string() == version) {
        return Err(format!(
            "format version {version}; this ncleaner reads versions {READABLE:?}"
        ));
    }
    let mut fields: HashMap<&str, &str> = HashMap::new();
    for line in lines {
        let (k, v) = line.split_once(' ').unwrap_or((line, ""));
        fields.insert(k, v);
        if k == "provenance" {
            break;
        }
    }
    let get = |k: &str| fields.get(k).copied().ok_or(format!("header has no `{k}`"));
    let n: usize = get("n")?.parse().map_err(|_| "n is not a number")?;
    let q: f64 = get("q")?.parse().map_err(|_| "q is not a number")?;
    let alphabet = Alphabet::from_name(get("alphabet")?).ok_or("unknown alphabet")?;
    let dirty = DirtyEstimate::from_name(get("dirty")?).ok_or("unknown dirty-model estimate")?;
    super::check_parameters(n, q).map_err(|e| e.to_string())?;
    Ok(ModelMeta {
        n,
        q,
        alphabet,
        dirty,
        provenance: get("provenance")?.to_string(),
        language: match fields.get("language") {
            None => None,
            Some(l) => {
                Some(crate::lang::normalise_tags(l).ok_or(format!("`{l}` is not a language tag"))?)
            }
        },
    })
}

/// The metadata of an embedded model (`None`: no embedded model of that
/// name), read from its header alone: which languages it is for, without
/// reading its tables and classifier.
pub(crate) fn embedded_meta(name: &str) -> Option<Result<ModelMeta>> {
    let (_, bytes) = EMBEDDED.iter().find(|(n, _)| *n == name)?;
    Some(
        binary_header(bytes)
            .map(|(_, _, meta)| meta)
            .map_err(|reason| Error::BadModel {
                what: format!("embedded model {name}"),
                reason,
            }),
    )
}

/// A binary model file's format version, header length and metadata.
fn binary_header(bytes: &[u8]) -> std::result::Result<(u32, usize, ModelMeta), String> {
    let u32_at = |p: usize| -> std::result::Result<u32, String> {
        let b = bytes.get(p..p + 4).ok_or("truncated header")?;
        Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
    };
    let version = u32_at(4)?;
    if !READABLE.contains(&version) {
        return Err(format!(
            "binary format version {version}; this ncleaner reads versions {READABLE:?}"
        ));
    }
    let hlen = u32_at(8)? as usize;
    let header = bytes.get(12..12 + hlen).ok_or("truncated header")?;
    let header = std::str::from_utf8(header).map_err(|_| "header is not UTF-8")?;
    Ok((version, hlen, parse_header(&mut header.lines())?))
}

/// Reads a binary model file. `embedded`: the same bytes, of a model built
/// into the library, whose counts are then read when first asked for
/// ([`super::PendingCounts`]), not now.
fn read_binary(
    bytes: &[u8],
    embedded: Option<&'static [u8]>,
) -> std::result::Result<Model, String> {
    let (version, hlen, meta) = binary_header(bytes)?;
    let mut pos = 12 + hlen;
    let (counts, pending) = match embedded {
        // Stored tables make the counts unneeded for cleaning: skipped now.
        Some(all) if version >= 3 => {
            let start = pos;
            skip_count_section(bytes, &mut pos, &meta)?;
            (None, Some(super::PendingCounts(&all[start..pos])))
        }
        _ => (Some(read_counts_at(bytes, &mut pos, &meta)?), None),
    };
    let mut classifier = None;
    if version >= 2 {
        let json = section(bytes, &mut pos, "classifier")?;
        if !json.is_empty() {
            classifier = Some(ClassifierIn::parse(json).map_err(|e| format!("classifier: {e}"))?);
        }
    }
    let mut scorer = None;
    if version >= 3 {
        let tables = section(bytes, &mut pos, "scorer tables")?;
        if !tables.is_empty() {
            scorer = Some(super::scorer::Scorer::read(tables, meta.n, meta.alphabet)?);
        }
    }
    if pos != bytes.len() {
        return Err(format!("{} trailing bytes", bytes.len() - pos));
    }
    let mut m = match (counts, pending) {
        (Some(c), _) => Model::assemble(meta, c.clean, c.raw, c.dirty),
        (None, Some(p)) => Model::with_pending_counts(meta, p),
        (None, None) => unreachable!("counts are read or pending"),
    }
    .map_err(|e| e.to_string())?;
    if let Some(s) = scorer {
        m.scorer = s.into();
    }
    if let Some(c) = classifier {
        m.classifier = Some(c.classifier);
        m.quality = c.quality;
    }
    m.check_classifier().map_err(|e| e.to_string())?;
    Ok(m)
}

/// A length-prefixed section of a binary file at `pos` (empty: none), and
/// `pos` moved past it.
fn section<'b>(
    bytes: &'b [u8],
    pos: &mut usize,
    what: &str,
) -> std::result::Result<&'b [u8], String> {
    let len = get_varint(bytes, pos)? as usize;
    let body = bytes
        .get(*pos..pos.saturating_add(len))
        .ok_or(format!("truncated {what}"))?;
    *pos += len;
    Ok(body)
}

/// Writes a section that [`section`] reads: its length, then its bytes.
fn put_section(out: &mut Vec<u8>, body: &[u8]) {
    put_varint(out, body.len() as u64);
    out.extend_from_slice(body);
}

/// The count tables of a binary file from `pos`: clean, raw and (aligned
/// models) dirty, each per order as the number of entries and the entries
/// (key delta, count) as varints.
fn read_counts_at(
    bytes: &[u8],
    pos: &mut usize,
    meta: &ModelMeta,
) -> std::result::Result<super::CountTables, String> {
    let v = meta.alphabet.size() as u64;
    let read_counts = |pos: &mut usize| -> std::result::Result<Counts, String> {
        let mut counts = Counts::new(meta.n);
        for (k, table) in counts.orders.iter_mut().enumerate() {
            let len = get_varint(bytes, pos)?;
            if len > bytes.len() as u64 {
                return Err("table length exceeds the file".into());
            }
            table.reserve(len as usize);
            let mut key = 0u64;
            for _ in 0..len {
                key = key
                    .checked_add(get_varint(bytes, pos)?)
                    .ok_or("key overflow")?;
                check_key(key, k + 1, v)?;
                table.insert(key, get_varint(bytes, pos)?);
            }
        }
        Ok(counts)
    };
    let clean = read_counts(pos)?;
    let raw = read_counts(pos)?;
    let dirty = if meta.dirty == DirtyEstimate::Aligned {
        Some(read_counts(pos)?)
    } else {
        None
    };
    Ok(super::CountTables { clean, raw, dirty })
}

/// Moves `pos` past the count tables without reading them into maps.
fn skip_count_section(
    bytes: &[u8],
    pos: &mut usize,
    meta: &ModelMeta,
) -> std::result::Result<(), String> {
    let tables = if meta.dirty == DirtyEstimate::Aligned {
        3
    } else {
        2
    };
    for _ in 0..tables * meta.n {
        let len = get_varint(bytes, pos)?;
        // Two varints an entry: their last bytes are those without the high
        // bit, counted eight at a time while the table goes on past them.
        let mut left = len.checked_mul(2).ok_or("table length overflow")?;
        while let Some(w) = bytes.get(*pos..*pos + 8) {
            let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
            let ends = u64::from((!w & 0x8080_8080_8080_8080).count_ones());
            if ends >= left {
                break;
            }
            left -= ends;
            *pos += 8;
        }
        while left > 0 {
            let b = *bytes.get(*pos).ok_or("truncated count table")?;
            *pos += 1;
            left -= u64::from(b & 0x80 == 0);
        }
    }
    Ok(())
}

/// The count section that [`skip_count_section`] passed over, read (it
/// must hold the tables and nothing else).
pub(super) fn read_count_section(
    bytes: &[u8],
    meta: &ModelMeta,
) -> std::result::Result<super::CountTables, String> {
    let mut pos = 0;
    let counts = read_counts_at(bytes, &mut pos, meta)?;
    if pos != bytes.len() {
        return Err(format!(
            "{} bytes after the count tables",
            bytes.len() - pos
        ));
    }
    Ok(counts)
}

fn read_text(text: &str) -> std::result::Result<Model, String> {
    let mut lines = text.lines();
    let meta = parse_header(&mut lines)?;
    let syms = meta.alphabet.symbols();
    let sym_of = |c: u8| syms.iter().position(|&s| s == c).map(|p| p as u8);
    let mut tables: HashMap<String, Counts> = HashMap::new();
    let mut current: Option<String> = None;
    let mut classifier = None;
    for (i, line) in lines.enumerate() {
        let lineno = i + 8;
        if line == "end" {
            break;
        }
        if let Some(json) = line.strip_prefix("classifier ") {
            classifier = Some(
                ClassifierIn::parse(json.as_bytes())
                    .map_err(|e| format!("line {lineno}: classifier: {e}"))?,
            );
            continue;
        }
        if let Some(name) = line.strip_prefix("table ") {
            tables.insert(name.to_string(), Counts::new(meta.n));
            current = Some(name.to_string());
            continue;
        }
        let table = current
            .as_ref()
            .and_then(|c| tables.get_mut(c))
            .ok_or(format!("line {lineno}: an entry before any `table` line"))?;
        let mut parts = line.splitn(3, '\t');
        let (Some(k), Some(gram), Some(count)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!(
                "line {lineno}: expected `order<TAB>k-gram<TAB>count`"
            ));
        };
        let k: usize = k.parse().map_err(|_| format!("line {lineno}: bad order"))?;
        let count: u64 = count
            .parse()
            .map_err(|_| format!("line {lineno}: bad count"))?;
        let mut ids = Vec::new();
        let mut chars = gram.bytes();
        while let Some(c) = chars.next() {
            let c = if c == b'\\' {
                match chars.next() {
                    Some(b'n') => b'\n',
                    Some(b'\\') => b'\\',
                    _ => return Err(format!("line {lineno}: bad escape")),
                }
            } else {
                c
            };
            ids.push(sym_of(c).ok_or(format!(
                "line {lineno}: character {:?} not in the alphabet",
                c as char
            ))?);
        }
        if k == 0 || k > meta.n || ids.len() != k {
            return Err(format!(
                "line {lineno}: a {}-gram given as order {k}",
                ids.len()
            ));
        }
        table.orders[k - 1].insert(pack(&ids), count);
    }
    let clean = tables.remove("clean").ok_or("no `table clean`")?;
    let raw = tables.remove("raw").ok_or("no `table raw`")?;
    let dirty = tables.remove("dirty");
    let mut m = Model::assemble(meta, clean, raw, dirty).map_err(|e| e.to_string())?;
    if let Some(c) = classifier {
        m.classifier = Some(c.classifier);
        m.quality = c.quality;
    }
    m.check_classifier().map_err(|e| e.to_string())?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::super::*;

    #[test]
    fn open_takes_a_name_or_a_path() {
        assert_eq!(
            Model::open("en").unwrap().meta.n,
            embedded("en").unwrap().meta.n
        );
        let e = Model::open("no/such/model.nclm").unwrap_err().to_string();
        assert!(e.contains("not an embedded model"), "{e}");
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("m.nclm");
        embedded("en-nonlex").unwrap().save(&p).unwrap();
        let m = Model::open(p.to_str().unwrap()).unwrap();
        assert_eq!(m.meta.alphabet, Alphabet::NonLexical);
    }

    fn toy() -> Model {
        let pages = vec![TrainingPage {
            name: "a".into(),
            raw: vec!["Some text, here.".into(), "Home | Back\\slash".into()],
            clean: vec!["Some text, here.".into()],
        }];
        train(
            &pages,
            &TrainOptions {
                n: 4,
                q: 0.3,
                alphabet: Alphabet::Lexical,
            },
            "toy model",
        )
        .unwrap()
    }

    #[test]
    fn embedded_models_reserialise_to_their_own_bytes() {
        // The classifier's JSON (with the page-quality models in it) must
        // come back byte for byte: the models are rebuilt bit for bit.
        for (name, bytes) in EMBEDDED {
            let m = embedded(name).expect("embedded model loads");
            assert!(
                m.quality.is_some(),
                "{name}: its page-quality models are read"
            );
            assert!(
                m.to_binary() == *bytes,
                "{name}: bytes differ after a round trip"
            );
        }
    }

    #[test]
    fn page_quality_is_read_wherever_its_key_stands() {
        // `quality` is read from its key on when it is the last field (as
        // written), and from the whole JSON otherwise.
        let m = embedded("en").unwrap();
        let c = m.classifier.as_ref().expect("a classifier");
        let json = serde_json::to_string(&m.classifier_json(c)).unwrap();
        let key = std::str::from_utf8(super::QUALITY_KEY).unwrap();
        let at = json.rfind(key).expect("quality is written last");
        let value = &json[at + key.len()..json.len() - 1];
        let first = format!("{{\"quality\":{value},{}", &json[1..at]) + "}";
        let want = serde_json::to_string(&m.quality).unwrap();
        for text in [&json, &first] {
            let read = super::ClassifierIn::parse(text.as_bytes()).unwrap();
            assert_eq!(serde_json::to_string(&read.quality).unwrap(), want);
            assert_eq!(
                serde_json::to_string(&read.classifier).unwrap(),
                serde_json::to_string(c).unwrap()
            );
        }
    }

    /// A model trained with other versions of the lexicon's sets than
    /// this build's is refused, naming the set; one that records none (an
    /// older file) loads.
    #[test]
    fn models_of_other_word_sets_are_refused() {
        let mut m = embedded("en").unwrap();
        let c = m.classifier.as_mut().expect("a classifier");
        assert_eq!(
            c.lexicon,
            crate::lexicon::model_versions(),
            "the embedded model records this build's sets"
        );
        c.lexicon.insert("months".into(), "0000000000000000".into());
        let e = Model::from_bytes(&m.to_binary(), "old.nclm")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("old.nclm") && e.contains("`months`") && e.contains("retrain"),
            "{e}"
        );
        m.classifier.as_mut().unwrap().lexicon.clear();
        assert!(Model::from_bytes(&m.to_binary(), "older.nclm").is_ok());
    }

    /// A classifier written before the column names were stored chose its
    /// optional groups by flags: read, it gets the names those flags gave,
    /// and saved again it stores them and no flag.
    #[test]
    fn a_file_without_column_names_reads_its_groups_from_its_flags() {
        let m = embedded("en").unwrap();
        let c = m.classifier.as_ref().expect("a classifier");
        let mut old = serde_json::to_value(m.classifier_json(c)).unwrap();
        let fields = old.as_object_mut().unwrap();
        fields.remove("columns");
        for flag in ["neighbours", "site", "hidden"] {
            fields.insert(flag.into(), serde_json::Value::Bool(true));
        }
        let read = super::ClassifierIn::parse(old.to_string().as_bytes()).unwrap();
        assert_eq!(read.classifier.columns, c.columns);
        assert!(read.classifier.sees_hidden() && read.classifier.reads_site());
        // Without the flags (a file older still) only the groups every
        // classifier has and the page type's are read, and its weights are
        // then too long for them: the file is refused, not misread.
        let fields = old.as_object_mut().unwrap();
        for flag in ["neighbours", "site", "hidden"] {
            fields.remove(flag);
        }
        let read = super::ClassifierIn::parse(old.to_string().as_bytes()).unwrap();
        assert!(!read.classifier.uses("neighbours") && read.classifier.uses("page_type"));
        let mut m2 = embedded("en").unwrap();
        m2.classifier = Some(read.classifier);
        let e = m2.check_classifier().unwrap_err().to_string();
        assert!(e.contains("weights of length"), "{e}");
        let json = serde_json::to_string(&m.classifier_json(c)).unwrap();
        assert!(
            json.contains("\"columns\":[\"bias\""),
            "the names are stored"
        );
        for flag in ["neighbours", "site", "hidden", "phrases"] {
            assert!(
                !json.contains(&format!("\"{flag}\":")),
                "{flag} is not stored"
            );
        }
    }

    /// The page-quality models store the names of their page features; a
    /// model of other features, or of widths this build cannot index, is
    /// refused when read.
    #[test]
    fn page_quality_models_of_other_features_are_refused() {
        let mut m = embedded("en").unwrap();
        let q = m.quality.as_mut().unwrap()[0].as_mut().unwrap();
        assert_eq!(q.names, crate::quality::NAMES, "the names are stored");
        q.names[2] = "expected_f".into();
        let e = Model::from_bytes(&m.to_binary(), "q.nclm")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("q.nclm") && e.contains("column 2 is `expected_f`"),
            "{e}"
        );
        let q = m.quality.as_mut().unwrap()[0].as_mut().unwrap();
        q.names.clear();
        assert!(Model::from_bytes(&m.to_binary(), "older.nclm").is_ok());
        let q = m.quality.as_mut().unwrap()[0].as_mut().unwrap();
        q.recall.mean.truncate(3);
        let e = Model::from_bytes(&m.to_binary(), "q.nclm")
            .unwrap_err()
            .to_string();
        assert!(e.contains("3 means"), "{e}");
    }

    #[test]
    fn binary_roundtrip() {
        let m = toy();
        let b = m.to_binary();
        let m2 = Model::from_bytes(&b, "x").unwrap();
        assert_eq!(m2.meta, m.meta);
        assert_eq!(m2.clean(), m.clean());
        assert_eq!(m2.raw(), m.raw());
        assert_eq!(m2.to_binary(), b, "deterministic bytes");
    }

    #[test]
    fn text_roundtrip() {
        let m = toy();
        let t = m.to_text();
        assert!(t.contains("table clean\n"));
        assert!(t.contains("\\\\"));
        let m2 = Model::from_bytes(t.as_bytes(), "x").unwrap();
        assert_eq!(m2.meta, m.meta);
        assert_eq!(m2.clean(), m.clean());
        assert_eq!(m2.raw(), m.raw());
    }

    #[test]
    fn language_tag_roundtrips_and_is_optional() {
        let plain = toy();
        assert_eq!(plain.meta.language, None);
        let untagged = plain.to_binary();
        assert!(!String::from_utf8_lossy(&untagged).contains("language"));
        let mut m = toy();
        m.meta.language = Some("de".into());
        let b = m.to_binary();
        // Only the header differs: the untagged bytes are those of before the tag existed.
        assert_eq!(b.len(), untagged.len() + "language de\n".len());
        for bytes in [b, m.to_text().into_bytes()] {
            let m2 = Model::from_bytes(&bytes, "x").unwrap();
            assert_eq!(m2.meta.language.as_deref(), Some("de"));
            assert_eq!(m2.meta, m.meta);
        }
        // A file without the line (every file written before it) loads as untagged.
        assert_eq!(
            Model::from_bytes(&untagged, "x").unwrap().meta.language,
            None
        );
        // Tags are normalised on reading; junk is an error, not a panic.
        let t = m.to_text().replace("language de\n", "language DE-AT\n");
        let m3 = Model::from_bytes(t.as_bytes(), "x").unwrap();
        assert_eq!(m3.meta.language.as_deref(), Some("de"));
        let t = m.to_text().replace("language de\n", "language d!e\n");
        let e = Model::from_bytes(t.as_bytes(), "x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("language tag"), "{e}");
    }

    #[test]
    fn embedded_models_carry_their_language() {
        assert_eq!(embedded("en").unwrap().meta.language.as_deref(), Some("en"));
        assert_eq!(embedded("en-nonlex").unwrap().meta.language, None);
    }

    #[test]
    fn corrupt_files_are_errors() {
        let b = toy().to_binary();
        for cut in [0, 3, 8, 20, b.len() / 2, b.len() - 1] {
            assert!(Model::from_bytes(&b[..cut], "x").is_err(), "cut {cut}");
        }
        let mut bad = b.clone();
        bad[4] = 9;
        let e = Model::from_bytes(&bad, "m.nclm").unwrap_err().to_string();
        assert!(e.contains("m.nclm") && e.contains("version"), "{e}");
        assert!(Model::from_bytes(b"hello", "x").is_err());
        assert!(Model::from_bytes(b"ncleaner-model 1\nn 99\n", "x").is_err());
    }

    /// An embedded model's counts are read when first asked for, and are
    /// then those its file holds (the section skipped at load is exactly
    /// the count tables).
    #[test]
    fn embedded_counts_are_read_when_asked_for() {
        for (name, bytes) in EMBEDDED {
            let lazy = embedded(name).unwrap();
            assert!(lazy.counts.get().is_none(), "{name}: read at load");
            assert!(
                lazy.scorer.get().is_some(),
                "{name}: the stored tables are read"
            );
            let eager = Model::from_bytes(bytes, "x").unwrap();
            assert!(eager.counts.get().is_some());
            assert_eq!(lazy.clean(), eager.clean(), "{name}");
            assert_eq!(lazy.raw(), eager.raw(), "{name}");
            assert_eq!(lazy.dirty(), eager.dirty(), "{name}");
        }
    }

    /// A clone keeps what its model has: the stored tables, and counts not
    /// read until asked for.
    #[test]
    fn clones_keep_tables_and_pending_counts() {
        let m = embedded("en").unwrap();
        let c = m.clone();
        assert!(c.scorer.get().is_some() && c.counts.get().is_none());
        assert_eq!(
            c.score("It was the best of times."),
            m.score("It was the best of times.")
        );
        assert_eq!(c.clean(), m.clean());
        assert_eq!(c.to_binary(), m.to_binary());
    }

    #[test]
    fn embedded_models_load() {
        for (name, _) in EMBEDDED {
            let m = embedded(name).unwrap();
            assert!(m.clean().total() > 100_000, "{name}");
        }
        assert!(embedded("xx").is_err());
    }
}

/// The classifier's JSON in a model file: the classifier's own fields, then
/// the page-quality models under `quality`. The pipeline owns the quality
/// models (the classifier knows nothing of page quality), but the file keeps
/// them inside the classifier's JSON object, where model files have them.
#[derive(serde::Serialize)]
struct ClassifierOut<'a> {
    #[serde(flatten)]
    classifier: std::borrow::Cow<'a, crate::classify::Classifier>,
    quality: std::borrow::Cow<'a, Option<[Option<crate::quality::QualityModel>; 2]>>,
}

/// What [`ClassifierOut`] writes, read back. Two passes over the JSON, one
/// for the classifier (which ignores `quality`) and one for `quality` (which
/// ignores the rest): serde's `flatten` would buffer the classifier and
/// cannot then read its maps' integer keys. The second pass reads from the
/// `quality` key on, which [`ClassifierOut`] writes last, and the whole JSON
/// only when that fails: reading the classifier's 730 KB a second time would
/// add about a quarter to the JSON's cost at start-up.
struct ClassifierIn {
    classifier: crate::classify::Classifier,
    quality: Option<[Option<crate::quality::QualityModel>; 2]>,
}

/// The key of the page-quality models in the classifier's JSON, as
/// [`ClassifierOut`] writes it after the classifier's fields.
const QUALITY_KEY: &[u8] = b",\"quality\":";

/// The column names of a classifier written before they were stored: its
/// optional groups were chosen by flags, and its page-type columns by the
/// presence of a page-type model. The JSON is read a second time for them,
/// which only such files pay.
fn legacy_columns(json: &[u8]) -> serde_json::Result<Vec<String>> {
    #[derive(serde::Deserialize)]
    struct Flags {
        #[serde(default)]
        neighbours: bool,
        #[serde(default)]
        site: bool,
        #[serde(default)]
        hidden: bool,
        #[serde(default)]
        phrases: bool,
        #[serde(default)]
        page_type: Option<serde::de::IgnoredAny>,
    }
    let f: Flags = serde_json::from_slice(json)?;
    let groups = [
        ("neighbours", f.neighbours),
        ("site", f.site),
        ("page_type", f.page_type.is_some()),
        ("hidden", f.hidden),
        ("phrases", f.phrases),
    ];
    let optional: Vec<&str> = groups.iter().filter(|g| g.1).map(|g| g.0).collect();
    let schema = crate::classify::schema::Schema::with(&optional)
        .expect("the legacy flags name optional groups");
    Ok(schema.names())
}

impl ClassifierIn {
    fn parse(json: &[u8]) -> serde_json::Result<ClassifierIn> {
        #[derive(serde::Deserialize)]
        struct QualityOnly {
            #[serde(default)]
            quality: Option<[Option<crate::quality::QualityModel>; 2]>,
        }
        let mut classifier: crate::classify::Classifier = serde_json::from_slice(json)?;
        if classifier.columns.is_empty() {
            classifier.columns = legacy_columns(json)?;
        }
        // The value after the last `"quality":`, up to the object's closing
        // brace: the whole JSON is read again only if that is not one.
        let tail = memchr::memmem::rfind(json, QUALITY_KEY)
            .and_then(|at| {
                json[at + QUALITY_KEY.len()..]
                    .trim_ascii_end()
                    .strip_suffix(b"}")
            })
            .and_then(|value| serde_json::from_slice(value).ok());
        let quality = match tail {
            Some(quality) => quality,
            None => serde_json::from_slice::<QualityOnly>(json)?.quality,
        };
        Ok(ClassifierIn {
            classifier,
            quality,
        })
    }
}

impl Model {
    /// The classifier's JSON with the page-quality models, and the names of
    /// its page-type model's and page-quality models' features where they
    /// do not hold them yet (a file written before they were stored).
    fn classifier_json<'a>(&'a self, c: &'a crate::classify::Classifier) -> ClassifierOut<'a> {
        let unnamed_types = c.page_type.as_ref().is_some_and(|p| p.names.is_empty());
        let classifier = if unnamed_types {
            let mut named = c.clone();
            if let Some(p) = named.page_type.as_mut().filter(|p| p.names.is_empty()) {
                p.names = crate::classify::page::feature_names();
            }
            std::borrow::Cow::Owned(named)
        } else {
            std::borrow::Cow::Borrowed(c)
        };
        let unnamed_quality = self
            .quality
            .iter()
            .flatten()
            .flatten()
            .any(|q| q.names.is_empty());
        let quality = if unnamed_quality {
            let mut named = self.quality.clone();
            for q in named.iter_mut().flatten().flatten() {
                if q.names.is_empty() {
                    q.names = crate::quality::names();
                }
            }
            std::borrow::Cow::Owned(named)
        } else {
            std::borrow::Cow::Borrowed(&self.quality)
        };
        ClassifierOut {
            classifier,
            quality,
        }
    }
}
