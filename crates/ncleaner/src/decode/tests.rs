use super::*;

#[test]
fn pseudo_tag_gives_url_and_is_removed() {
    let page =
        b"<text id=\"http://example.com/a\" title=\"T\" encoding=\"unset\">\n<html><p>Hi</p>";
    let d = decode(page, None, None);
    assert_eq!(d.url.as_deref(), Some("http://example.com/a"));
    assert_eq!(d.text, "<html><p>Hi</p>");
}

#[test]
fn utf8_text_is_borrowed_and_the_rest_decoded_as_decode_does() {
    use std::borrow::Cow;
    let utf8 = "<text id=\"http://a/\">\n<p>caf\u{e9}</p>".as_bytes();
    let d = decode_borrowed(utf8, None, None);
    assert!(matches!(d.text, Cow::Borrowed("<p>caf\u{e9}</p>")), "{d:?}");
    assert_eq!(d.url.as_deref(), Some("http://a/"));
    let pages: [&[u8]; 3] = [
        utf8,
        b"\xEF\xBB\xBF<p>bom",
        b"<p>caf\xE9 cr\xE8me br\xFBl\xE9e",
    ];
    for page in pages {
        let (b, d) = (
            decode_borrowed(page, None, Some("latin1")),
            decode(page, None, Some("latin1")),
        );
        assert_eq!((&*b.text, b.url, b.encoding), (&*d.text, d.url, d.encoding));
        assert_eq!(
            (b.encoding_source, b.had_errors),
            (d.encoding_source, d.had_errors)
        );
    }
    assert!(matches!(
        decode_borrowed(pages[2], None, None).text,
        Cow::Owned(_)
    ));
}

#[test]
fn caller_url_wins_over_pseudo_tag() {
    let page = b"<text id=\"http://a/\">\nx";
    let d = decode(page, Some("http://b/"), None);
    assert_eq!(d.url.as_deref(), Some("http://b/"));
    assert_eq!(d.text, "x");
}

#[test]
fn utf8_bom() {
    let d = decode(b"\xEF\xBB\xBFcaf\xC3\xA9", None, None);
    assert_eq!(d.text, "café");
    assert_eq!(d.encoding_source, EncodingSource::Bom);
}

#[test]
fn utf16_bom() {
    let d = decode(b"\xFF\xFEh\x00i\x00", None, None);
    assert_eq!(d.text, "hi");
    assert_eq!(d.encoding, encoding_rs::UTF_16LE);
}

#[test]
fn meta_charset_latin1() {
    let page = b"<html><head><meta charset=\"iso-8859-1\"></head><body>caf\xE9</body>";
    let d = decode(page, None, None);
    assert!(d.text.contains("café"), "{}", d.text);
    assert_eq!(d.encoding_source, EncodingSource::Meta);
    assert_eq!(d.encoding, WINDOWS_1252); // WHATWG: latin1 labels mean windows-1252
}

#[test]
fn meta_http_equiv_cp1252() {
    let page =
        b"<META HTTP-EQUIV='Content-Type' CONTENT='text/html; charset=windows-1252'>\x93quoted\x94";
    let d = decode(page, None, None);
    assert!(d.text.contains("\u{201C}quoted\u{201D}"), "{}", d.text);
}

#[test]
fn meta_inside_comment_is_ignored() {
    let page = b"<!-- <meta charset=koi8-r> --><p>caf\xE9";
    let d = decode(page, None, None);
    assert_ne!(d.encoding, encoding_rs::KOI8_R);
}

#[test]
fn transport_charset_wins_over_meta() {
    let page = b"<meta charset=utf-8><p>caf\xE9";
    let d = decode(page, None, Some("iso-8859-1"));
    assert_eq!(d.encoding_source, EncodingSource::Transport);
    assert!(d.text.contains("café"));
}

#[test]
fn valid_utf8_overrides_wrong_latin1_label() {
    let page = "<meta charset=iso-8859-1><p>café</p>".as_bytes();
    let d = decode(page, None, None);
    assert_eq!(d.encoding, UTF_8);
    assert!(d.text.contains("café"));
}

#[test]
fn undeclared_utf8() {
    let d = decode("<p>naïve café</p>".as_bytes(), None, None);
    assert_eq!(d.encoding, UTF_8);
    assert_eq!(d.encoding_source, EncodingSource::Utf8Valid);
}

#[test]
fn undeclared_latin1_is_detected() {
    let page = b"<p>Le caf\xE9 est tr\xE8s bon, et la cr\xE8me br\xFBl\xE9e aussi. \
                 Nous avons d\xE9j\xE0 mang\xE9 \xE0 la fen\xEAtre.</p>";
    let d = decode(page, Some("http://exemple.fr/"), None);
    assert_eq!(d.encoding_source, EncodingSource::Detected);
    assert!(d.text.contains("café"), "{}", d.text);
    assert!(!d.had_errors);
}

#[test]
fn invalid_bytes_become_replacement_characters() {
    // UTF-8 but for its bad bytes (one character of two bytes, one
    // invalid sequence): bytes further from UTF-8 would be detected.
    let page = b"<meta charset=utf-8>ok caf\xC3\xA9 \xFF bad";
    let d = decode(page, None, None);
    assert!(d.text.contains('\u{FFFD}'));
    assert!(d.had_errors);
}

/// D5: one bad byte in otherwise valid UTF-8, or a character cut by the
/// end of the bytes, leaves the page UTF-8 with U+FFFD, declared or not.
#[test]
fn one_bad_byte_in_utf8_stays_utf8() {
    let good = "<p>Grüße aus München, schöne Tage!</p>";
    let mut bad = good.as_bytes().to_vec();
    bad.insert(good.find(", ").unwrap(), 0xff);
    for page in [
        bad.clone(),
        [&bad[..], b"<meta charset=windows-1252>"].concat(),
    ] {
        let d = decode(&page, None, None);
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.encoding_source, EncodingSource::Utf8Mostly);
        assert!(d.text.contains("Grüße aus München"), "{}", d.text);
        assert!(d.text.contains('\u{FFFD}') && d.had_errors);
    }
    let d = decode(&bad, None, Some("iso-8859-1"));
    assert!(d.text.contains("schöne Tage"), "{}", d.text);
    // Cut in the middle of its last character.
    let cut = &good.as_bytes()[..good.find("ne Tage").unwrap() - 1];
    let d = decode(cut, None, None);
    assert_eq!(d.encoding, UTF_8);
    assert!(d.text.starts_with("<p>Grüße aus München, sc"), "{}", d.text);
    // Text in windows-1252 is not taken for UTF-8.
    let latin = b"<p>Gr\xfc\xdfe aus M\xfcnchen, sch\xf6ne Tage</p>";
    assert!(!mostly_utf8(latin));
    assert!(decode(latin, None, None).text.contains("Grüße"));
}

/// Issue 70: under a multi-byte label the rule counts distinct
/// characters. UTF-8 Russian is valid GBK too (its two-byte characters
/// are GBK pairs); "Привет" holds six distinct letters, fewer than
/// [`UTF8_DISTINCT_CHARACTERS`], and stays GBK (the label is the better
/// evidence for so few), "Здравствуйте" holds ten and is UTF-8; a word
/// repeated is no more evidence than the word once.
#[test]
fn a_multibyte_label_yields_to_enough_distinct_utf8_characters() {
    let gbk = encoding_rs::GBK;
    for (word, utf8) in [("Привет", false), ("Здравствуйте", true)] {
        assert!(
            gbk.decode_without_bom_handling_and_without_replacement(word.as_bytes())
                .is_some()
        );
        for page in [
            format!("<meta charset=gbk><p>{word}</p>"),
            format!("<meta charset=gbk><p>{}</p>", [word; 20].join(" ")),
        ] {
            let d = decode(page.as_bytes(), None, None);
            let want = if utf8 { UTF_8 } else { gbk };
            assert_eq!(d.encoding, want, "{page}");
            assert_eq!(d.text.contains(word), utf8, "{page}");
        }
    }
    assert!(distinct_multibyte_at_least("Здравствуйте", 10));
    assert!(!distinct_multibyte_at_least("Здравствуйте", 11));
    assert!(!distinct_multibyte_at_least("ascii only", 1));
}

/// Issue 70: a few UTF-8 characters the label's decoder rejects are
/// UTF-8 whatever their number (a `’` and a `–` under a Big5 label, as a
/// 2008 news page in the shared data has them), and so is a UTF-8 page
/// cut in the middle of its last character; ASCII keeps the label.
#[test]
fn a_multibyte_label_yields_to_utf8_it_cannot_read() {
    let page = "<meta charset=big5><p>Musharraf’s grip on power, 1999 – 2008.</p>";
    let d = decode(page.as_bytes(), None, None);
    assert_eq!(
        (d.encoding, d.encoding_source),
        (UTF_8, EncodingSource::Utf8Valid)
    );
    assert!(d.text.contains("Musharraf’s grip"));
    let d = decode(page.as_bytes(), None, Some("euc-kr"));
    assert_eq!(d.encoding, UTF_8);
    let zh = "<meta charset=gb2312><p>新华社北京十二月十五日电，记者从国家气象局获悉。</p>";
    let cut = &zh.as_bytes()[..zh.find("局").unwrap() + 2];
    let d = decode(cut, None, None);
    assert_eq!(
        (d.encoding, d.encoding_source),
        (UTF_8, EncodingSource::Utf8Mostly)
    );
    assert!(d.text.contains("记者从国家气象"), "{}", d.text);
    let ascii = b"<meta charset=shift_jis><p>plain</p>";
    assert_eq!(decode(ascii, None, None).encoding, encoding_rs::SHIFT_JIS);
    // ISO-2022-JP is ASCII bytes: its text keeps its label.
    let (jis, _, _) = encoding_rs::ISO_2022_JP.encode("日本語のページです");
    let jis = [&b"<meta charset=iso-2022-jp><p>"[..], &jis].concat();
    let d = decode(&jis, None, None);
    assert_eq!(d.encoding, encoding_rs::ISO_2022_JP);
    assert!(d.text.contains("日本語のページです"));
}

/// Issue 70: under a UTF-8 label, bytes with more invalid sequences than
/// UTF-8 characters are detected as unlabelled bytes are; bytes nearer
/// UTF-8 keep the label, with U+FFFD where they are not.
#[test]
fn a_utf8_label_yields_to_bytes_far_from_utf8() {
    let latin = b"<p>Le caf\xE9 est tr\xE8s bon, et la cr\xE8me br\xFBl\xE9e aussi.</p>";
    for (meta, transport) in [(true, None), (false, Some("utf-8"))] {
        let page = match meta {
            true => [&b"<meta charset=utf-8>"[..], latin].concat(),
            false => latin.to_vec(),
        };
        let d = decode(&page, Some("http://exemple.fr/"), transport);
        assert_eq!(d.encoding_source, EncodingSource::Detected);
        assert!(d.text.contains("caf\u{e9}") && !d.had_errors, "{}", d.text);
    }
    assert!(far_from_utf8(latin).is_some());
    // Three UTF-8 characters and one bad byte: UTF-8 as labelled.
    let mut near = "<meta charset=utf-8><p>Grüße, schöne Tage</p>"
        .as_bytes()
        .to_vec();
    near.insert(near.len() - 8, 0xff);
    assert!(far_from_utf8(&near).is_none());
    // UTF-8 and Latin-1 in one page under a UTF-8 label: 3 characters,
    // 7 invalid sequences, a single-byte guess: the label stands.
    let mut mixed = "<meta charset=utf-8><p>Café naïve — ".as_bytes().to_vec();
    mixed.extend_from_slice(b"caf\xe9 \xff\xfe\xc3 \xed\xa0\x80 end.</p>");
    let counts = far_from_utf8(&mixed).unwrap();
    assert_eq!((counts.multibyte, counts.invalid), (3, 7));
    let d = decode(&mixed, None, None);
    assert_eq!(d.encoding, UTF_8);
    assert!(d.text.contains("Café naïve"), "{}", d.text);
    let d = decode(&near, None, None);
    assert_eq!(
        (d.encoding, d.encoding_source),
        (UTF_8, EncodingSource::Meta)
    );
    assert!(d.text.contains("Grüße") && d.had_errors);
}

/// The fast count of [`mostly_utf8`] is the one `Utf8Chunks` gives.
#[test]
fn mostly_utf8_counts_as_utf8_chunks_do() {
    let reference = |bytes: &[u8]| {
        let (mut multibyte, mut invalid) = (0usize, 0usize);
        for chunk in bytes.utf8_chunks() {
            multibyte += chunk.valid().bytes().filter(|&b| b >= 0xc0).count();
            invalid += usize::from(!chunk.invalid().is_empty());
        }
        multibyte > 0 && multibyte >= 2 * invalid
    };
    let mut seed = 3u64;
    let pieces: [&[u8]; 8] = [
        b"a",
        "é".as_bytes(),
        "日".as_bytes(),
        b"\xff",
        b"\xc3",
        b"\xe6\x97",
        b" ",
        "😀".as_bytes(),
    ];
    for _ in 0..5000 {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        let n = (seed >> 58) as usize;
        let mut v = Vec::new();
        for i in 0..n {
            v.extend_from_slice(pieces[((seed >> (i % 40)) % 8) as usize]);
        }
        assert_eq!(mostly_utf8(&v), reference(&v), "{v:?}");
    }
}

/// D16: a page declared UTF-16 without a byte-order mark is read as
/// UTF-16, and so is one laid out as UTF-16 that declares nothing.
#[test]
fn utf16_without_bom_is_read_as_utf16() {
    let page = "<html><body><p>Grüße, 日本語 and UTF-16</p></body></html>";
    let le: Vec<u8> = page.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    let be: Vec<u8> = page.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
    for (bytes, label, enc) in [
        (&le, Some("utf-16le"), encoding_rs::UTF_16LE),
        (&le, Some("utf-16"), encoding_rs::UTF_16LE),
        (&be, Some("utf-16be"), encoding_rs::UTF_16BE),
        (&le, None, encoding_rs::UTF_16LE),
        (&be, None, encoding_rs::UTF_16BE),
    ] {
        let d = decode(bytes, None, label);
        assert_eq!(d.encoding, enc, "{label:?}");
        assert_eq!(d.text, page, "{label:?}");
    }
    // A UTF-16 label on ASCII-compatible bytes is still read as UTF-8.
    let d = decode(page.as_bytes(), None, Some("utf-16le"));
    assert_eq!((d.encoding, d.text.as_str()), (UTF_8, page));
    assert_eq!(utf16_by_bytes(b"<p>plain ASCII text</p>"), None);
}

#[test]
fn content_type_parsing() {
    assert_eq!(
        charset_from_content_type(b"text/html; charset=\"UTF-8\""),
        Some(UTF_8)
    );
    assert_eq!(
        charset_from_content_type(b"text/html;charset=utf-8;q=1"),
        Some(UTF_8)
    );
    assert_eq!(charset_from_content_type(b"text/html"), None);
    assert_eq!(charset_from_content_type(b"text/html; charset=bogus"), None);
}

#[test]
fn tld_extraction() {
    assert_eq!(tld_of("http://www.Example.FR:80/x").as_deref(), Some("fr"));
    assert_eq!(tld_of("nohost").as_deref(), Some("nohost"));
    assert_eq!(tld_of("http://bad_tld.x!y/").as_deref(), None);
}
