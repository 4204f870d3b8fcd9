//! What the converter shows, by snapshot: a page with every kind of element, the live
//! fixtures, and search-page shapes whose text used to run together.

use std::path::Path;

use vantage::render::{Document, RenderOptions, html_to_document};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/live");

const NUMBERED: RenderOptions = RenderOptions {
    drop_first: None,
    number_links: true,
    cards: false,
};

fn view(doc: &Document, width: u16) -> String {
    doc.wrap(width)
        .iter()
        .map(|l| {
            let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            text.trim_end().to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn links(doc: &Document) -> String {
    doc.links()
        .iter()
        .enumerate()
        .map(|(i, l)| format!("[{}] {} <{}>", i + 1, l.text, l.url))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every kind of element an answer or a page holds.
const EVERY_ELEMENT: &str = r#"<html><head><style>.promo{display:none}</style></head><body>
<h2 class="sr-only">ChatGPT said:</h2>
<h1>Trail shoes &amp; boots</h1>
<p>Plain, <strong>strong</strong>, <em>emphasis</em>, <code>code()</code>, <del>gone</del>,
a <a href="https://example.com/guide">guide link</a> and a
<a href="/url?q=https://shop.example/boots%3Fsize%3D42&amp;sa=U">redirected link</a>.</p>
<p>Entities: &hearts; &Scaron; &bigstar; &mdash; &frac12; &nbsp;end.</p>
<ul><li>Fit first<ul><li>Heel lock</li><li>Toe room<ul><li>Thumb's width</li></ul></li></ul></li>
<li>Then waterproofing</li></ul>
<ol start="3"><li>Third</li><li>Fourth</li></ol>
<blockquote><p>Quoted advice, kept apart from the answer.</p></blockquote>
<pre class="overflow-visible"><div class="flex">rust</div><div class="sticky"><button>Copy code</button></div><div><code class="language-rust">fn main() {
    println!("&lt;hi&gt;");
}</code></div></pre>
<table><thead><tr><th>Model</th><th>Weight</th><th>Price</th></tr></thead>
<tbody><tr><td>Salomon X Ultra</td><td>790 g</td><td>$150</td></tr>
<tr><td>Merrell Moab</td><td>1 kg</td><td>$120</td></tr></tbody></table>
<hr>
<p>Icon-only: <a href="https://icons.example/x"><svg><path d="M0"></path></svg></a>
and an image <img src="cat.png" alt="a cat">.</p>
<p hidden>hidden paragraph</p><div aria-hidden="true">aria hidden</div>
<span style="display:none">inline hidden</span><div class="promo">page-hidden promo</div>
<noscript><style>p{display:none}</style>noscript text</noscript>
<template><p>template text</p></template><form><input value="typed"><button>Send</button></form>
<div class="sponsored-results"><span class="sr-only">Sponsored</span><a href="https://shop.example/deals/boots" rel="sponsored noopener" class="ad-card"><span class="ad-label">Sponsored</span> <span class="ad-title">Boots – Sale Now On</span> <span class="ad-body">Free delivery on boots. Order today.</span></a><a href="https://www.compare-boots.com/boots" rel="sponsored noopener" class="ad-card"><span class="ad-label">Sponsored</span> <span class="ad-title">Compare Boots Prices</span> <span class="ad-body">Hundreds of offers side by side.</span></a></div>
</body></html>"#;

#[test]
fn every_element_kind() {
    let doc = html_to_document(EVERY_ELEMENT, &NUMBERED);
    assert!(doc.notice().is_none());
    let shown = view(&doc, 80);
    for hidden in [
        "ChatGPT said",
        "hidden paragraph",
        "aria hidden",
        "inline hidden",
        "promo",
        "noscript",
        "template",
        "typed",
        "Send",
        "Copy code",
    ] {
        assert!(!shown.contains(hidden), "{hidden:?} shown:\n{shown}");
    }
    assert!(shown.contains("Entities: ♥ Š ★ — ½"), "{shown}");
    // The language label is not a line of the code.
    assert!(!shown.lines().any(|l| l.trim() == "rust"), "{shown}");
    assert!(!doc.plain_text().lines().any(|l| l.trim() == "rust"));
    assert!(doc.to_markdown().contains("```\nfn main() {"));
    // The two ads are apart, each with where it leads.
    assert!(!shown.contains("Order today.Sponsored"), "{shown}");
    assert!(shown.contains("· shop.example"), "{shown}");
    assert!(shown.contains("· www.compare-boots.com"), "{shown}");
    insta::assert_snapshot!(
        "every_element_kind",
        format!(
            "{}\n\n=== plain ===\n{}\n\n=== markdown ===\n{}\n\n=== links ===\n{}",
            shown,
            doc.plain_text(),
            doc.to_markdown(),
            links(&doc)
        )
    );
}

/// Result shapes as the search page sends them, whose parts used to run together.
const SEARCH_SHAPES: &str = r#"<div id="rso">
<div class="MjjYud"><div class="g tF2Cxc"><div class="yuRUbf"><a href="https://www.reddit.com/r/hiking/boots"><h3 class="LC20lb">Best Hiking Boots 2025 (Buyer's Guide) | Reddit</h3><div class="notranslate"><span class="VuuXrf">Reddit</span><cite class="qLRx3b">www.reddit.com</cite></div></a></div><div class="VwiC3b"><span>Boots that fit beat boots that impress; the choice differs by region.</span></div></div></div>
<div class="MjjYud"><div class="g tF2Cxc"><div class="yuRUbf"><a href="https://www.outdoorgearlab.com/topics/boots"><h3 class="LC20lb">The 7 Best Hiking Boots</h3><div class="notranslate"><span class="VuuXrf">OutdoorGearLab</span><cite class="qLRx3b">https://www.outdoorgearlab.com › topics</cite></div></a></div><div class="VwiC3b"><span>Tested on the trail.</span></div><table class="sitelinks"><tr><td><a href="https://www.outdoorgearlab.com/a">Women's</a></td><td><a href="https://www.outdoorgearlab.com/b">Men's</a></td></tr></table></div></div>
<g-section-with-header><h3 role="heading">Top stories</h3><a class="WlydOe" href="https://www.usatoday.com/story"><img src="https://img.example/1.jpg" alt=""><div class="MgUUmf">USA Today</div><div role="heading" class="n0jPhd">Trail Running Shoes Take Over</div><span class="OSrXXb">2 days ago</span></a><a class="WlydOe" href="https://www.switchbacktravel.com/story"><div class="MgUUmf">Switchback Travel</div><div role="heading" class="n0jPhd">Boots of the Year</div><span class="OSrXXb">1 week ago</span></a></g-section-with-header>
</div>
<div class="uEierd"><span>Sponsored</span><a href="https://shop.example/deals"><div role="heading">Boots – Sale Now On</div></a><div>Free delivery on boots. Order today.</div></div>"#;

#[test]
fn search_shapes_read_apart() {
    let doc = html_to_document(SEARCH_SHAPES, &NUMBERED);
    let shown = view(&doc, 100);
    let plain = doc.plain_text();
    for joined in [
        "Redditwww.reddit.com",
        "OutdoorGearLabhttps://",
        "USA TodayTrail Running",
        "region.USA Today",
        "Switchback Travelwww",
        "agoSwitchback",
        "Order today.Sponsored",
    ] {
        assert!(!shown.contains(joined), "{joined:?} in:\n{shown}");
        assert!(!plain.contains(joined), "{joined:?} in:\n{plain}");
    }
    assert!(shown.contains("Reddit www.reddit.com"), "{shown}");
    insta::assert_snapshot!("search_shapes", shown);
}

#[test]
fn live_chatgpt_answer() {
    let raw = std::fs::read_to_string(Path::new(FIXTURES).join("ai-chatgpt-sample.json"))
        .expect("chatgpt fixture");
    let v: serde_json::Value = serde_json::from_str(&raw).expect("valid json");
    let doc = html_to_document(v["completion"].as_str().expect("completion"), &NUMBERED);
    insta::assert_snapshot!(
        "live_chatgpt_answer",
        format!("{}\n\n=== links ===\n{}", view(&doc, 100), links(&doc))
    );
}

#[test]
fn live_google_page() {
    let html = std::fs::read_to_string(Path::new(FIXTURES).join("search-google-sample.html"))
        .expect("google fixture");
    let doc = html_to_document(&html, &NUMBERED);
    assert!(doc.notice().is_none(), "{:?}", doc.notice());
    insta::assert_snapshot!("live_google_page", view(&doc, 100));
}

#[test]
fn every_html5_named_entity_decodes() {
    let entities: Vec<(&str, String)> = html5ever::data::NAMED_ENTITIES
        .entries()
        .filter(|(name, _)| name.ends_with(';'))
        .map(|(name, &(a, b))| {
            let decoded: String = [a, b]
                .into_iter()
                .filter(|&c| c != 0)
                .filter_map(char::from_u32)
                .collect();
            (*name, decoded)
        })
        .collect();
    assert!(entities.len() > 2_000);
    let html: String = entities
        .iter()
        .map(|(name, _)| format!("<p>[&{name}]</p>"))
        .collect();
    let plain = html_to_document(&html, &RenderOptions::default()).plain_text();
    let lines: std::collections::HashSet<&str> = plain.lines().collect();
    let missing: Vec<String> = entities
        .iter()
        // White space and zero-width spaces collapse; the rest reads as it is.
        .filter(|(_, decoded)| {
            !decoded
                .chars()
                .any(|c| c.is_whitespace() || matches!(c, '\u{200B}' | '\u{200D}'))
        })
        .filter(|(_, decoded)| !lines.contains(format!("[{decoded}]").as_str()))
        .map(|(name, decoded)| format!("&{name} → {decoded:?}"))
        .collect();
    assert!(missing.is_empty(), "not decoded: {missing:?}");
}

/// A link that holds a title block and a block with its address, as results pages and
/// answers' source cards have them: two lines, as a browser shows them, one link.
#[test]
fn a_link_holding_a_title_and_its_address() {
    let doc = html_to_document(
        "<p>Read <a href=\"https://www.reddit.com/r/boots\"><h3>Best boots | Reddit</h3>\
         <div><cite>www.reddit.com</cite></div></a> first.</p>",
        &NUMBERED,
    );
    insta::assert_snapshot!(format!("{}\n--\n{}", view(&doc, 60), links(&doc)));
}
