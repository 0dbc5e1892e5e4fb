use super::*;
use crate::{Container, Input};

#[test]
fn destinations() {
    assert_eq!(Destination::from_arg(None), Destination::Stdout);
    assert_eq!(
        Destination::from_arg(Some(Path::new("-"))),
        Destination::Stdout
    );
    assert_eq!(
        Destination::from_arg(Some(Path::new("/nonexistent/out.jsonl.gz"))),
        Destination::File("/nonexistent/out.jsonl.gz".into())
    );
    assert_eq!(
        Destination::from_arg(Some(Path::new("/nonexistent/out"))),
        Destination::Dir("/nonexistent/out".into())
    );
    assert_eq!(
        Destination::from_arg(Some(Path::new("/tmp"))),
        Destination::Dir("/tmp".into())
    );
}

/// Issue 70, P1: the temporary name of an output named at the file
/// system's limit fits it, and two such names keep two.
#[test]
fn temporary_names_fit_the_file_systems_limit() {
    let short = partial_path(Path::new("out/a.txt"));
    assert_eq!(short, Path::new("out/.a.txt.partial"));
    let a = format!("{}.txt", "n".repeat(247));
    let b = format!("{}.txt", "n".repeat(246));
    let (pa, pb) = (partial_path(Path::new(&a)), partial_path(Path::new(&b)));
    for p in [&pa, &pb] {
        let name = p.file_name().unwrap().to_str().unwrap();
        assert!(name.len() <= NAME_MAX && name.starts_with(".nnn"), "{name}");
        assert!(name.ends_with(".partial"), "{name}");
    }
    assert_ne!(pa, pb);
    // Multi-byte characters are cut whole.
    let c = format!("{}.txt", "é".repeat(125));
    let pc = hidden_beside(Path::new(&c), ".lock");
    assert!(pc.to_str().unwrap().len() <= NAME_MAX);
}

/// Issue 70, P1: a file's output and a folder's outputs never collide:
/// `in/sub.html` and `in/sub.txt/inner.html`, in either order.
#[test]
fn claims_keep_files_and_folders_apart() {
    let input = |rel: &str| Input {
        origin: super::super::Origin::File {
            path: Path::new("/data/in").join(rel),
            rel: rel.into(),
        },
        container: Container::Document,
        compression: Compression::None,
    };
    for order in [
        ["sub.html", "sub.txt/inner.html"],
        ["sub.txt/inner.html", "sub.html"],
    ] {
        let mut c = Claims::new(Path::new("/out"), "txt");
        let got: Vec<PathBuf> = order.iter().map(|r| c.claim(&input(r))).collect();
        let (file, inner) = match order[0] {
            "sub.html" => (&got[0], &got[1]),
            _ => (&got[1], &got[0]),
        };
        assert!(!inner.starts_with(file), "{got:?}");
        assert!(!file.starts_with(inner), "{got:?}");
    }
    let mut c = Claims::new(Path::new("/out"), "txt");
    assert_eq!(c.claim(&input("sub.html")), Path::new("/out/sub.txt"));
    assert_eq!(
        c.claim(&input("sub.txt/inner.html")),
        Path::new("/out/in/sub.txt/inner.txt")
    );
}

#[test]
fn file_uris() {
    assert!(stream::file_uri(Path::new("/no such/x.html")).starts_with("file:///no%20such/x.html"));
}
