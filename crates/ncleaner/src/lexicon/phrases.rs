//! Phrases of a page's furniture in its visible text, by language: the
//! labels of comment sections and replies, of share, follow, subscription
//! and sign-in links, of "read more", related-story and pagination links,
//! and the marks of a relative date ("3 hours ago", "3 часа назад",
//! "3小时前", "3時間前"). Read by the non-lexical models' phrase columns
//! (`classify::phrases`): a model that reads no words learns what such a
//! short segment is in every language the lexicon holds, as the lexical
//! models learn it from their own pools.
//!
//! The languages: the ten largest of Common Crawl (English, Russian,
//! German, Chinese, Japanese, Spanish, French, Italian, Portuguese,
//! Polish), Dutch, Greek (DAnIEL's fifth language) and Korean. Each word
//! is lower case as Rust's `to_lowercase` writes it (Greek with its
//! accents); a phrase of letters matches whole words, one of Han, kana or
//! Hangul anywhere (those scripts write no spaces).

use super::{Groups, WordSet};

/// The phrase families of [`TEXT_PHRASES`], one column each, in order.
pub const TEXT_PHRASES: Groups = Groups {
    name: "text-phrases",
    groups: &[
        COMMENT_PHRASES,
        SHARE_PHRASES,
        MORE_PHRASES,
        RELATIVE_DATE_MARKS,
    ],
};

/// Labels of comments and replies ("Comments (12)", "Reply",
/// "Комментарии", "评论").
pub const COMMENT_PHRASES: WordSet = WordSet::new(
    "comment-phrases",
    &[
        (
            "en",
            &[
                "comments",
                "comment",
                "reply",
                "replies",
                "leave a comment",
                "add a comment",
                "post a comment",
            ],
        ),
        (
            "de",
            &["kommentare", "kommentar", "antworten", "kommentieren"],
        ),
        (
            "fr",
            &["commentaires", "commentaire", "répondre", "réponses"],
        ),
        (
            "es",
            &["comentarios", "comentario", "responder", "respuestas"],
        ),
        ("pt", &["comentários", "comentário", "respostas"]),
        ("it", &["commenti", "commento", "rispondi", "risposte"]),
        ("nl", &["reacties", "reactie", "reageer", "reageren"]),
        (
            "pl",
            &[
                "komentarze",
                "komentarz",
                "komentarzy",
                "odpowiedz",
                "odpowiedzi",
                "skomentuj",
            ],
        ),
        (
            "ru",
            &[
                "комментарии",
                "комментариев",
                "комментарий",
                "комментария",
                "ответить",
                "комментировать",
            ],
        ),
        (
            "el",
            &["σχόλια", "σχόλιο", "σχολίων", "απάντηση", "απαντήσεις"],
        ),
        ("zh", &["评论", "評論", "回复", "回覆", "留言", "跟帖"]),
        ("ja", &["コメント", "返信"]),
        ("ko", &["댓글", "답글"]),
    ],
);

/// Labels of share, follow, subscription, print and sign-in links.
pub const SHARE_PHRASES: WordSet = WordSet::new(
    "share-phrases",
    &[
        (
            "en",
            &[
                "share",
                "share this",
                "tweet",
                "follow us",
                "subscribe",
                "newsletter",
                "print",
                "sign up",
                "sign in",
                "log in",
            ],
        ),
        (
            "de",
            &[
                "teilen",
                "folgen sie uns",
                "abonnieren",
                "newsletter",
                "drucken",
                "anmelden",
                "registrieren",
            ],
        ),
        (
            "fr",
            &[
                "partager",
                "suivez-nous",
                "s'abonner",
                "abonnez-vous",
                "newsletter",
                "imprimer",
                "se connecter",
                "connexion",
            ],
        ),
        (
            "es",
            &[
                "compartir",
                "síguenos",
                "suscríbete",
                "suscribirse",
                "boletín",
                "imprimir",
                "iniciar sesión",
                "registrarse",
            ],
        ),
        (
            "pt",
            &[
                "compartilhar",
                "partilhar",
                "siga-nos",
                "assine",
                "inscreva-se",
                "imprimir",
            ],
        ),
        (
            "it",
            &[
                "condividi",
                "seguici",
                "iscriviti",
                "abbonati",
                "newsletter",
                "stampa",
                "accedi",
                "registrati",
            ],
        ),
        (
            "nl",
            &[
                "delen",
                "volg ons",
                "abonneren",
                "nieuwsbrief",
                "afdrukken",
                "inloggen",
            ],
        ),
        (
            "pl",
            &[
                "udostępnij",
                "podziel się",
                "obserwuj",
                "subskrybuj",
                "zapisz się",
                "newsletter",
                "drukuj",
                "zaloguj",
            ],
        ),
        (
            "ru",
            &[
                "поделиться",
                "подписаться",
                "подпишитесь",
                "рассылка",
                "версия для печати",
                "распечатать",
                "войти",
                "регистрация",
            ],
        ),
        (
            "el",
            &[
                "κοινοποίηση",
                "μοιραστείτε",
                "ακολουθήστε μας",
                "εγγραφή",
                "εκτύπωση",
                "σύνδεση",
            ],
        ),
        (
            "zh",
            &[
                "分享", "转发", "轉發", "关注", "關注", "订阅", "訂閱", "打印", "列印", "登录",
                "登入", "注册", "註冊",
            ],
        ),
        (
            "ja",
            &["シェア", "ツイート", "フォロー", "購読", "印刷", "ログイン"],
        ),
        ("ko", &["공유", "구독", "로그인"]),
    ],
);

/// Labels of "read more", related-story, recommendation and pagination
/// links.
pub const MORE_PHRASES: WordSet = WordSet::new(
    "more-phrases",
    &[
        (
            "en",
            &[
                "read more",
                "continue reading",
                "more",
                "related",
                "see also",
                "you may also like",
                "recommended",
                "next",
                "previous",
                "older posts",
                "newer posts",
                "load more",
                "show more",
                "most read",
                "popular",
            ],
        ),
        (
            "de",
            &[
                "weiterlesen",
                "mehr",
                "mehr zum thema",
                "das könnte sie auch interessieren",
                "ähnliche artikel",
                "siehe auch",
                "weiter",
                "zurück",
                "nächste seite",
                "meistgelesen",
            ],
        ),
        (
            "fr",
            &[
                "lire la suite",
                "en savoir plus",
                "voir aussi",
                "lire aussi",
                "à lire aussi",
                "articles similaires",
                "sur le même sujet",
                "suivant",
                "précédent",
                "les plus lus",
            ],
        ),
        (
            "es",
            &[
                "leer más",
                "seguir leyendo",
                "ver más",
                "noticias relacionadas",
                "te puede interesar",
                "siguiente",
                "anterior",
                "lo más leído",
                "más leídas",
            ],
        ),
        (
            "pt",
            &[
                "leia mais",
                "ler mais",
                "saiba mais",
                "veja também",
                "notícias relacionadas",
                "próxima",
                "anterior",
                "mais lidas",
            ],
        ),
        (
            "it",
            &[
                "leggi tutto",
                "continua a leggere",
                "leggi anche",
                "articoli correlati",
                "potrebbe interessarti",
                "successivo",
                "precedente",
                "più letti",
            ],
        ),
        (
            "nl",
            &[
                "lees meer",
                "lees verder",
                "meer",
                "gerelateerd",
                "zie ook",
                "volgende",
                "vorige",
                "meest gelezen",
            ],
        ),
        (
            "pl",
            &[
                "czytaj więcej",
                "czytaj dalej",
                "więcej",
                "zobacz także",
                "zobacz też",
                "czytaj także",
                "czytaj też",
                "następna",
                "poprzednia",
                "najczęściej czytane",
                "polecamy",
            ],
        ),
        (
            "ru",
            &[
                "читать далее",
                "читать дальше",
                "подробнее",
                "далее",
                "ещё",
                "читайте также",
                "смотрите также",
                "по теме",
                "похожие новости",
                "следующая",
                "предыдущая",
                "самое читаемое",
                "популярное",
                "все новости",
                "лента новостей",
            ],
        ),
        (
            "el",
            &[
                "διαβάστε περισσότερα",
                "περισσότερα",
                "διαβάστε επίσης",
                "δείτε επίσης",
                "σχετικά άρθρα",
                "επόμενο",
                "προηγούμενο",
                "δημοφιλή",
            ],
        ),
        (
            "zh",
            &[
                "阅读全文",
                "閱讀全文",
                "查看更多",
                "更多",
                "相关新闻",
                "相關新聞",
                "相关阅读",
                "相關閱讀",
                "相关文章",
                "延伸阅读",
                "延伸閱讀",
                "推荐阅读",
                "推薦閱讀",
                "下一页",
                "下一頁",
                "上一页",
                "上一頁",
                "下一篇",
                "上一篇",
                "热门",
                "熱門",
            ],
        ),
        (
            "ja",
            &[
                "続きを読む",
                "もっと見る",
                "関連記事",
                "関連ニュース",
                "おすすめ",
                "次へ",
                "前へ",
                "次のページ",
                "人気記事",
                "ランキング",
            ],
        ),
        ("ko", &["더보기", "관련기사", "다음", "이전"]),
    ],
);

/// The marks of a relative date ("3 hours ago", "vor 3 Stunden", "3 часа
/// назад", "3小时前"): a short segment with a digit and one of them holds
/// one. Where the language writes the unit after the mark (German), the
/// units are the marks.
pub const RELATIVE_DATE_MARKS: WordSet = WordSet::new(
    "relative-date-marks",
    &[
        ("en", &["ago"]),
        (
            "de",
            &["stunden", "stunde", "minuten", "tagen", "wochen", "monaten"],
        ),
        ("fr", &["il y a"]),
        ("es", &["hace"]),
        ("pt", &["há"]),
        ("it", &["fa"]),
        ("nl", &["geleden"]),
        ("pl", &["temu"]),
        ("ru", &["назад"]),
        ("el", &["πριν"]),
        (
            "zh",
            &[
                "小时前",
                "小時前",
                "分钟前",
                "分鐘前",
                "天前",
                "秒前",
                "周前",
                "週前",
                "个月前",
                "個月前",
            ],
        ),
        (
            "ja",
            &[
                "時間前",
                "分前",
                "日前",
                "秒前",
                "週間前",
                "か月前",
                "ヶ月前",
            ],
        ),
        ("ko", &["시간 전", "분 전", "일 전", "초 전"]),
    ],
);
