//! Pages in the legacy encodings of Chinese, Japanese, Korean and Russian,
//! made here, read right with a `<meta>` declaration, with the transport's
//! charset and with no declaration at all (issue 55): the decoded text
//! holds each paragraph as written, and so do the page's segments.

use ncleaner::{Cleaner, DEFAULT_FALLBACK, InputKind, Routes};

const ZH_HANS: [&str; 3] = [
    "新华社北京十二月十五日电，记者从国家气象局获悉，受强冷空气影响，未来三天我国北方大部分地区将出现大风降温天气，气温普遍下降八到十度。",
    "气象专家提醒，此次降温过程持续时间较长，影响范围较广，各地应提前做好防寒保暖工作，特别是老人和儿童要注意添加衣物，出行时注意交通安全。",
    "国家气象局表示，将密切关注天气变化，及时发布预警信息，并与交通、农业和能源等部门加强会商，确保人民群众生命财产安全。",
];

const ZH_HANT: [&str; 3] = [
    "中央社台北十二月十五日電，交通部今天宣布，明年起將全面更新台北捷運的列車與號誌系統，預計可以縮短尖峰時段的候車時間。",
    "交通部長表示，這項計畫總經費超過一百億元，將分三年執行，第一批新列車預計在明年春天投入營運，旅客可以享受更舒適的乘車環境。",
    "不過，部分立法委員質疑經費過高，要求交通部在年底前提出詳細的成本分析報告，並說明對現有路線營運的影響。",
];

const JA: [&str; 3] = [
    "気象庁によりますと、強い冬型の気圧配置の影響で、北日本の日本海側を中心に、あすにかけて大雪となるおそれがあり、交通機関への影響に注意が必要です。",
    "新潟県や山形県の山沿いでは、あすの朝までの二十四時間に降る雪の量が多いところで八十センチに達する見込みで、雪崩や路面の凍結にも警戒が必要です。",
    "鉄道各社は運転計画の変更を検討しており、高速道路では冬用タイヤの装着を呼びかけるなど、週末にかけて広い範囲で影響が出るおそれがあります。",
];

const KO: [&str; 3] = [
    "기상청은 강한 한파의 영향으로 내일 아침 서울의 기온이 영하 십도까지 떨어지고 중부 지방을 중심으로 많은 눈이 내릴 것으로 예상된다고 밝혔습니다.",
    "특히 강원 산간 지역에는 최고 이십 센티미터 이상의 폭설이 예상되어 교통 안전과 시설물 관리에 각별한 주의가 필요하다고 당부했습니다.",
    "정부는 한파 대책 회의를 열고 취약 계층에 대한 난방비 지원을 확대하고 수도관 동파 예방을 위한 점검을 강화하기로 했습니다.",
];

const RU: [&str; 3] = [
    "Правительство Москвы утвердило новую программу развития общественного транспорта, которая предусматривает строительство трёх новых линий метро.",
    "Как сообщили в пресс-службе столичного департамента транспорта, на реализацию программы будет направлено более ста миллиардов рублей.",
    "Эксперты отмечают, что развитие метро позволит снизить нагрузку на наземный транспорт и сократить время поездок для жителей окраин.",
];

/// A news page of `body` with an ASCII menu around it, declaring `meta`'s
/// charset in a `<meta>` when given.
fn page(meta: Option<&str>, body: &[&str]) -> String {
    let declared = meta.map_or(String::new(), |c| format!("<meta charset=\"{c}\">"));
    let mut h = format!(
        "<!DOCTYPE html><html><head>{declared}<title>News</title></head><body>\
         <ul class=\"nav\"><li><a href=\"/\">Home</a></li><li><a href=\"/a\">World</a></li></ul><div class=\"article\">"
    );
    for p in body {
        h.push_str(&format!("<p>{p}</p>"));
    }
    h.push_str("</div><div class=\"footer\">(c) 2011</div></body></html>");
    h
}

/// The page of `body` encoded as `label` reads as written: declared in a
/// `<meta>`, given by the transport, and not declared.
fn reads_right(label: &str, body: &[&str]) {
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).expect("a known label");
    for (how, meta, transport) in [
        ("a <meta> declaration", Some(label), None),
        ("the transport's charset", None, Some(label)),
        ("no declaration", None, None),
    ] {
        let html = page(meta, body);
        let (bytes, _, unmappable) = encoding.encode(&html);
        assert!(!unmappable, "{label} encodes the sample");
        let doc = ncleaner::decode::decode(&bytes, None, transport);
        // Undeclared KOI8-R is detected as KOI8-U, its superset, which reads
        // Russian text alike: what is checked then is the text.
        if meta.is_some() || transport.is_some() {
            assert_eq!(
                doc.encoding,
                encoding,
                "{label}, {how}: read as {}",
                doc.encoding.name()
            );
        }
        for p in body {
            assert!(
                doc.text.contains(p),
                "{label}, {how}: {p:?} not in {:?}",
                doc.text
            );
        }
        if transport.is_none() {
            let routes =
                Routes::from_names::<&str>(&[], DEFAULT_FALLBACK).expect("embedded models");
            let cleaned = Cleaner::routed(routes).clean(&bytes, InputKind::Html, None);
            for p in body {
                assert!(
                    cleaned.segments.iter().any(|s| s.text() == *p),
                    "{label}, {how}: no segment reads {p:?}"
                );
            }
        }
    }
}

#[test]
fn gbk() {
    reads_right("gbk", &ZH_HANS);
}

#[test]
fn gb2312() {
    reads_right("gb2312", &ZH_HANS);
}

#[test]
fn big5() {
    reads_right("big5", &ZH_HANT);
}

#[test]
fn shift_jis() {
    reads_right("shift_jis", &JA);
}

#[test]
fn euc_jp() {
    reads_right("euc-jp", &JA);
}

#[test]
fn euc_kr() {
    reads_right("euc-kr", &KO);
}

#[test]
fn koi8_r() {
    reads_right("koi8-r", &RU);
}

#[test]
fn windows_1251() {
    reads_right("windows-1251", &RU);
}

/// The legacy multi-byte labels of issue 70, as pages declare them.
const MULTIBYTE_LABELS: [&str; 8] = [
    "gb2312",
    "gbk",
    "gb18030",
    "big5",
    "shift_jis",
    "euc-jp",
    "euc-kr",
    "iso-2022-jp",
];

/// Whether the cleaned `bytes` (labelled by the transport's `charset`)
/// have a segment that reads each paragraph of `body`.
fn segments_read(bytes: &[u8], charset: Option<&str>, body: &[&str]) -> Result<(), String> {
    let routes = Routes::from_names::<&str>(&[], DEFAULT_FALLBACK).expect("embedded models");
    let cleaned = Cleaner::routed(routes).clean_with_charset(bytes, InputKind::Html, None, charset);
    match body
        .iter()
        .find(|p| !cleaned.segments.iter().any(|s| s.text() == **p))
    {
        Some(p) => Err(format!("no segment reads {p:?}")),
        None => Ok(()),
    }
}

/// Issue 70: a page saved again as UTF-8 that keeps the label of its
/// legacy origin, in a `<meta>` or in the transport's header, is read as
/// UTF-8 under each multi-byte label, whatever its script.
#[test]
fn utf8_under_a_multibyte_label_is_read_as_utf8() {
    for label in MULTIBYTE_LABELS {
        for body in [&ZH_HANS, &ZH_HANT, &JA, &KO, &RU] {
            for (how, meta, transport) in [
                ("a <meta>", Some(label), None),
                ("the transport", None, Some(label)),
            ] {
                let html = page(meta, body);
                let doc = ncleaner::decode::decode(html.as_bytes(), None, transport);
                assert_eq!(
                    (doc.encoding, doc.encoding_source),
                    (
                        encoding_rs::UTF_8,
                        ncleaner::decode::EncodingSource::Utf8Valid
                    ),
                    "{label} in {how}: {:.40}",
                    body[0]
                );
                assert_eq!(doc.text, html);
                if let Err(e) = segments_read(html.as_bytes(), transport, body) {
                    panic!("{label} in {how}: {e}");
                }
            }
        }
    }
}

/// Issue 70 (P2): GBK, Big5, EUC-KR and Shift_JIS pages, and Russian in
/// windows-1251, that a `<meta>` or the transport says are UTF-8 are read
/// in their own encoding, as unlabelled pages are, not as pages of U+FFFD.
#[test]
fn legacy_bytes_under_a_utf8_label_are_detected() {
    for (label, body) in [
        ("gbk", &ZH_HANS),
        ("big5", &ZH_HANT),
        ("shift_jis", &JA),
        ("euc-jp", &JA),
        ("euc-kr", &KO),
        ("windows-1251", &RU),
    ] {
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).expect("a known label");
        for (how, meta, transport) in [
            ("a <meta>", Some("utf-8"), None),
            ("the transport", None, Some("utf-8")),
        ] {
            let html = page(meta, body);
            let (bytes, _, unmappable) = encoding.encode(&html);
            assert!(!unmappable, "{label} encodes the sample");
            let doc = ncleaner::decode::decode(&bytes, None, transport);
            assert_eq!(
                doc.encoding_source,
                ncleaner::decode::EncodingSource::Detected,
                "{label} under a UTF-8 label in {how}"
            );
            for p in body.iter() {
                assert!(
                    doc.text.contains(p),
                    "{label} in {how}: {p:?} not in {:?}",
                    doc.text
                );
            }
            if let Err(e) = segments_read(&bytes, transport, body) {
                panic!("{label} under a UTF-8 label in {how}: {e}");
            }
        }
    }
}

/// Issue 70: short legacy pages whose bytes happen to be valid UTF-8 keep
/// their label. `图片`, `投票` and `通讯` in GBK are the valid UTF-8 `ͼƬ`,
/// `ͶƱ` and `ͨѶ`; a menu of them, however often repeated, holds six
/// distinct characters, fewer than the rule asks.
#[test]
fn short_legacy_pages_valid_as_utf8_by_chance_keep_their_label() {
    let menu =
        "<li><a href=/p>图片</a></li><li><a href=/v>投票</a></li><li><a href=/t>通讯</a></li>";
    for html in [
        format!("<meta charset=\"gbk\"><ul>{menu}</ul>"),
        format!("<meta charset=\"gbk\"><ul>{}</ul>", menu.repeat(30)),
        format!("<ul>{menu}</ul>"),
    ] {
        let (bytes, _, _) = encoding_rs::GBK.encode(&html);
        assert!(std::str::from_utf8(&bytes).is_ok(), "valid UTF-8 by chance");
        let transport = (!html.starts_with("<meta")).then_some("gbk");
        let doc = ncleaner::decode::decode(&bytes, None, transport);
        assert_eq!(doc.encoding, encoding_rs::GBK, "{html:.60}");
        assert!(doc.text.contains("图片") && doc.text.contains("通讯"));
    }
}
