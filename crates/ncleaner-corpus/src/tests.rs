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
