//! Unit tests of the crate root: sniffing, names, sources, the site pass.

use super::*;

#[test]
fn site_memory_learns_the_hosts_of_the_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("pages.jsonl");
    let page = |url: &str| {
        format!(
            "{{\"id\":\"{url}\",\"url\":\"{url}\",\"html\":\"<html><body><ul><li>Home</li><li>News</li></ul><p>A paragraph of running text about {url}.</p></body></html>\"}}\n"
        )
    };
    let lines =
        page("http://a.example/1") + &page("http://a.example/2") + &page("http://b.example/1");
    std::fs::write(&jsonl, lines).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let inputs = [jsonl.clone()];
    let (mem, pages) = site_memory(&inputs, InputKind::Auto, None, false, &pool).unwrap();
    assert_eq!((pages, mem.hosts()), (3, 2));
    // Saved and used as it is, without another pass.
    let saved = dir.path().join("sites.mem");
    mem.save(&saved).unwrap();
    let (again, pages) = site_memory(&inputs, InputKind::Auto, Some(&saved), true, &pool).unwrap();
    assert_eq!((pages, again.hosts()), (0, 2));
    // Standard input cannot be read twice.
    let stdin = [PathBuf::from("-")];
    assert!(site_memory(&stdin, InputKind::Auto, None, false, &pool).is_err());
}

#[test]
fn output_paths() {
    let input = |rel: &str, container, compression| Input {
        origin: Origin::File {
            path: PathBuf::from("/in").join(rel),
            rel: PathBuf::from(rel),
        },
        container,
        compression,
    };
    let out = Path::new("/out");
    assert_eq!(
        input("a/b.html", Container::Document, Compression::None).output_path(out, "txt"),
        Path::new("/out/a/b.txt")
    );
    assert_eq!(
        input("p/1.html.gz", Container::Document, Compression::Gzip).output_path(out, "txt"),
        Path::new("/out/p/1.txt")
    );
    assert_eq!(
        input("crawl/x.warc.gz", Container::Warc, Compression::Gzip).output_path(out, "jsonl"),
        Path::new("/out/crawl/x.jsonl.gz")
    );
    assert_eq!(
        input("d.jsonl", Container::Jsonl, Compression::None).output_path(out, "txt"),
        Path::new("/out/d.txt")
    );
}

#[test]
fn non_ascii_names_do_not_panic() {
    for name in [
        "café.htm",
        "résumé.html",
        "日本.html",
        "naïve.txt",
        "é",
        "日.gz",
        "x日.warc.gz",
        "ünï.jsonl",
    ] {
        let _ = strip_container_suffix(name);
        let _ = container_from_name(Path::new(name));
    }
    assert_eq!(strip_container_suffix("日本.warc.gz"), "日本");
    assert_eq!(
        container_from_name(Path::new("日本.warc.gz")),
        Some(Container::Warc)
    );
    assert_eq!(container_from_name(Path::new("café.htm")), None);
}

#[test]
fn containers_by_name_and_content() {
    assert_eq!(
        container_from_name(Path::new("a.warc.gz")),
        Some(Container::Warc)
    );
    assert_eq!(
        container_from_name(Path::new("A.WARC")),
        Some(Container::Warc)
    );
    assert_eq!(
        container_from_name(Path::new("d.jsonl.zst")),
        Some(Container::Jsonl)
    );
    assert_eq!(container_from_name(Path::new("p.html")), None);
    assert_eq!(container_from_name(Path::new("warc")), None);
    let gz = compress::gzip_member(b"WARC/1.0\r\n", 6);
    assert_eq!(sniff(&gz, false), (Container::Warc, Compression::Gzip));
    assert_eq!(sniff(b"WARC/1.1\r\n", false).0, Container::Warc);
    assert_eq!(sniff(b"{\"html\":1}", true).0, Container::Jsonl);
    assert_eq!(sniff(b"{\"html\":1}", false).0, Container::Document);
    // A compressed page is a document read decompressed.
    let page = compress::gzip_member(b"<html>", 6);
    assert_eq!(
        sniff(&page, false),
        (Container::Document, Compression::Gzip)
    );
}

/// Files of every kind a crawl run meets, some broken: WARC.gz (one cut
/// short), JSON Lines (one line broken), a page, a missing file.
fn mixed_inputs(dir: &Path) -> Vec<Origin> {
    let page = |i: usize| {
        format!("<html><body><p>Page {i} of the crawl, a paragraph of prose.</p></body></html>")
    };
    let warc = |from: usize, n: usize| -> Vec<u8> {
        (from..from + n)
            .flat_map(|i| {
                let http = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{}",
                    page(i)
                );
                let record = crate::torture::warc_response(
                    &i.to_string(),
                    &format!("http://example.com/{i}"),
                    http.as_bytes(),
                    &[],
                );
                compress::gzip_member(&record, 6)
            })
            .collect()
    };
    let jsonl = |from: usize, n: usize| -> String {
        (from..from + n)
            .map(|i| match i % 50 {
                7 => "{\"id\": broken\n".to_string(),
                _ => format!("{{\"id\":\"j{i}\",\"html\":\"{}\"}}\n", page(i)),
            })
            .collect()
    };
    let mut files = vec![
        ("a.warc.gz", warc(0, 150)),
        ("b.jsonl", jsonl(0, 300).into_bytes()),
        ("c.warc.gz", {
            let mut w = warc(1000, 20);
            w.truncate(w.len() - 40);
            w
        }),
        ("d.html", page(7).into_bytes()),
        (
            "e.jsonl.gz",
            compress::gzip_member(jsonl(500, 90).as_bytes(), 6),
        ),
    ];
    files.push(("f.warc.gz", warc(2000, 3)));
    let mut origins: Vec<Origin> = files
        .iter()
        .map(|(name, bytes)| {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            Origin::File {
                path,
                rel: PathBuf::from(name),
            }
        })
        .collect();
    origins.insert(
        3,
        Origin::File {
            path: dir.join("missing.warc.gz"),
            rel: PathBuf::from("missing.warc.gz"),
        },
    );
    origins
}

#[test]
fn several_readers_give_what_one_reader_gives() {
    let dir = tempfile::tempdir().unwrap();
    let origins = mixed_inputs(dir.path());
    for keep_records in [false, true] {
        let opts = SourceOptions {
            keep_records,
            ..SourceOptions::default()
        };
        let entries = |readers: usize| -> Vec<String> {
            Source::new(origins.clone(), opts)
                .readers(readers)
                .map(|e| format!("{e:?}"))
                .collect()
        };
        let one = entries(1);
        // Every file's entries, the failures among them: a cut record, a
        // broken line, a missing file.
        assert!(one.len() > 500, "{}", one.len());
        assert!(
            one.iter()
                .any(|e| e.contains("missing.warc.gz") && e.contains("Failed"))
        );
        assert!(
            one.iter()
                .any(|e| e.contains("c.warc.gz") && e.contains("Failed"))
        );
        for readers in [2, 3, 8] {
            assert_eq!(entries(readers), one, "{readers} readers");
        }
    }
}

/// Issue 70, P1: a sink that cannot write one entry's output fails that
/// entry alone ([`Written::Failed`]): it is counted and heard of as
/// failed, and the run goes on; a sink that fails as a whole stops the
/// run, which closes what was written as a stopped run's and tells the
/// observer the counts so far.
#[test]
fn an_output_failing_alone_or_as_a_whole() {
    use std::sync::{Arc, Mutex};
    struct Picky {
        /// The entry whose output fails alone, and the one that stops the run.
        alone: &'static str,
        stop: &'static str,
        written: Vec<String>,
        incomplete: Arc<Mutex<bool>>,
    }
    impl Sink for Picky {
        fn write(&mut self, entry: &Entry, _: &Outcome) -> Result<Written> {
            if entry.id.ends_with(self.stop) {
                return Err(Error::document(&entry.id, "the disk is full"));
            }
            if entry.id.ends_with(self.alone) {
                return Ok(Written::Failed(Error::document(
                    &entry.id,
                    "no room for this one",
                )));
            }
            self.written.push(entry.id.clone());
            Ok(Written::Done)
        }
        fn finish(&mut self) -> Result<()> {
            Ok(())
        }
        fn finish_incomplete(&mut self) -> Result<()> {
            *self.incomplete.lock().unwrap() = true;
            Ok(())
        }
    }
    #[derive(Default)]
    struct Heard {
        failed: Vec<String>,
        stopped: Option<Stats>,
    }
    impl Observer for Heard {
        fn failed(&mut self, e: &Entry, _: &Error) {
            self.failed.push(e.id.clone());
        }
        fn progress(&mut self, _: &Stats) {}
        fn stopped(&mut self, stats: &Stats, _: &Error) {
            self.stopped = Some(*stats);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let origins = small_pages(dir.path(), 6);
    let pool = two_threads();
    let work = |_: &Entry| Ok(Rendered::default());
    let options = RunOptions {
        batch_docs: 1,
        batch_bytes: 1,
        ..RunOptions::default()
    };
    // One entry fails alone: the run ends, that entry counted failed.
    let incomplete = Arc::new(Mutex::new(false));
    let mut sink = Picky {
        alone: "p2.html",
        stop: "none",
        written: Vec::new(),
        incomplete: incomplete.clone(),
    };
    let mut heard = Heard::default();
    let source = Source::new(origins.clone(), SourceOptions::default());
    let stats = run(source, &pool, options, &work, &mut sink, &mut heard).unwrap();
    assert_eq!((stats.cleaned, stats.failed), (5, 1));
    assert_eq!(sink.written.len(), 5);
    assert!(heard.failed[0].ends_with("p2.html") && heard.failed.len() == 1);
    assert!(heard.stopped.is_none() && !*incomplete.lock().unwrap());
    // The sink fails as a whole at the fourth: the run stops there.
    let mut sink = Picky {
        alone: "none",
        stop: "p3.html",
        written: Vec::new(),
        incomplete: incomplete.clone(),
    };
    let mut heard = Heard::default();
    let source = Source::new(origins, SourceOptions::default());
    let err = run(source, &pool, options, &work, &mut sink, &mut heard).unwrap_err();
    assert!(err.to_string().contains("the disk is full"), "{err}");
    assert_eq!(sink.written.len(), 3);
    assert_eq!(heard.stopped.map(|s| s.cleaned), Some(3));
    assert!(*incomplete.lock().unwrap());
}

/// Issue 70: the batches in flight are bounded by their bytes too. With
/// every document larger than the budget (`batch_bytes` of 1: a budget of
/// 8 bytes on two threads), no two are cleaned at once, and every one is
/// written, in order.
#[test]
fn documents_larger_than_the_budget_are_cleaned_one_at_a_time() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    struct Kept(Vec<String>);
    impl Sink for Kept {
        fn write(&mut self, entry: &Entry, _: &Outcome) -> Result<Written> {
            self.0.push(entry.id.clone());
            Ok(Written::Done)
        }
        fn finish(&mut self) -> Result<()> {
            Ok(())
        }
    }
    let dir = tempfile::tempdir().unwrap();
    // Ten pages: their ids (p0.html … p9.html) sort as their order.
    let origins = small_pages(dir.path(), 10);
    let pool = two_threads();
    let (active, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let work = |_: &Entry| {
        let now = active.fetch_add(1, Ordering::SeqCst) + 1;
        most.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(std::time::Duration::from_millis(5));
        active.fetch_sub(1, Ordering::SeqCst);
        Ok(Rendered::default())
    };
    let options = RunOptions {
        batch_docs: 1,
        batch_bytes: 1,
        ..RunOptions::default()
    };
    let mut sink = Kept(Vec::new());
    let source = Source::new(origins, SourceOptions::default());
    let stats = run(source, &pool, options, &work, &mut sink, &mut ()).unwrap();
    assert_eq!(stats.cleaned, 10);
    assert_eq!(most.load(Ordering::SeqCst), 1);
    let mut sorted = sink.0.clone();
    sorted.sort();
    assert_eq!(sink.0, sorted);
}

/// Issue 72: unless the run keeps its inputs, a document is dropped as
/// soon as it is cleaned, before its entry reaches the sink (a cleaned page
/// of megabytes waits for its turn to be written without its bytes); the
/// bytes read are counted either way. A run that keeps them (WARC output)
/// hands the sink every document whole.
#[test]
fn a_document_is_dropped_once_cleaned_unless_inputs_are_kept() {
    struct Seen(Vec<usize>);
    impl Sink for Seen {
        fn write(&mut self, entry: &Entry, _: &Outcome) -> Result<Written> {
            self.0.push(entry.bytes().len());
            Ok(Written::Done)
        }
        fn finish(&mut self) -> Result<()> {
            Ok(())
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let origins = small_pages(dir.path(), 5);
    let sizes: Vec<usize> = (0..5)
        .map(|i| format!("<p>Page {i} has some words.</p>").len())
        .collect();
    let pool = two_threads();
    let work = |e: &Entry| {
        assert!(
            !e.bytes().is_empty(),
            "a document is whole while it is cleaned"
        );
        Ok(Rendered::default())
    };
    for keep_inputs in [false, true] {
        let options = RunOptions {
            keep_inputs,
            ..RunOptions::default()
        };
        let mut sink = Seen(Vec::new());
        let source = Source::new(origins.clone(), SourceOptions::default());
        let stats = run(source, &pool, options, &work, &mut sink, &mut ()).unwrap();
        assert_eq!(stats.cleaned, 5);
        assert_eq!(stats.bytes, sizes.iter().sum::<usize>() as u64);
        let expected = if keep_inputs {
            sizes.clone()
        } else {
            vec![0; 5]
        };
        assert_eq!(sink.0, expected, "keep_inputs: {keep_inputs}");
    }
}

/// `n` small HTML pages `p0.html`, `p1.html` … written in `dir`, as files.
fn small_pages(dir: &std::path::Path, n: usize) -> Vec<Origin> {
    (0..n)
        .map(|i| {
            let path = dir.join(format!("p{i}.html"));
            std::fs::write(&path, format!("<p>Page {i} has some words.</p>")).unwrap();
            Origin::File {
                rel: PathBuf::from(path.file_name().unwrap()),
                path,
            }
        })
        .collect()
}

/// A rayon pool of two threads.
fn two_threads() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
}
