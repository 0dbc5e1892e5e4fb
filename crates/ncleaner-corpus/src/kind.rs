//! Content that is neither HTML nor text, recognised from its bytes:
//! images, audio and video, archives and compressed data, executables,
//! fonts, databases (by magic number), and stylesheets and scripts (by a
//! `.css`/`.js` name and bytes that do not start like markup). Such files
//! are skipped with a reason instead of being "cleaned" into garbage
//! ([`crate::identify`] applies them, and finds binary bytes without a
//! magic number too); `--input html|text` still forces them through.

use std::path::Path;

/// What the bytes are when they are not a document (HTML or text), by magic
/// number; `None` for anything else (random bytes are found by their
/// control characters: [`crate::identify::looks_binary`]).
pub fn binary_kind(b: &[u8]) -> Option<&'static str> {
    let at = |off: usize, magic: &[u8]| b.get(off..off + magic.len()) == Some(magic);
    let starts = |magic: &[u8]| b.starts_with(magic);
    Some(match () {
        _ if starts(b"\x89PNG\r\n\x1a\n") => "PNG image",
        _ if starts(b"\xff\xd8\xff") => "JPEG image",
        _ if starts(b"GIF87a") || starts(b"GIF89a") => "GIF image",
        _ if starts(b"RIFF") && at(8, b"WEBP") => "WebP image",
        _ if starts(b"RIFF") && (at(8, b"WAVE") || at(8, b"AVI ")) => "RIFF audio/video",
        _ if starts(b"II*\0") || starts(b"MM\0*") => "TIFF image",
        _ if starts(b"\0\0\x01\0") || starts(b"\0\0\x02\0") => "icon image",
        _ if starts(b"BM") && b.len() >= 14 && b[6..10] == [0, 0, 0, 0] => "BMP image",
        _ if at(4, b"ftyp") => "MP4/QuickTime/AVIF/HEIC media",
        _ if starts(b"\x1a\x45\xdf\xa3") => "Matroska/WebM video",
        _ if starts(b"OggS") => "Ogg media",
        _ if starts(b"fLaC") => "FLAC audio",
        _ if starts(b"ID3") => "MP3 audio",
        _ if starts(b"FLV\x01") => "Flash video",
        _ if starts(b"%PDF-") => "PDF document",
        _ if starts(b"PK\x03\x04") || starts(b"PK\x05\x06") => "ZIP archive",
        _ if starts(b"\x1f\x8b") => "gzip data",
        _ if starts(b"\x28\xb5\x2f\xfd") => "zstd data",
        _ if starts(b"BZh") && at(4, b"\x31\x41\x59\x26\x53\x59") => "bzip2 data",
        _ if starts(b"\xfd7zXZ\0") => "xz data",
        _ if starts(b"7z\xbc\xaf\x27\x1c") => "7-Zip archive",
        _ if starts(b"Rar!\x1a\x07") => "RAR archive",
        _ if at(257, b"ustar") => "tar archive",
        _ if starts(b"\x7fELF") => "ELF executable",
        _ if starts(b"\xfe\xed\xfa\xce")
            || starts(b"\xfe\xed\xfa\xcf")
            || starts(b"\xce\xfa\xed\xfe")
            || starts(b"\xcf\xfa\xed\xfe") =>
        {
            "Mach-O executable"
        }
        _ if starts(b"\xca\xfe\xba\xbe") => "Java class or Mach-O universal binary",
        _ if starts(b"MZ") && is_pe(b) => "Windows executable",
        _ if starts(b"\0asm") => "WebAssembly module",
        _ if starts(b"wOFF") || starts(b"wOF2") => "WOFF font",
        _ if starts(b"OTTO")
            || starts(b"\0\x01\0\0")
            || starts(b"ttcf")
            || starts(b"true") && b.len() > 4 && b[4] == 0 =>
        {
            "OpenType/TrueType font"
        }
        _ if starts(b"SQLite format 3\0") => "SQLite database",
        _ if starts(b"\0\0\0\x01Bud1") => ".DS_Store file",
        _ => return None,
    })
}

/// An `MZ` header whose `e_lfanew` points at a `PE\0\0` signature (or, in a
/// truncated copy, an `MZ` header followed by the NUL bytes of its fields).
fn is_pe(b: &[u8]) -> bool {
    match b.get(0x3c..0x40) {
        Some(off) => {
            let off = u32::from_le_bytes([off[0], off[1], off[2], off[3]]) as usize;
            b.get(off..off + 4) == Some(b"PE\0\0") || b[..0x40].contains(&0)
        }
        None => false,
    }
}

/// A stylesheet or script: a `.css`, `.js`, `.mjs` or `.cjs` file whose
/// first bytes are not markup (a page saved under such a name still reads
/// as a page).
pub fn code_kind(path: &Path, b: &[u8]) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    let what = match ext.as_str() {
        "css" => "CSS stylesheet",
        "js" | "mjs" | "cjs" => "JavaScript",
        _ => return None,
    };
    let b = b.strip_prefix(b"\xef\xbb\xbf").unwrap_or(b);
    (!b.trim_ascii_start().starts_with(b"<")).then_some(what)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_numbers_and_code() {
        assert_eq!(binary_kind(b"\x89PNG\r\n\x1a\n...."), Some("PNG image"));
        assert_eq!(binary_kind(b"\x7fELF\x02\x01\x01"), Some("ELF executable"));
        assert_eq!(binary_kind(b"wOF2...."), Some("WOFF font"));
        assert_eq!(binary_kind(b"PK\x03\x04...."), Some("ZIP archive"));
        let mut tar = vec![b'a'; 600];
        tar[257..262].copy_from_slice(b"ustar");
        assert_eq!(binary_kind(&tar), Some("tar archive"));
        // Text, HTML and UTF-16 pages are not binary.
        for doc in [
            &b"<html><body>x</body></html>"[..],
            b"MZ is a text that starts like an executable.",
            b"\xff\xfe<\0p\0>\0",
            b"\xef\xbb\xbf<p>BOM</p>",
            b"BM is a word too, and so on and so forth",
            b"",
        ] {
            assert_eq!(binary_kind(doc), None, "{doc:?}");
        }
        let css = Path::new("site/style.css");
        assert_eq!(
            code_kind(css, b"body { color: red }"),
            Some("CSS stylesheet")
        );
        assert_eq!(
            code_kind(Path::new("app.JS"), b"\n(function(){})()"),
            Some("JavaScript")
        );
        assert_eq!(
            code_kind(Path::new("saved.js"), b"  <html><p>page</p>"),
            None
        );
        assert_eq!(
            code_kind(Path::new("page.html"), b"body { color: red }"),
            None
        );
    }
}
