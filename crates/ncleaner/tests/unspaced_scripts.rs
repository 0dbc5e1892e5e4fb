//! Thai, Lao, Khmer and Burmese, written without spaces between words
//! (issue 70), tested as a mirror, since no gold exists for them: a news
//! page's structure filled with text in one of these scripts and the same
//! structure filled with its English translation (about as long) get the
//! same decisions, segment by segment, from the same model; and each such
//! page, cleaned as `ncleaner clean` routes it, keeps its article and drops
//! its menu and its rail of headlines. The sentences are written here:
//! news-like prose and the words of a site's menu, not random characters.

use ncleaner::{Cleaner, DEFAULT_FALLBACK, InputKind, Model, Reason, Routes};

/// One page's text: its menu, title, article, rail of headlines and footer.
struct Page {
    lang: &'static str,
    nav: [&'static str; 4],
    title: &'static str,
    body: [&'static str; 5],
    rail: [&'static str; 3],
    footer: &'static str,
}

const EN: Page = Page {
    lang: "en",
    nav: ["Home", "News", "Sports", "Contact us"],
    title: "Heavy rain expected in the north next week",
    body: [
        "The Meteorological Department announced that next week there will be heavy rain in many provinces in the north and the northeast. People should follow the news closely and be ready to cope with floods.",
        "Bangkok is the capital and the largest city of Thailand. It has more than eight million people and is the centre of the country's economy, education and culture.",
        "The Ministry of Education plans to increase the budget for schools in rural areas, so that every student receives a good education and has equal opportunities.",
        "Many tourists travel to Thailand every year because they like Thai food, the beautiful beaches and the friendliness of Thai people.",
        "Residents are advised to stay at home during the storm.",
    ],
    rail: [
        "Oil prices fall for a third week",
        "The national team wins its football match",
        "A new electric train line opens in the capital",
    ],
    footer: "All rights reserved 2024",
};

const TH: Page = Page {
    lang: "th",
    nav: ["หน้าแรก", "ข่าว", "กีฬา", "ติดต่อเรา"],
    title: "ฝนตกหนักในภาคเหนือสัปดาห์หน้า",
    body: [
        "กรมอุตุนิยมวิทยาประกาศว่าในสัปดาห์หน้าจะมีฝนตกหนักในหลายจังหวัดทางภาคเหนือและภาคตะวันออกเฉียงเหนือ ประชาชนควรติดตามข่าวสารอย่างใกล้ชิดและเตรียมพร้อมรับมือกับน้ำท่วม",
        "กรุงเทพมหานครเป็นเมืองหลวงและเมืองที่ใหญ่ที่สุดของประเทศไทย มีประชากรมากกว่าแปดล้านคน และเป็นศูนย์กลางทางเศรษฐกิจ การศึกษา และวัฒนธรรมของประเทศ",
        "กระทรวงศึกษาธิการมีแผนที่จะเพิ่มงบประมาณสำหรับโรงเรียนในชนบท เพื่อให้นักเรียนทุกคนได้รับการศึกษาที่มีคุณภาพและมีโอกาสเท่าเทียมกัน",
        "นักท่องเที่ยวจำนวนมากเดินทางมาเที่ยวประเทศไทยทุกปี เพราะชอบอาหารไทย ชายหาดที่สวยงาม และความเป็นมิตรของคนไทย",
        "ขอแนะนำให้ประชาชนอยู่ในบ้านระหว่างที่มีพายุ",
    ],
    rail: [
        "ราคาน้ำมันลดลงเป็นสัปดาห์ที่สาม",
        "ทีมชาติไทยชนะการแข่งขันฟุตบอล",
        "เปิดตัวรถไฟฟ้าสายใหม่ในกรุงเทพ",
    ],
    footer: "สงวนลิขสิทธิ์ 2567",
};

const LO: Page = Page {
    lang: "lo",
    nav: ["ໜ້າຫຼັກ", "ຂ່າວ", "ກິລາ", "ຕິດຕໍ່ພວກເຮົາ"],
    title: "ຝົນຕົກໜັກຢູ່ພາກເໜືອໃນອາທິດໜ້າ",
    body: [
        "ກົມອຸຕຸນິຍົມວິທະຍາປະກາດວ່າອາທິດໜ້າຈະມີຝົນຕົກໜັກໃນຫຼາຍແຂວງທາງພາກເໜືອ ປະຊາຊົນຄວນຕິດຕາມຂ່າວສານຢ່າງໃກ້ຊິດ ແລະ ກຽມພ້ອມຮັບມືກັບນ້ຳຖ້ວມ",
        "ນະຄອນຫຼວງວຽງຈັນເປັນນະຄອນຫຼວງຂອງປະເທດລາວ ແລະ ເປັນສູນກາງທາງດ້ານເສດຖະກິດ ການສຶກສາ ແລະ ວັດທະນະທຳຂອງປະເທດ",
        "ກະຊວງສຶກສາທິການມີແຜນທີ່ຈະເພີ່ມງົບປະມານໃຫ້ໂຮງຮຽນໃນເຂດຊົນນະບົດ ເພື່ອໃຫ້ນັກຮຽນທຸກຄົນໄດ້ຮັບການສຶກສາທີ່ດີ ແລະ ມີໂອກາດເທົ່າທຽມກັນ",
        "ນັກທ່ອງທ່ຽວຈຳນວນຫຼາຍມາທ່ຽວປະເທດລາວທຸກປີ ເພາະມັກອາຫານລາວ ທຳມະຊາດທີ່ສວຍງາມ ແລະ ຄວາມເປັນມິດຂອງຄົນລາວ",
        "ຂໍແນະນຳໃຫ້ປະຊາຊົນຢູ່ໃນເຮືອນໃນລະຫວ່າງທີ່ມີພາຍຸ",
    ],
    rail: [
        "ລາຄານ້ຳມັນຫຼຸດລົງເປັນອາທິດທີສາມ",
        "ທີມຊາດລາວຊະນະການແຂ່ງຂັນບານເຕະ",
        "ເປີດລົດໄຟສາຍໃໝ່ໄປນະຄອນຫຼວງ",
    ],
    footer: "ສະຫງວນລິຂະສິດ 2024",
};

const KM: Page = Page {
    lang: "km",
    nav: ["ទំព័រដើម", "ព័ត៌មាន", "កីឡា", "ទំនាក់ទំនង"],
    title: "ភ្លៀងធ្លាក់ខ្លាំងនៅភាគខាងជើងនៅសប្តាហ៍ក្រោយ",
    body: [
        "ក្រសួងធនធានទឹក និងឧតុនិយមបានប្រកាសថា សប្តាហ៍ក្រោយនឹងមានភ្លៀងធ្លាក់ខ្លាំងនៅខេត្តជាច្រើននៅភាគខាងជើង។ ប្រជាពលរដ្ឋគួរតាមដានព័ត៌មានឱ្យបានដិតដល់ និងត្រៀមខ្លួនសម្រាប់ទឹកជំនន់។",
        "ភ្នំពេញគឺជារាជធានី និងជាទីក្រុងធំជាងគេបំផុតរបស់ប្រទេសកម្ពុជា ហើយជាមជ្ឈមណ្ឌលសេដ្ឋកិច្ច ការអប់រំ និងវប្បធម៌របស់ប្រទេស។",
        "ក្រសួងអប់រំមានគម្រោងបង្កើនថវិកាសម្រាប់សាលារៀននៅតំបន់ជនបទ ដើម្បីឱ្យសិស្សទាំងអស់ទទួលបានការអប់រំល្អ និងមានឱកាសស្មើគ្នា។",
        "ភ្ញៀវទេសចរជាច្រើនមកលេងប្រទេសកម្ពុជារៀងរាល់ឆ្នាំ ដើម្បីទស្សនាប្រាសាទអង្គរវត្ត និងភ្លក្សម្ហូបខ្មែរ។",
        "ប្រជាពលរដ្ឋត្រូវបានណែនាំឱ្យស្នាក់នៅក្នុងផ្ទះអំឡុងពេលមានព្យុះ។",
    ],
    rail: [
        "តម្លៃប្រេងធ្លាក់ចុះជាសប្តាហ៍ទីបី",
        "ក្រុមជម្រើសជាតិឈ្នះការប្រកួតបាល់ទាត់",
        "ស្ពានថ្មីបើកនៅភ្នំពេញ",
    ],
    footer: "រក្សាសិទ្ធិគ្រប់យ៉ាង 2024",
};

const MY: Page = Page {
    lang: "my",
    nav: ["ပင်မစာမျက်နှာ", "သတင်း", "အားကစား", "ဆက်သွယ်ရန်"],
    title: "နောက်အပတ်တွင် မြောက်ပိုင်းဒေသ၌ မိုးသည်းထန်စွာ ရွာမည်",
    body: [
        "မိုးလေဝသနှင့် ဇလဗေဒ ဦးစီးဌာနက နောက်အပတ်တွင် မြောက်ပိုင်းဒေသရှိ ပြည်နယ်နှင့် တိုင်းဒေသကြီး အများအပြား၌ မိုးသည်းထန်စွာ ရွာသွန်းမည်ဟု ကြေညာခဲ့သည်။ ပြည်သူများ သတင်းများကို အနီးကပ် စောင့်ကြည့်ပြီး ရေကြီးမှုအတွက် ပြင်ဆင်ထားသင့်သည်။",
        "ရန်ကုန်မြို့သည် မြန်မာနိုင်ငံ၏ အကြီးဆုံးမြို့ ဖြစ်ပြီး နိုင်ငံ၏ စီးပွားရေး ပညာရေးနှင့် ယဉ်ကျေးမှု ဗဟိုချက်လည်း ဖြစ်သည်။",
        "ပညာရေးဝန်ကြီးဌာနသည် ကျေးလက်ဒေသရှိ ကျောင်းများအတွက် ဘတ်ဂျက်ကို တိုးမြှင့်ရန် စီစဉ်ထားပြီး ကျောင်းသားတိုင်း ကောင်းမွန်သော ပညာရေးကို ရရှိစေမည်။",
        "ခရီးသွားများစွာသည် ပုဂံဘုရားများနှင့် အင်းလေးကန်ကို လည်ပတ်ရန် နှစ်စဉ် မြန်မာနိုင်ငံသို့ လာရောက်ကြသည်။",
        "မုန်တိုင်းကာလအတွင်းပြည်သူများအိမ်တွင်းမှာသာနေထိုင်ရန်အကြံပြုထားသည်။",
    ],
    rail: [
        "ရေနံဈေးနှုန်း တတိယအပတ်ဆက်တိုက် ကျဆင်း",
        "မြန်မာ့ဘောလုံးအသင်း ပွဲနိုင်",
        "ရန်ကုန်တွင် ရထားလမ်းသစ် ဖွင့်လှစ်",
    ],
    footer: "မူပိုင်ခွင့် 2024",
};

/// The page's HTML: a menu, the article, a rail of headlines, a footer.
/// The article's last paragraph, one sentence, stands first as its lead
/// and is repeated as its last line: a repeat, dropped when it holds
/// enough words to be one (`cleaned::REPEAT_MIN_WORDS`), which a Thai
/// sentence without spaces did not when it counted one word.
fn html(p: &Page) -> String {
    let mut h = format!(
        "<!DOCTYPE html><html lang=\"{}\"><head><meta charset=\"utf-8\"><title>{}</title></head><body>\
         <div class=\"header\"><ul class=\"nav\">",
        p.lang, p.title
    );
    for (i, n) in p.nav.iter().enumerate() {
        h.push_str(&format!("<li><a href=\"/s{i}\">{n}</a></li>"));
    }
    h.push_str(&format!(
        "</ul></div><div class=\"main\"><div class=\"article\"><h1>{}</h1>",
        p.title
    ));
    for i in [4, 0, 1, 2, 3, 4] {
        h.push_str(&format!("<p>{}</p>", p.body[i]));
    }
    h.push_str("</div><div class=\"related\"><ul>");
    for (i, r) in p.rail.iter().enumerate() {
        h.push_str(&format!("<li><a href=\"/news/{i}.html\">{r}</a></li>"));
    }
    h.push_str(&format!(
        "</ul></div></div><div class=\"footer\">{}</div></body></html>",
        p.footer
    ));
    h
}

/// Each segment's text, whether it was kept and why.
fn decisions(cleaner: &Cleaner, p: &Page) -> Vec<(String, bool, Reason)> {
    let cleaned = cleaner.clean(html(p).as_bytes(), InputKind::Html, None);
    cleaned
        .segments
        .iter()
        .map(|s| (s.text().to_owned(), s.keep(), s.decision.reason))
        .collect()
}

/// The mirror: `p` and the English page get the same decisions from the
/// model unspaced pages are routed to, segment by segment.
fn mirrors_english(p: &Page) {
    let model = Model::open(DEFAULT_FALLBACK).expect("the embedded fallback model");
    let cleaner = Cleaner::from_model(model);
    let (en, other) = (decisions(&cleaner, &EN), decisions(&cleaner, p));
    assert_eq!(en.len(), other.len(), "{}: {other:#?}", p.lang);
    let differ: Vec<_> = en
        .iter()
        .zip(&other)
        .filter(|(a, b)| (a.1, a.2) != (b.1, b.2))
        .collect();
    assert!(
        differ.is_empty(),
        "{}: decided otherwise: {differ:#?}",
        p.lang
    );
    // And the decisions are the page's: the article (its title and
    // paragraphs) kept once, its repeat and the rest not.
    let mut seen = std::collections::HashSet::new();
    for (text, keep, _) in &other {
        let article = text == p.title || p.body.contains(&text.as_str());
        assert_eq!(*keep, article && seen.insert(text), "{}: {text}", p.lang);
    }
}

/// Routed as `ncleaner clean` routes it, the page keeps its article and
/// drops its menu and rail.
fn cleaned_as_routed(p: &Page) {
    let routes = Routes::from_names::<&str>(&[], DEFAULT_FALLBACK).expect("embedded models");
    let cleaned = Cleaner::routed(routes).clean(html(p).as_bytes(), InputKind::Html, None);
    let out = cleaned.text();
    for b in p.body {
        assert!(out.contains(b), "{}: lost {b:?}; kept:\n{out}", p.lang);
    }
    for r in p.nav.iter().chain(&p.rail) {
        assert!(
            !out.lines().any(|l| l == *r),
            "{}: kept {r:?}:\n{out}",
            p.lang
        );
    }
}

#[test]
fn thai_mirrors_english() {
    mirrors_english(&TH);
    cleaned_as_routed(&TH);
}

#[test]
fn lao_mirrors_english() {
    mirrors_english(&LO);
    cleaned_as_routed(&LO);
}

#[test]
fn khmer_mirrors_english() {
    mirrors_english(&KM);
    cleaned_as_routed(&KM);
}

#[test]
fn burmese_mirrors_english() {
    mirrors_english(&MY);
    cleaned_as_routed(&MY);
}

#[test]
fn english_is_its_own_mirror() {
    mirrors_english(&EN);
    cleaned_as_routed(&EN);
}
