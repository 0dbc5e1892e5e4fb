//! Site-level boilerplate: segments that repeat across the pages of one
//! site (host) are a feature of the segment classifier.
//!
//! Navigation, footers, disclaimers and "related stories" headings come back
//! on every page of a site, while its articles do not. Both papers' models
//! see one page at a time; a [`SiteMemory`] remembers, per host, how many
//! pages it has seen and on how many of them each segment occurs, after
//! normalising the segment (lower case, every digit read as `0`, whitespace
//! collapsed: "Posted 12 March 2013" and "Posted 3 April 2013" are one
//! segment) and hashing it to 64 bits (FNV-1a, stable across versions and
//! machines, so memory files stay valid).
//!
//! The feature of a segment is the share of the host's *other* pages that
//! hold it (its own page left out when the memory has seen the page), and
//! whether the host has at least [`MIN_OTHER_PAGES`] other pages at all
//! (otherwise both are 0: one other page says little about a site).
//!
//! **Bounded memory.** At most [`SiteMemory::max_hosts`] hosts and
//! [`SiteMemory::max_segments`] segment hashes per host are kept. When a
//! host's table is full, the hashes seen on a single page are dropped (they
//! cannot be site boilerplate yet); if it is still full, new hashes of that
//! host are ignored (the boilerplate of a site shows up on its first pages
//! and is already in). When the host table is full, new hosts are not
//! remembered. A WARC of millions of records therefore stays within about
//! `max_hosts × max_segments × 12` bytes.
//!
//! **Where the memory comes from.** `clean --sites` reads the inputs twice:
//! first to learn the sites' segments, then to clean; `--site-memory FILE`
//! also loads a memory saved by earlier runs and saves it updated, so sites
//! seen in other WARC files count. (The corpus runner cleans batches of
//! about 1 MB in parallel: a memory built within a batch would see a few
//! pages of a site at most, and one updated as batches finish would make
//! the output depend on the thread count; a first pass is deterministic.)
//! Training and cross-validation build the memory of a pool from its own
//! pages, each page's features leaving the page out.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;

use crate::error::{Error, Result};
use crate::segment::Segment;

/// Hosts need this many other pages in the memory before their segments get a
/// repetition share.
pub const MIN_OTHER_PAGES: u32 = 2;

/// FNV-1a over bytes.
fn fnv1a(bytes: impl IntoIterator<Item = u8>, mut h: u64) -> u64 {
    for b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

const FNV_OFFSET: u64 = 0xcbf29ce484222325;
const FNV_PRIME: u64 = 0x100000001b3;

/// The hash of a segment's text after normalising: lower case, digits as
/// `0`, runs of whitespace as one space, trimmed.
pub fn segment_hash(text: &str) -> u64 {
    let mut h = FNV_OFFSET;
    let mut space = false;
    let mut started = false;
    let mut buf = [0u8; 4];
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        // ASCII: one table-free step per byte (the common case).
        if b < 0x80 {
            i += 1;
            if b.is_ascii_whitespace() {
                space = started;
                continue;
            }
            if space {
                h = (h ^ b' ' as u64).wrapping_mul(FNV_PRIME);
                space = false;
            }
            started = true;
            let l = if b.is_ascii_digit() {
                b'0'
            } else {
                b.to_ascii_lowercase()
            };
            h = (h ^ l as u64).wrapping_mul(FNV_PRIME);
            continue;
        }
        let c = text[i..].chars().next().expect("a char boundary");
        i += c.len_utf8();
        if c.is_whitespace() {
            space = started;
            continue;
        }
        if space {
            h = fnv1a([b' '], h);
            space = false;
        }
        started = true;
        let c = if c.is_numeric() { '0' } else { c };
        for l in c.to_lowercase() {
            h = fnv1a(l.encode_utf8(&mut buf).bytes(), h);
        }
    }
    h
}

/// The host of a URL, lower-cased, without port, user info or a leading
/// `www.`; `None` for URLs without one.
pub fn host_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = if host.starts_with('[') {
        host.split(']').next().map(|h| &h[1..])?
    } else {
        host.split(':').next()?
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_string();
    (!host.is_empty() && host.contains('.') || host == "localhost").then_some(host)
}

/// One host's sketch.
#[derive(Debug, Clone, Default, PartialEq)]
struct HostSketch {
    /// Pages seen.
    pages: u32,
    /// Hashes of the URLs of the pages seen (not added twice).
    urls: HashMap<u64, ()>,
    /// Segment hash → pages holding it.
    segments: HashMap<u64, u32>,
}

/// Per-host counts of normalised segment hashes ([module docs](self)).
#[derive(Debug, Clone, PartialEq)]
pub struct SiteMemory {
    hosts: HashMap<String, HostSketch>,
    /// The most hosts remembered.
    pub max_hosts: usize,
    /// The most segment hashes (and page URLs) remembered per host.
    pub max_segments: usize,
}

impl Default for SiteMemory {
    fn default() -> Self {
        SiteMemory::new(65_536, 2_048)
    }
}

/// A page as the memory sees it: its host, URL hash and distinct segment hashes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageSketch {
    /// The page's host.
    pub host: String,
    /// The hash of its URL.
    pub url: u64,
    /// Its distinct segment hashes.
    pub segments: Vec<u64>,
}

impl PageSketch {
    /// The sketch of a page with this URL and these segments (`None` without a host).
    pub fn of(url: Option<&str>, segments: &[Segment]) -> Option<PageSketch> {
        let url = url?;
        let host = host_of(url)?;
        let mut hashes: Vec<u64> = segments.iter().map(|s| segment_hash(s.text())).collect();
        hashes.sort_unstable();
        hashes.dedup();
        Some(PageSketch {
            host,
            url: fnv1a(url.bytes(), FNV_OFFSET),
            segments: hashes,
        })
    }
}

impl SiteMemory {
    /// An empty memory with these bounds.
    pub fn new(max_hosts: usize, max_segments: usize) -> SiteMemory {
        SiteMemory {
            hosts: HashMap::new(),
            max_hosts,
            max_segments: max_segments.max(1),
        }
    }

    /// Number of hosts remembered.
    pub fn hosts(&self) -> usize {
        self.hosts.len()
    }

    /// Pages seen of a host.
    pub fn pages(&self, host: &str) -> u32 {
        self.hosts.get(host).map_or(0, |h| h.pages)
    }

    /// Adds one page (once per URL).
    pub fn add(&mut self, page: &PageSketch) {
        if !self.hosts.contains_key(&page.host) && self.hosts.len() >= self.max_hosts {
            return;
        }
        let max = self.max_segments;
        let h = self.hosts.entry(page.host.clone()).or_default();
        if h.urls.contains_key(&page.url) {
            return;
        }
        if h.urls.len() < max {
            h.urls.insert(page.url, ());
        }
        h.pages += 1;
        for &s in &page.segments {
            if let Some(c) = h.segments.get_mut(&s) {
                *c += 1;
                continue;
            }
            if h.segments.len() >= max {
                h.segments.retain(|_, c| *c > 1);
            }
            if h.segments.len() < max {
                h.segments.insert(s, 1);
            }
        }
    }

    /// Sets each segment's site feature ([`Segment::site`]): the share of the
    /// host's other pages that hold it. Segments of pages whose host has
    /// fewer than [`MIN_OTHER_PAGES`] other pages get `None`.
    pub fn annotate(&self, url: Option<&str>, segments: &mut [Segment]) {
        // Hosts the memory does not know cost one lookup, no hashing.
        let Some(url) = url else {
            return;
        };
        let Some(h) = host_of(url).and_then(|host| self.hosts.get(&host)) else {
            return;
        };
        let own = h.urls.contains_key(&fnv1a(url.bytes(), FNV_OFFSET));
        let others = h.pages - u32::from(own);
        if others < MIN_OTHER_PAGES {
            return;
        }
        for s in segments.iter_mut() {
            let c = h
                .segments
                .get(&segment_hash(s.text()))
                .copied()
                .unwrap_or(0);
            let c = c.saturating_sub(u32::from(own && c > 0));
            s.site = Some((c as f32 / others as f32).min(1.0));
        }
    }

    /// Adds every page of another memory (their pages are counted; URLs
    /// already seen here are not double-counted only when this memory
    /// remembers them).
    pub fn merge(&mut self, other: &SiteMemory) {
        for (host, o) in &other.hosts {
            if !self.hosts.contains_key(host) && self.hosts.len() >= self.max_hosts {
                continue;
            }
            let max = self.max_segments;
            let h = self.hosts.entry(host.clone()).or_default();
            h.pages += o.pages;
            for &u in o.urls.keys() {
                if h.urls.len() < max {
                    h.urls.insert(u, ());
                }
            }
            for (&s, &c) in &o.segments {
                if let Some(x) = h.segments.get_mut(&s) {
                    *x += c;
                } else if h.segments.len() < max {
                    h.segments.insert(s, c);
                }
            }
        }
    }

    /// Writes the memory: a header line, then per host its name, pages, URL
    /// hashes and (hash, count) pairs, little-endian; hosts and hashes sorted
    /// so that the same memory gives the same bytes.
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut out = Vec::new();
        out.extend_from_slice(b"ncleaner-site-memory 1\n");
        let mut hosts: Vec<&String> = self.hosts.keys().collect();
        hosts.sort();
        out.extend_from_slice(&(hosts.len() as u64).to_le_bytes());
        for host in hosts {
            let h = &self.hosts[host];
            out.extend_from_slice(&(host.len() as u32).to_le_bytes());
            out.extend_from_slice(host.as_bytes());
            out.extend_from_slice(&h.pages.to_le_bytes());
            let mut urls: Vec<u64> = h.urls.keys().copied().collect();
            urls.sort_unstable();
            out.extend_from_slice(&(urls.len() as u32).to_le_bytes());
            for u in urls {
                out.extend_from_slice(&u.to_le_bytes());
            }
            let mut segs: Vec<(u64, u32)> = h.segments.iter().map(|(&a, &b)| (a, b)).collect();
            segs.sort_unstable();
            out.extend_from_slice(&(segs.len() as u32).to_le_bytes());
            for (s, c) in segs {
                out.extend_from_slice(&s.to_le_bytes());
                out.extend_from_slice(&c.to_le_bytes());
            }
        }
        // Written whole under a name of its own beside it (created, never
        // opened over another file), then renamed over it; with the
        // permissions of any file the user makes (0666 less the umask), not
        // a temporary file's 0600.
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let mut name = std::ffi::OsString::from(".");
        name.push(path.file_name().unwrap_or_default());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&name).suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        builder
            .tempfile_in(dir)
            .and_then(|mut f| {
                f.write_all(&out)?;
                f.as_file().sync_all()?;
                f.persist(path).map_err(|e| e.error)?;
                Ok(())
            })
            .map_err(|e| Error::io(path, e))
    }

    /// Reads a memory written by [`SiteMemory::save`], with the default bounds.
    pub fn load(path: &Path) -> Result<SiteMemory> {
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| Error::io(path, e))?;
        let bad =
            |why: &str| Error::Parameter(format!("{}: not a site memory: {why}", path.display()));
        let header = b"ncleaner-site-memory 1\n";
        let mut r = bytes
            .strip_prefix(&header[..])
            .ok_or_else(|| bad("no ncleaner-site-memory 1 header"))?;
        let mut take = |n: usize| -> Result<&[u8]> {
            if r.len() < n {
                return Err(bad("truncated"));
            }
            let (a, b) = r.split_at(n);
            r = b;
            Ok(a)
        };
        let mut mem = SiteMemory::default();
        let u64_of = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        let u32_of = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
        let n = u64_of(take(8)?);
        for _ in 0..n {
            let len = u32_of(take(4)?) as usize;
            let host = std::str::from_utf8(take(len)?)
                .map_err(|_| bad("a host name is not UTF-8"))?
                .to_string();
            let mut h = HostSketch {
                pages: u32_of(take(4)?),
                ..Default::default()
            };
            let urls = u32_of(take(4)?) as usize;
            for _ in 0..urls {
                h.urls.insert(u64_of(take(8)?), ());
            }
            let segs = u32_of(take(4)?) as usize;
            for _ in 0..segs {
                let s = u64_of(take(8)?);
                h.segments.insert(s, u32_of(take(4)?));
            }
            mem.hosts.insert(host, h);
        }
        Ok(mem)
    }
}

/// Sets the site feature of every page of a pool from the pool itself: a
/// memory of all its pages, each page's features leaving the page out
/// (`url` and `segments` of each page).
pub fn annotate_pool<'a>(pages: impl IntoIterator<Item = (Option<&'a str>, &'a mut [Segment])>) {
    let pages: Vec<(Option<&str>, &mut [Segment])> = pages.into_iter().collect();
    let mut mem = SiteMemory::new(usize::MAX, usize::MAX);
    for (url, segs) in &pages {
        if let Some(p) = PageSketch::of(*url, segs) {
            mem.add(&p);
        }
    }
    for (url, segs) in pages {
        mem.annotate(url, segs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::Kind;

    fn segs(texts: &[&str]) -> Vec<Segment> {
        texts
            .iter()
            .map(|t| Segment::plain(Kind::P, t.to_string()))
            .collect()
    }

    #[test]
    fn normalisation() {
        assert_eq!(
            segment_hash("Posted 12 March  2013"),
            segment_hash(" posted 99 march 2014 ")
        );
        assert_ne!(segment_hash("Posted March"), segment_hash("Posted April"));
        assert_eq!(segment_hash("a\tb"), segment_hash("A B"));
        // Non-ASCII text: the same rules (lower case, digits, spaces).
        assert_eq!(segment_hash("Ärger  ٣ Tage"), segment_hash("ärger 0 tage"));
        assert_ne!(segment_hash("Ärger"), segment_hash("Arger"));
        // The ASCII fast path hashes as the general path does.
        let slow = |t: &str| {
            let mut h = FNV_OFFSET;
            let mut buf = [0u8; 4];
            for (k, w) in t.split_whitespace().enumerate() {
                if k > 0 {
                    h = fnv1a([b' '], h);
                }
                for c in w.chars() {
                    let c = if c.is_numeric() { '0' } else { c };
                    for l in c.to_lowercase() {
                        h = fnv1a(l.encode_utf8(&mut buf).bytes(), h);
                    }
                }
            }
            h
        };
        for t in [
            "Posted 12 March 2013",
            "  a  B\tc ",
            "Ünïcödé 42 mixed ASCII",
            "",
        ] {
            assert_eq!(segment_hash(t), slow(t), "{t:?}");
        }
    }

    #[test]
    fn hosts() {
        assert_eq!(
            host_of("http://www.BBC.co.uk/news/x").as_deref(),
            Some("bbc.co.uk")
        );
        assert_eq!(
            host_of("https://u:p@blogs.wsj.com:8080/a?b").as_deref(),
            Some("blogs.wsj.com")
        );
        assert_eq!(host_of("nonsense"), None);
        assert_eq!(host_of(""), None);
    }

    #[test]
    fn repeated_segments_get_their_share_of_other_pages() {
        let mut mem = SiteMemory::default();
        let pages: Vec<(String, Vec<Segment>)> = (0..4)
            .map(|i| {
                (
                    format!("http://site.org/p{i}"),
                    segs(&[
                        "Home | News | Contact",
                        &format!("Article text number {}", "x".repeat(i)),
                    ]),
                )
            })
            .collect();
        for (u, s) in &pages {
            mem.add(&PageSketch::of(Some(u), s).unwrap());
            // The same page again does not count twice.
            mem.add(&PageSketch::of(Some(u), s).unwrap());
        }
        assert_eq!(mem.pages("site.org"), 4);
        let mut s = pages[0].1.clone();
        mem.annotate(Some(&pages[0].0), &mut s);
        assert_eq!(s[0].site, Some(1.0), "on all 3 other pages");
        assert_eq!(s[1].site, Some(0.0), "on none of them");
        // A new page of the site: its own page is not in the memory.
        let mut n = segs(&["Home | News | Contact", "Fresh"]);
        mem.annotate(Some("http://site.org/new"), &mut n);
        assert_eq!(n[0].site, Some(1.0));
        assert_eq!(n[1].site, Some(0.0));
        // Another host: no feature.
        let mut o = segs(&["Home | News | Contact"]);
        mem.annotate(Some("http://other.org/"), &mut o);
        assert_eq!(o[0].site, None);
    }

    #[test]
    fn bounded_and_saved_bit_for_bit() {
        let mut mem = SiteMemory::new(2, 8);
        for h in 0..3 {
            for p in 0..5 {
                let texts: Vec<String> = (0..6)
                    .map(|k| format!("seg {h} {p} {k} {}", "z".repeat(k)))
                    .collect();
                let mut t: Vec<&str> = texts.iter().map(String::as_str).collect();
                t.push("shared footer");
                let s = segs(&t);
                mem.add(&PageSketch::of(Some(&format!("http://h{h}.com/{p}")), &s).unwrap());
            }
        }
        assert_eq!(mem.hosts(), 2);
        for h in mem.hosts.values() {
            assert!(h.segments.len() <= 8 && h.urls.len() <= 8);
            assert_eq!(h.segments.get(&segment_hash("shared footer")), Some(&5));
        }
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        mem.save(&a).unwrap();
        let back = SiteMemory::load(&a).unwrap();
        back.save(&b).unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        assert_eq!(back.hosts, mem.hosts);
        std::fs::write(&b, b"junk").unwrap();
        assert!(
            SiteMemory::load(&b)
                .unwrap_err()
                .to_string()
                .contains("not a site memory")
        );
        std::fs::write(&b, &std::fs::read(&a).unwrap()[..40]).unwrap();
        assert!(SiteMemory::load(&b).is_err());
    }

    /// Issue 52, 8: saving a memory writes no file but its own: a file
    /// named like a fixed temporary name beside it (`NAME.tmp`) is left as
    /// it was, and nothing else is left behind.
    #[test]
    fn saving_leaves_other_files_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sites.mem");
        let tmp = dir.path().join("sites.tmp");
        std::fs::write(&tmp, b"someone else's file").unwrap();
        let mut mem = SiteMemory::default();
        mem.add(&PageSketch::of(Some("http://h.com/1"), &segs(&["a footer"])).unwrap());
        mem.save(&path).unwrap();
        assert_eq!(std::fs::read(&tmp).unwrap(), b"someone else's file");
        assert!(SiteMemory::load(&path).is_ok());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn pool_annotation_leaves_each_page_out() {
        let mut pages: Vec<(Option<String>, Vec<Segment>)> = (0..3)
            .map(|i| {
                (
                    Some(format!("http://a.com/{i}")),
                    segs(&["Menu", &format!("Body {}", "y".repeat(i))]),
                )
            })
            .collect();
        annotate_pool(
            pages
                .iter_mut()
                .map(|(u, s)| (u.as_deref(), s.as_mut_slice())),
        );
        for (_, s) in &pages {
            assert_eq!(s[0].site, Some(1.0));
            assert_eq!(s[1].site, Some(0.0));
        }
    }
}
