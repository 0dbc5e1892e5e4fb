//! Writing WARC records: the [`Writer`], derived record ids and the clock.

use std::io::{self, Write};

use super::Record;
use crate::compress;

/// A writer of WARC records; see the module documentation.
pub struct Writer<W: Write> {
    w: W,
    gzip: bool,
    buf: Vec<u8>,
    /// The date of a conversion record whose original has none.
    date: Option<String>,
}

/// The media type of conversion records.
pub const CONVERSION_CONTENT_TYPE: &str = "text/plain";

impl<W: Write> Writer<W> {
    /// Writes records to `w`, each as its own gzip member when `gzip`.
    pub fn new(w: W, gzip: bool) -> Self {
        Writer {
            w,
            gzip,
            buf: Vec::new(),
            date: None,
        }
    }

    /// Gives `date` (the run's, [`now`]) to each conversion record whose
    /// original has no `WARC-Date`: the field is mandatory in every record.
    pub fn with_date(mut self, date: String) -> Self {
        self.date = Some(date);
        self
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.w
    }

    /// The underlying writer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.w
    }

    fn emit(&mut self, header: &[u8], block: &[u8]) -> io::Result<()> {
        if self.gzip {
            self.buf.clear();
            self.buf.extend_from_slice(header);
            self.buf.extend_from_slice(block);
            self.buf.extend_from_slice(b"\r\n\r\n");
            let member = compress::gzip_member(&self.buf, 6);
            self.w.write_all(&member)
        } else {
            self.w.write_all(header)?;
            self.w.write_all(block)?;
            self.w.write_all(b"\r\n\r\n")
        }
    }

    /// Writes a record back unchanged.
    pub fn write_record(&mut self, record: &Record) -> io::Result<()> {
        self.emit(&record.header, &record.block)
    }

    /// Writes a WARC/1.0 record from its fields (without `Content-Length`,
    /// which is added) and block.
    pub fn write_new(&mut self, fields: &[(&str, &str)], block: &[u8]) -> io::Result<()> {
        self.write_new_as("WARC/1.0", fields, block)
    }

    /// [`Writer::write_new`] in the WARC version `version` (`WARC/1.1`).
    pub fn write_new_as(
        &mut self,
        version: &str,
        fields: &[(&str, &str)],
        block: &[u8],
    ) -> io::Result<()> {
        let mut header = Vec::with_capacity(512);
        header.extend_from_slice(version.as_bytes());
        header.extend_from_slice(b"\r\n");
        for (k, v) in fields {
            // Field values must not break the header.
            let v: String = v
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            header.extend_from_slice(k.as_bytes());
            header.extend_from_slice(b": ");
            header.extend_from_slice(v.as_bytes());
            header.extend_from_slice(b"\r\n");
        }
        header.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
        self.emit(&header, block)
    }

    /// Writes the `conversion` record of `original` holding `text`.
    pub fn write_conversion(&mut self, original: &Record, text: &[u8]) -> io::Result<()> {
        self.write_conversion_with(original, text, &[])
    }

    /// [`Writer::write_conversion`] with more fields after the standard
    /// ones (the page's metadata: [`super::metadata_fields`]). The record
    /// is of the original's WARC version (a WARC/1.1 file's conversions are
    /// WARC/1.1), its URI the original's written as a URI ([`uri_field`]),
    /// its date the original's, else the writer's ([`Writer::with_date`]).
    pub fn write_conversion_with(
        &mut self,
        original: &Record,
        text: &[u8],
        extra: &[(String, String)],
    ) -> io::Result<()> {
        let refers = original.id().unwrap_or("").to_string();
        let id = derived_id(refers.as_bytes(), b"conversion");
        let uri = original.target_uri().map(uri_field);
        let mut fields = vec![("WARC-Type", "conversion")];
        if let Some(uri) = &uri {
            fields.push(("WARC-Target-URI", uri));
        }
        let date = original
            .get("WARC-Date")
            .map(str::to_string)
            .or_else(|| self.date.clone());
        if let Some(date) = &date {
            fields.push(("WARC-Date", date));
        }
        fields.push(("WARC-Record-ID", &id));
        if !refers.is_empty() {
            fields.push(("WARC-Refers-To", &refers));
        }
        fields.push(("Content-Type", CONVERSION_CONTENT_TYPE));
        fields.extend(extra.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let version = original.version().unwrap_or("WARC/1.0").to_string();
        self.write_new_as(&version, &fields, text)
    }

    /// Writes a document that did not come from a WARC file as a `resource`
    /// record and returns that record (to refer to from its conversion).
    /// Its id is derived from `id_seed`, which must differ between records;
    /// its `WARC-Target-URI` is `uri` written as a URI ([`uri_field`]), and
    /// left out when there is none (a JSON line without a URL: no URI is
    /// made up for it).
    pub fn write_resource(
        &mut self,
        id_seed: &str,
        uri: Option<&str>,
        content_type: &str,
        date: &str,
        bytes: &[u8],
    ) -> io::Result<Record> {
        let id = derived_id(id_seed.as_bytes(), b"resource");
        let mut fields: Vec<(String, String)> = vec![("WARC-Type".into(), "resource".into())];
        if let Some(uri) = uri {
            fields.push(("WARC-Target-URI".into(), uri_field(uri)));
        }
        fields.extend([
            ("WARC-Date".into(), date.into()),
            ("WARC-Record-ID".into(), id),
            ("Content-Type".into(), content_type.into()),
        ]);
        let borrowed: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        self.write_new(&borrowed, bytes)?;
        Ok(Record {
            header: Vec::new(),
            fields,
            block: Vec::new(),
            offset: 0,
        })
    }
}

/// A URI as a WARC header writes it: the characters RFC 3986 does not
/// allow in a URI (spaces and other controls, `"`, `<`, `>`, `\`, `^`, a
/// backtick, `{`, `|`, `}`, and every byte of a character beyond ASCII,
/// in UTF-8) percent-encoded, as the WARC standard asks of
/// `WARC-Target-URI`; what is allowed, `%` of an escape already made
/// among it, is kept, so a URI is never encoded twice.
pub fn uri_field(uri: &str) -> String {
    let mut out = String::with_capacity(uri.len());
    for c in uri.chars() {
        if c.is_ascii_graphic()
            && !matches!(c, '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}')
        {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// A record id (`<urn:uuid:…>`) derived from `seed` and `kind`: the same
/// input always gives the same id, so outputs are reproducible. The UUID is
/// of version 8 (custom): 122 bits of two salted `stable_hash` values, which
/// do not depend on the platform or the Rust release.
pub fn derived_id(seed: &[u8], kind: &[u8]) -> String {
    let (a, b) = (
        stable_hash(0x6e63_6c65_616e_6572, kind, seed),
        stable_hash(0x7761_7263_2d69_6473, kind, seed),
    );
    let a = (a & !0xf000) | 0x8000; // version 8
    let b = (b & !(0b11 << 62)) | (0b10 << 62); // RFC 4122 variant
    format!(
        "<urn:uuid:{:08x}-{:04x}-{:04x}-{:04x}-{:012x}>",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xffff,
        b >> 48,
        b & 0xffff_ffff_ffff
    )
}

/// A hash that is the same on every platform and Rust release (std's
/// `DefaultHasher` is not: its algorithm may change between releases, and
/// with it every derived record id): 64-bit FNV-1a over `salt` (8 bytes,
/// little-endian), then `kind` and `seed` each preceded by its length (8
/// bytes, little-endian), finished by MurmurHash3's `fmix64` so that every
/// output bit depends on every input bit.
pub(super) fn stable_hash(salt: u64, kind: &[u8], seed: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h = OFFSET;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(PRIME);
        }
    };
    eat(&salt.to_le_bytes());
    eat(&(kind.len() as u64).to_le_bytes());
    eat(kind);
    eat(&(seed.len() as u64).to_le_bytes());
    eat(seed);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The current time as a WARC date (`2024-01-31T12:00:00Z`).
pub fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
