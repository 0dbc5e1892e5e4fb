//! Pages in scripts written without spaces, made here, cleaned by the
//! embedded models as `ncleaner clean` routes them (issue 55): a Chinese and
//! a Japanese article keep their paragraphs and drop a rail of related
//! headlines, and a Chinese page's words are counted by characters; Chinese
//! and Russian pages go to the multilingual `multi`, Japanese ones (a
//! language it was not trained on) to `en-nonlex`. The metadata reads
//! bylines and datelines in five languages, and a byline that is a bare
//! line under the title in each language GUIDE.md names.

use ncleaner::InputKind;
use ncleaner::{Cleaner, DEFAULT_FALLBACK, Routes};

fn cleaner() -> Cleaner {
    Cleaner::routed(Routes::from_names::<&str>(&[], DEFAULT_FALLBACK).expect("embedded models"))
}

const ZH_BODY: [&str; 4] = [
    "新华社北京12月15日电，记者从国家气象局获悉，受强冷空气影响，未来三天我国北方大部分地区将出现大风降温天气，气温普遍下降八到十度，局部地区降幅可达十二度以上。",
    "气象专家提醒，此次降温过程持续时间较长，影响范围较广，各地应提前做好防寒保暖工作，特别是老人和儿童要注意添加衣物，出行时注意交通安全，农业生产要防范冻害。",
    "据介绍，这股冷空气将于明天夜间开始影响新疆北部地区，随后逐步东移南下，后天将影响华北、东北和黄淮地区，渤海和黄海海域还将出现七到八级的大风。",
    "国家气象局表示，将密切关注天气变化，及时发布预警信息，并与交通、农业和能源等部门加强会商，确保人民群众生命财产安全和冬季供暖的平稳运行。",
];

const ZH_RAIL: [&str; 6] = [
    "北京今冬首场雪或将提前到来",
    "专家解读冬季供暖新政策",
    "全国多地发布寒潮蓝色预警",
    "南方部分地区出现持续阴雨",
    "东北地区迎来大范围降雪",
    "气象局发布未来一周天气预报",
];

fn page(lang: &str, title: &str, body: &[&str], rail: &[&str], stamp: &str) -> String {
    let mut h = format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><title>{title}</title></head><body>\
         <div class=\"header\"><ul class=\"nav\"><li><a href=\"/\">首页</a></li><li><a href=\"/a\">新闻</a></li>\
         <li><a href=\"/b\">体育</a></li><li><a href=\"/c\">财经</a></li></ul></div>\
         <div class=\"main\"><div class=\"article\"><h1>{title}</h1>"
    );
    for p in body {
        h.push_str(&format!("<p>{p}</p>"));
    }
    h.push_str("</div><div class=\"related\"><ul>");
    for (i, r) in rail.iter().enumerate() {
        h.push_str(&format!(
            "<li><a href=\"/news/{i}.html\">{r}</a><span class=\"time\">{}{stamp}</span></li>",
            i + 1
        ));
    }
    h.push_str("</ul></div></div><div class=\"footer\">Copyright © 2011</div></body></html>");
    h
}

/// Cleans `html` as `ncleaner clean` routes it and asserts the language
/// identified and the model it went to, that every body paragraph is kept
/// and that no headline of the rail is.
fn assert_cleaned(html: &str, routed: (&str, &str), body: &[&str], rail: &[&str]) {
    let cleaned = cleaner().clean(html.as_bytes(), InputKind::Html, None);
    assert_eq!(
        (cleaned.language.as_deref(), cleaned.model.as_deref()),
        (Some(routed.0), Some(routed.1))
    );
    let out = cleaned.text();
    for p in body {
        assert!(out.contains(p), "lost {p:?}; kept:\n{out}");
    }
    for r in rail {
        assert!(!out.contains(r), "kept the rail's {r:?}:\n{out}");
    }
}

#[test]
fn a_chinese_article_keeps_its_paragraphs_and_drops_the_rail() {
    let html = page(
        "zh-CN",
        "我国北方将迎大风降温天气",
        &ZH_BODY,
        &ZH_RAIL,
        "小时前",
    );
    assert_cleaned(&html, ("zh", "multi"), &ZH_BODY, &ZH_RAIL);
}

#[test]
fn a_chinese_pages_words_are_its_characters() {
    let html = page(
        "zh-CN",
        "我国北方将迎大风降温天气",
        &ZH_BODY,
        &ZH_RAIL,
        "小时前",
    );
    let cleaned = cleaner().clean(html.as_bytes(), InputKind::Html, None);
    let body_chars: usize = ZH_BODY
        .iter()
        .map(|p| p.chars().filter(|c| !c.is_ascii_digit()).count())
        .sum();
    // The body's characters (a run of ASCII digits, "12" and "15", is one
    // word each), and fewer than the whole page's.
    assert!(
        cleaned.words_out() >= body_chars,
        "{} < {body_chars}",
        cleaned.words_out()
    );
    assert!(cleaned.words_in() > cleaned.words_out());
    for s in cleaned.segments.iter().filter(|s| s.keep()) {
        assert!(s.words() >= s.text().chars().filter(|c| !c.is_ascii()).count() / 2);
    }
}

const JA_BODY: [&str; 4] = [
    "気象庁によりますと、強い冬型の気圧配置の影響で、北日本の日本海側を中心に、あすにかけて大雪となるおそれがあり、交通機関への影響に注意が必要です。",
    "新潟県や山形県の山沿いでは、あすの朝までの二十四時間に降る雪の量が多いところで八十センチに達する見込みで、気象庁は雪崩や路面の凍結にも警戒するよう呼びかけています。",
    "また、太平洋側でも冷たい北風が強まり、東京都心の最低気温は今シーズン一番の冷え込みとなる予想で、水道管の凍結などに注意してくださいとしています。",
    "鉄道各社は運転計画の変更を検討しており、高速道路では冬用タイヤの装着を呼びかけるなど、週末にかけて広い範囲で影響が出るおそれがあります。",
];

const JA_RAIL: [&str; 6] = [
    "首相が来週にも訪米へ調整",
    "円相場が一時百円台に上昇",
    "プロ野球の新人選手が入団会見",
    "大手電機メーカーが新製品を発表",
    "各地で初雪の便り相次ぐ",
    "年末の帰省ラッシュ始まる",
];

#[test]
fn a_japanese_article_keeps_its_paragraphs_and_drops_the_rail() {
    let html = page("ja", "北日本で大雪のおそれ", &JA_BODY, &JA_RAIL, "時間前");
    assert_cleaned(&html, ("ja", "en-nonlex"), &JA_BODY, &JA_RAIL);
}

const RU_BODY: [&str; 3] = [
    "Правительство Москвы утвердило новую программу развития общественного транспорта, которая предусматривает строительство трёх новых линий метро и обновление подвижного состава до конца следующего года.",
    "Как сообщили в пресс-службе столичного департамента транспорта, на реализацию программы будет направлено более ста миллиардов рублей, а первые новые станции откроются уже весной.",
    "Эксперты отмечают, что развитие метро позволит снизить нагрузку на наземный транспорт и сократить время поездок для жителей окраин, которые сегодня тратят на дорогу до двух часов в день.",
];

const RU_RAIL: [&str; 6] = [
    "Курс рубля снизился на открытии торгов",
    "В Подмосковье ожидается сильный снегопад",
    "Сборная России вышла в финал турнира",
    "Цены на бензин выросли второй месяц подряд",
    "В Петербурге открылась новая выставка",
    "Депутаты одобрили закон о такси",
];

#[test]
fn a_russian_article_goes_to_the_multilingual_model_and_keeps_its_paragraphs() {
    let html = page(
        "ru",
        "Москва построит три новые линии метро",
        &RU_BODY,
        &RU_RAIL,
        " час назад",
    );
    assert_cleaned(&html, ("ru", "multi"), &RU_BODY, &RU_RAIL);
}

const PL_BODY: [&str; 3] = [
    "Rada Miasta przyjęła w czwartek budżet na przyszły rok, który przewiduje rekordowe wydatki na remonty szkół, budowę nowych ścieżek rowerowych i modernizację komunikacji miejskiej.",
    "Jak poinformował prezydent miasta, największą inwestycją będzie przebudowa głównego węzła przesiadkowego, która ma się zakończyć przed końcem przyszłego roku i poprawić wygodę podróżnych.",
    "Radni opozycji krytykowali jednak wysokość zadłużenia miasta i zapowiedzieli, że będą uważnie przyglądać się realizacji wszystkich zaplanowanych inwestycji w kolejnych miesiącach.",
];

const EL_BODY: [&str; 3] = [
    "Το υπουργικό συμβούλιο ενέκρινε την Πέμπτη το νέο πρόγραμμα για την ενίσχυση των μικρών επιχειρήσεων, το οποίο προβλέπει χαμηλότοκα δάνεια και μείωση των φόρων για όσους προσλαμβάνουν νέους εργαζόμενους.",
    "Σύμφωνα με τον αρμόδιο υπουργό, το πρόγραμμα θα τεθεί σε εφαρμογή από τις αρχές του επόμενου έτους και αναμένεται να ωφελήσει περισσότερες από είκοσι χιλιάδες επιχειρήσεις σε όλη τη χώρα.",
    "Οι εκπρόσωποι των επαγγελματιών χαιρέτισαν την απόφαση, ζήτησαν όμως να απλοποιηθούν οι διαδικασίες, ώστε τα χρήματα να φτάσουν γρήγορα σε όσους τα χρειάζονται περισσότερο.",
];

const EN_BODY: [&str; 3] = [
    "The city council approved next year's budget on Thursday, with record spending on school repairs, new cycle lanes and the modernisation of the tram network across the northern districts.",
    "The mayor said the largest project would be the rebuilding of the main interchange, which is due to be finished before the end of next year and should shorten journeys for thousands of commuters.",
    "Opposition councillors criticised the level of the city's debt, however, and said they would follow every planned investment closely over the coming months and report back to residents.",
];

/// A news page whose byline and dateline stand above its title's story, in
/// the page's language: the metadata gives the byline's name and the
/// dateline's date (the markup states neither).
fn dated_page(lang: &str, title: &str, byline: &str, dateline: &str, body: &[&str]) -> String {
    let mut h = format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><title>{title}</title></head><body>\
         <div class=\"header\"><ul class=\"nav\"><li><a href=\"/\">Home</a></li><li><a href=\"/a\">News</a></li></ul></div>\
         <div class=\"article\"><h1>{title}</h1><div class=\"author\">{byline}</div><div class=\"date\">{dateline}</div>"
    );
    for p in body {
        h.push_str(&format!("<p>{p}</p>"));
    }
    h.push_str("</div><div class=\"footer\">© 2011</div></body></html>");
    h
}

#[test]
fn bylines_and_datelines_of_five_languages_are_the_metadatas() {
    for (lang, title, byline, dateline, body, name, date) in [
        (
            "en",
            "Council approves record budget",
            "By Jane Doe",
            "15 December 2011",
            &EN_BODY[..],
            "Jane Doe",
            "2011-12-15",
        ),
        (
            "zh",
            "我国北方将迎大风降温天气",
            "作者：张小明",
            "2011年12月15日 10:30",
            &ZH_BODY[..],
            "张小明",
            "2011-12-15",
        ),
        (
            "ru",
            "Москва построит три новые линии метро",
            "Автор: Иван Петров",
            "15 декабря 2011 г., 09:43",
            &RU_BODY[..],
            "Иван Петров",
            "2011-12-15",
        ),
        (
            "pl",
            "Rada Miasta przyjęła rekordowy budżet",
            "Autor: Jan Kowalski",
            "18 listopada 2011 r.",
            &PL_BODY[..],
            "Jan Kowalski",
            "2011-11-18",
        ),
        (
            "el",
            "Νέο πρόγραμμα για τις μικρές επιχειρήσεις",
            "Του Γιώργου Παπαδόπουλου",
            "15 Δεκεμβρίου 2011",
            &EL_BODY[..],
            "Γιώργου Παπαδόπουλου",
            "2011-12-15",
        ),
    ] {
        let html = dated_page(lang, title, byline, dateline, body);
        let cleaned = cleaner().clean(html.as_bytes(), InputKind::Html, None);
        assert_eq!(cleaned.language.as_deref(), Some(lang));
        let md = cleaned.metadata.as_ref().expect("an HTML page's metadata");
        assert_eq!(md.authors, [name], "{lang}: {:?}", cleaned.text());
        assert_eq!(md.date_published.as_deref(), Some(date), "{lang}");
        for p in body {
            assert!(cleaned.text().contains(p), "{lang}: lost {p:?}");
        }
    }
}

const DE_BODY: [&str; 3] = [
    "Der Stadtrat hat am Donnerstag den Haushalt für das kommende Jahr beschlossen, der Rekordausgaben für die Sanierung von Schulen, neue Radwege und die Modernisierung der Straßenbahn vorsieht.",
    "Der Bürgermeister sagte, das größte Vorhaben sei der Umbau des zentralen Umsteigeknotens, der bis zum Ende des nächsten Jahres abgeschlossen sein und die Wege vieler Pendler verkürzen soll.",
    "Die Opposition kritisierte dagegen die Höhe der Verschuldung der Stadt und kündigte an, alle geplanten Investitionen in den kommenden Monaten genau zu verfolgen und den Bürgern darüber zu berichten.",
];

/// A page with no more than a title, a byline as a plain paragraph under
/// it (no class or element that says "author") and the story: the byline's
/// lead alone says what the line is.
fn bare_byline_page(title: &str, byline: &str, body: &[&str]) -> String {
    let mut h = format!(
        "<html><head><meta charset=\"utf-8\"><title>{title}</title></head><body><h1>{title}</h1><p>{byline}</p>"
    );
    for p in body {
        h.push_str(&format!("<p>{p}</p>"));
    }
    h.push_str("</body></html>");
    h
}

/// GUIDE.md ("Page metadata"): a byline that starts with its language's
/// lead names the page's author, and the line has the byline role, kept or
/// dropped.
fn assert_bare_byline(lang: &str, title: &str, byline: &str, body: &[&str], name: &str) {
    let html = bare_byline_page(title, byline, body);
    let cleaned = cleaner().clean(html.as_bytes(), InputKind::Html, None);
    assert_eq!(cleaned.language.as_deref(), Some(lang));
    let md = cleaned.metadata.as_ref().expect("an HTML page's metadata");
    assert_eq!(md.authors, [name], "{lang}: {:?}", cleaned.text());
    let line = cleaned
        .segments
        .iter()
        .find(|s| s.text() == byline)
        .expect("the byline is a segment");
    assert_eq!(line.role, Some(ncleaner::Role::Byline), "{lang}");
}

#[test]
fn a_russian_bare_byline_names_the_author() {
    let title = "Москва построит три новые линии метро";
    assert_bare_byline("ru", title, "Автор: Иван Петров", &RU_BODY, "Иван Петров");
}

#[test]
fn a_chinese_bare_byline_names_the_author() {
    let title = "我国北方将迎大风降温天气";
    assert_bare_byline("zh", title, "作者：张小明", &ZH_BODY, "张小明");
}

#[test]
fn a_polish_bare_byline_names_the_author() {
    let title = "Rada Miasta przyjęła rekordowy budżet";
    assert_bare_byline("pl", title, "Autor: Jan Kowalski", &PL_BODY, "Jan Kowalski");
}

#[test]
fn a_greek_bare_byline_names_the_author() {
    let title = "Νέο πρόγραμμα για τις μικρές επιχειρήσεις";
    let byline = "Του Γιώργου Παπαδόπουλου";
    assert_bare_byline("el", title, byline, &EL_BODY, "Γιώργου Παπαδόπουλου");
}

#[test]
fn a_german_bare_byline_names_the_author() {
    let title = "Stadtrat beschließt Rekordhaushalt";
    assert_bare_byline("de", title, "Von Anna Schmidt", &DE_BODY, "Anna Schmidt");
}

#[test]
fn an_english_bare_byline_names_the_author() {
    let title = "Council approves record budget";
    assert_bare_byline("en", title, "By Jane Doe", &EN_BODY, "Jane Doe");
}

/// An empty author field followed by another field's label ("作者：
/// 责任编辑：易清", DAnIEL) names no author: the label is no name.
#[test]
fn a_label_after_an_empty_author_field_is_no_author() {
    let title = "我国北方将迎大风降温天气";
    let html = bare_byline_page(title, "作者： 责任编辑：易清", &ZH_BODY);
    let cleaned = cleaner().clean(html.as_bytes(), InputKind::Html, None);
    assert_eq!(cleaned.language.as_deref(), Some("zh"));
    let md = cleaned.metadata.as_ref().expect("an HTML page's metadata");
    assert!(md.authors.is_empty(), "{:?}", md.authors);
}
