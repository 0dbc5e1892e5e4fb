//! Articles end to end, at the defaults: the story's own extent. Two
//! pages made here (the text is written for these tests; the sites are
//! made up): a local news story with a rail of other stories' headlines and
//! ledes above it, a list and a data table between its paragraphs, and a
//! "You may also like" list under it; and a blog post with a "You may also
//! like" grid of cards under it. The markup names nothing: the rails and
//! grids sit in `div`s of neutral classes (`row`, `item`, `grid`, `card`),
//! so what is kept is what the classifier reads from the page, not a class
//! word.

mod common;

use common::*;

const STORY: &str = r##"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Town council approves new cycle lanes for the harbour road - Harbourside Gazette</title>
<meta property="og:title" content="Town council approves new cycle lanes for the harbour road">
<meta property="og:type" content="article">
<meta name="author" content="Megan Holloway">
<meta property="article:published_time" content="2025-10-14T09:30:00Z">
</head><body>
<header class="site-header"><a href="/">Harbourside Gazette</a>
<nav class="main-nav"><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/business">Business</a></li><li><a href="/opinion">Opinion</a></li><li><a href="/whats-on">What's on</a></li></ul></nav></header>
<section class="row">
<h2>Top stories</h2>
<div class="item"><h3><a href="/news/ferry-timetable">Ferry timetable changes from next month as operator cuts winter sailings</a></h3><p>Passengers will see two fewer crossings a day between November and March, the operator has confirmed.</p></div>
<div class="item"><h3><a href="/news/school-roof">Primary school roof repairs to finish before the spring term begins</a></h3><p>Builders say the work on the leaking roof is ahead of schedule despite the wet weather.</p></div>
<div class="item"><h3><a href="/business/bakery">Family bakery on Quay Street celebrates fifty years of trading</a></h3><p>Three generations of the same family have run the shop since it opened in 1975.</p></div>
<div class="item"><h3><a href="/sport/rowing">Rowing club wins regional title for the third year running</a></h3><p>The men's eight crossed the line more than a length ahead of their nearest rivals.</p></div>
</section>
<main>
<article class="story">
<h1>Town council approves new cycle lanes for the harbour road</h1>
<p class="byline">By Megan Holloway, Local Democracy Reporter</p>
<p>The town council has approved plans for protected cycle lanes along the full length of the harbour road, after a consultation that drew more than two thousand responses from residents and businesses.</p>
<p>Councillors voted eleven to four in favour of the scheme on Tuesday evening. Work is expected to begin in the spring and to take about eight months, with the road kept open to traffic in one direction while each section is built.</p>
<p>The approved plan includes several changes that campaigners had asked for during the consultation:</p>
<ul>
<li>a kerb between the cycle lanes and the road for the whole route</li>
<li>new crossings at the ferry terminal and outside the primary school</li>
<li>twenty more parking spaces for cargo bikes near the market square</li>
<li>a lower speed limit of twenty miles an hour on the harbour road</li>
</ul>
<p>The scheme will be paid for mostly by a regional transport grant. The figures presented to the meeting set out how the cost is shared:</p>
<table class="costs">
<thead><tr><th>Source</th><th>Amount</th><th>Share</th></tr></thead>
<tbody>
<tr><td>Regional transport grant</td><td>£2.4 million</td><td>75%</td></tr>
<tr><td>Town council</td><td>£0.6 million</td><td>19%</td></tr>
<tr><td>Harbour trust</td><td>£0.2 million</td><td>6%</td></tr>
</tbody>
</table>
<p>Opponents argued that the loss of forty roadside parking spaces would hurt shops along the waterfront. The chair of the traders' association said footfall had already fallen since the car park behind the fish market closed last year.</p>
<p>The council's transport lead said the design had been changed to keep loading bays outside every shop, and that the new cargo bike spaces were meant for delivery riders as much as for shoppers. A review of the scheme will take place a year after it opens.</p>
</article>
<section class="row">
<h2>You may also like</h2>
<ul>
<li><a href="/news/bus-route">New bus route to link the station and the hospital</a></li>
<li><a href="/news/parking-charges">Parking charges to rise in all council car parks</a></li>
<li><a href="/opinion/cycling">Opinion: our roads were never built for bicycles</a></li>
<li><a href="/news/bridge">Footbridge over the river to close for two weeks</a></li>
</ul>
</section>
</main>
<footer><p>© 2025 Harbourside Gazette. All rights reserved.</p><ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/contact">Contact us</a></li></ul></footer>
</body></html>
"##;

const POST: &str = r##"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>How we keep bees on a city balcony - The Allotment Notebook</title>
</head><body>
<div class="top"><a href="/">The Allotment Notebook</a> <a href="/garden">Garden</a> <a href="/kitchen">Kitchen</a> <a href="/about">About</a></div>
<div class="container">
<div class="post">
<h1>How we keep bees on a city balcony</h1>
<div class="post-meta">Posted on 12 May 2025 by Ruth Abernethy</div>
<div class="entry">
<p>When we moved into a fourth-floor flat three years ago, I assumed our beekeeping days were over. The balcony is barely two metres deep and faces south over a busy road. It turns out that bees do not mind either of those things nearly as much as I expected.</p>
<p>The hive sits in the corner furthest from the door, raised on two breeze blocks so that it is level with the railing. The bees fly straight up and over the edge, well above the heads of anyone walking past below, and in three summers we have had no complaints from the neighbours.</p>
<p>Forage was the other worry. The city has far more flowers than you might think: lime trees along the streets, the gardens behind every terrace, and a park with a long border of lavender a few minutes' flight away. Last year the colony filled two supers, which is more honey than our old hive in the country ever gave us.</p>
<p>If you are thinking of trying it, check the terms of your lease first, talk to the neighbours before the bees arrive, and join a local association. An experienced beekeeper who can visit in the first season is worth more than any book.</p>
</div>
</div>
<div class="more">
<h3>You may also like</h3>
<div class="grid">
<div class="card"><a href="/garden/tomatoes"><img src="/t.jpg" alt=""><span>Growing tomatoes in pots: what worked this year</span></a></div>
<div class="card"><a href="/kitchen/jam"><img src="/j.jpg" alt=""><span>Rhubarb and ginger jam in twenty minutes</span></a></div>
<div class="card"><a href="/garden/compost"><img src="/c.jpg" alt=""><span>A compost bin that fits under the sink</span></a></div>
<div class="card"><a href="/garden/seeds"><img src="/s.jpg" alt=""><span>Saving seeds from your own vegetables</span></a></div>
</div>
</div>
</div>
<div class="bottom">© 2025 The Allotment Notebook · Privacy · Contact</div>
</body></html>
"##;

/// `clean --format FORMAT` of one page, at the defaults.
fn clean(page: &str, format: &str) -> String {
    let dir = tempdir();
    let path = dir.path().join("page.html");
    std::fs::write(&path, page).unwrap();
    ok(&["clean", "-q", "--format", format, path.to_str().unwrap()])
}

/// Asserts that `out` holds each of `parts`.
fn keeps(out: &str, parts: &[&str]) {
    for part in parts {
        assert!(out.contains(part), "lost {part:?}:\n{out}");
    }
}

/// Asserts that `out` holds none of `parts`, which are `what`.
fn drops(out: &str, parts: &[&str], what: &str) {
    for part in parts {
        assert!(!out.contains(part), "kept {what} {part:?}:\n{out}");
    }
}

/// The story's paragraphs, each as the page has it on one line.
const STORY_PARAGRAPHS: [&str; 6] = [
    "The town council has approved plans for protected cycle lanes",
    "Councillors voted eleven to four in favour of the scheme",
    "The approved plan includes several changes that campaigners had asked for",
    "The scheme will be paid for mostly by a regional transport grant.",
    "Opponents argued that the loss of forty roadside parking spaces",
    "The council's transport lead said the design had been changed",
];

#[test]
fn a_rail_of_other_stories_above_the_story_is_dropped() {
    let text = clean(STORY, "text");
    keeps(&text, &STORY_PARAGRAPHS);
    let rail = [
        "Top stories",
        "Ferry timetable changes from next month",
        "Passengers will see two fewer crossings a day",
        "Primary school roof repairs",
        "Family bakery on Quay Street",
        "Three generations of the same family",
        "Rowing club wins regional title",
    ];
    drops(&text, &rail, "the rail's");
}

#[test]
fn a_list_and_a_table_between_the_storys_paragraphs_are_kept() {
    let md = clean(STORY, "markdown");
    let list = [
        "- a kerb between the cycle lanes and the road for the whole route",
        "- new crossings at the ferry terminal and outside the primary school",
        "- twenty more parking spaces for cargo bikes near the market square",
        "- a lower speed limit of twenty miles an hour on the harbour road",
    ];
    let table = [
        "| Source | Amount | Share |",
        "| Regional transport grant | £2.4 million | 75% |",
        "| Town council | £0.6 million | 19% |",
        "| Harbour trust | £0.2 million | 6% |",
    ];
    keeps(&md, &list);
    keeps(&md, &table);
    // In the story's order: the list, then the table, between paragraphs.
    let at = |s: &str| md.find(s).unwrap_or_else(|| panic!("no {s:?} in:\n{md}"));
    assert!(at("several changes that campaigners") < at("- a kerb between"));
    assert!(at("- a lower speed limit") < at("paid for mostly by a regional"));
    assert!(at("| Source | Amount | Share |") < at("| Harbour trust"));
    assert!(at("| Harbour trust") < at("Opponents argued"));
}

#[test]
fn a_you_may_also_like_block_under_the_story_or_the_post_is_dropped() {
    let text = clean(STORY, "text");
    let related = [
        "You may also like",
        "New bus route to link the station and the hospital",
        "Parking charges to rise in all council car parks",
        "Footbridge over the river to close for two weeks",
    ];
    drops(&text, &related, "under the story");
    let text = clean(POST, "text");
    let post = [
        "When we moved into a fourth-floor flat three years ago",
        "The hive sits in the corner furthest from the door",
        "Forage was the other worry.",
        "If you are thinking of trying it, check the terms of your lease first",
    ];
    keeps(&text, &post);
    let cards = [
        "You may also like",
        "Growing tomatoes in pots",
        "Rhubarb and ginger jam",
        "A compost bin that fits under the sink",
        "Saving seeds from your own vegetables",
    ];
    drops(&text, &cards, "under the post");
}
