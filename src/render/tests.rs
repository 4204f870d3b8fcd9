use ratatui::style::{Color, Modifier};
use ratatui::text::Line;

use super::*;

fn doc(html: &str) -> Document {
    html_to_document(html, &RenderOptions::default())
}

fn lines(d: &Document, width: u16) -> Vec<String> {
    d.wrap(width).iter().map(line_text).collect()
}

fn line_text(l: &Line<'_>) -> String {
    l.spans.iter().map(|s| s.content.as_ref()).collect()
}

fn assert_fits(d: &Document, width: u16) {
    for l in d.wrap(width) {
        assert!(
            l.width() <= width as usize,
            "line {:?} is {} wide, more than {width}",
            line_text(&l),
            l.width()
        );
    }
}

#[test]
fn entities_in_text() {
    let d = doc(
        "<p>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; f&nbsp;g &mdash; &ndash; &hellip; &rsquo;&lsquo;&ldquo;&rdquo; &middot; &copy; &reg; &trade; &times; &#65;&#x263A; &bogus; & x</p>",
    );
    assert_eq!(
        d.plain_text(),
        "a & b <c> \"d\" 'e' f g — – … ’‘“” · © ® ™ × A☺ &bogus; & x"
    );
}

#[test]
fn whitespace_collapses_outside_pre() {
    let d = doc("<p>\n  one   two\t\n three <b> four </b>five</p>");
    assert_eq!(d.plain_text(), "one two three four five");
}

#[test]
fn hidden_elements_are_dropped() {
    let html = r#"
        <p>visible1</p>
        <p hidden>no1</p>
        <div aria-hidden="true">no2 <b>deep</b></div>
        <div aria-hidden="false">visible2</div>
        <span style="color: red; DISPLAY : none">no3</span>
        <span style="visibility:hidden">no4</span>
        <h4 class="sr-only select-none">no5</h4>
        <h2 class="x visually-hidden">no6</h2>
        <h2 class="cdk-visually-hidden">no7</h2>
        <span class="screen-reader-text">no8</span>
        <span class="a11y-hidden">no9</span>
        <button>no10</button><input value="no11">
        <script>no12()</script><style>.no13{}</style><noscript>no14</noscript>
        <template><p>no15</p></template><svg><text>no16</text></svg>
        <p>visible3 <span class="sr-only">no17 <span>nested</span> still</span>tail</p>"#;
    let text = doc(html).plain_text();
    assert!(!text.contains("no"), "{text}");
    assert!(!text.contains("deep") && !text.contains("nested") && !text.contains("still"));
    for v in ["visible1", "visible2", "visible3", "tail"] {
        assert!(text.contains(v), "{v} missing from {text}");
    }
}

#[test]
fn gemini_label_dropped_by_markup() {
    let d = doc(
        r#"<h2 class="cdk-visually-hidden">Gemini a dit</h2><message-content><p>Bonjour <b>monde</b></p></message-content>"#,
    );
    assert_eq!(lines(&d, 80), vec!["Bonjour monde"]);
}

#[test]
fn drop_first_drops_only_the_first() {
    let html = "<h6>Copilot said</h6><p>Answer</p><h6>Real heading</h6>";
    let d = html_to_document(
        html,
        &RenderOptions {
            drop_first: Some("h6"),
            ..Default::default()
        },
    );
    assert_eq!(lines(&d, 80), vec!["Answer", "", "Real heading"]);
    assert!(doc(html).plain_text().contains("Copilot said"));
}

#[test]
fn lists_nested_and_numbered() {
    let html = "<ul><li>one<ul><li>inner <b>a</b></li><li>inner b<ul><li>deep</li></ul></li></ul></li><li>two</li></ul>\
                <ol start=\"8\"><li>eight</li><li>nine<ol><li>x</li></ol></li><li>ten</li></ol>";
    let d = doc(html);
    assert_eq!(
        lines(&d, 80),
        vec![
            "• one",
            "  • inner a",
            "  • inner b",
            "    • deep",
            "• two",
            "",
            "8.  eight",
            "9.  nine",
            "    1. x",
            "10. ten",
        ]
    );
}

#[test]
fn list_items_wrap_under_their_text() {
    let d = doc("<ol><li><p>alpha beta gamma delta</p><p>second para</p></li></ol>");
    assert_eq!(
        lines(&d, 14),
        vec!["1. alpha beta", "   gamma delta", "", "   second para"]
    );
}

#[test]
fn unclosed_li_and_p_close_implicitly() {
    let d = doc("<ul><li>a<li>b</ul><p>one<p>two");
    assert_eq!(lines(&d, 80), vec!["• a", "• b", "", "one", "", "two"]);
}

#[test]
fn pre_is_verbatim_and_hard_wrapped() {
    let d = doc("<p>before</p><pre>\nfn  main() {\n\tlet x = 1 &lt; 2;\n}\n</pre><p>after</p>");
    assert_eq!(
        lines(&d, 80),
        vec![
            "before",
            "",
            "fn  main() {",
            "        let x = 1 < 2;",
            "}",
            "",
            "after"
        ]
    );
    assert_eq!(lines(&d, 8)[2..5], ["fn  main", "() {", "        "]);
    let pre_line = &d.wrap(80)[2];
    assert_eq!(pre_line.spans[0].style.fg, Some(Color::Yellow));
}

#[test]
fn tables_aligned_in_columns() {
    let d = doc("<table><thead><tr><th>Name</th><th>Value</th></tr></thead>\
         <tbody><tr><td>a</td><td><p>1</p></td></tr><tr><td>b<td>2</tbody></table><p>next</p>");
    assert_eq!(
        lines(&d, 80),
        vec![
            "────┬─────",
            "Name│Value",
            "────┼─────",
            "a   │1    ",
            "────┼─────",
            "b   │2    ",
            "────┴─────",
            "",
            "next"
        ]
    );
}

#[test]
fn blockquote_hr_br_img_textarea() {
    let d = doc(
        "<blockquote><p>quoted text here</p></blockquote><hr><p>a<br>b<br><br>c</p>\
         <p><img src=\"x.png\" alt=\"A cat\"><img src=\"data:image/png;base64,AAAA\" alt=\"noise\"><img src=\"y.png\"></p>\
         <textarea>typed &amp; kept</textarea>",
    );
    assert_eq!(
        lines(&d, 10),
        vec![
            "│ quoted",
            "│ text",
            "│ here",
            "",
            "──────────",
            "",
            "a",
            "b",
            "",
            "c",
            "",
            "[image: A",
            "cat]",
        ]
    );
}

#[test]
fn inline_styles() {
    let d = doc(
        "<p>n <b>b</b> <em>i</em> <code>c</code> <a href=\"https://x.y\">l</a> <del>s</del> <sup>2</sup></p><h1>H</h1><h3>h</h3>",
    );
    let ls = d.wrap(80);
    let spans = &ls[0].spans;
    let find = |t: &str| spans.iter().find(|s| s.content.trim() == t).unwrap().style;
    assert!(find("b").add_modifier.contains(Modifier::BOLD));
    assert!(find("i").add_modifier.contains(Modifier::ITALIC));
    assert_eq!(find("c").fg, Some(Color::Yellow));
    assert!(find("l").add_modifier.contains(Modifier::UNDERLINED));
    assert_eq!(find("l").fg, Some(Color::Cyan));
    assert!(find("s").add_modifier.contains(Modifier::CROSSED_OUT));
    assert_eq!(line_text(&ls[0]), "n b i c l s ²");
    // Headings are styled, not prefixed.
    assert_eq!(line_text(&ls[2]), "H");
    assert!(
        ls[2].spans[0]
            .style
            .add_modifier
            .contains(Modifier::BOLD | Modifier::UNDERLINED)
    );
    assert_eq!(line_text(&ls[4]), "h");
    assert!(ls[4].spans[0].style.add_modifier.contains(Modifier::BOLD));
}

#[test]
fn links_deduplicated_and_filtered() {
    let html = r##"<p><a href="https://a.com/x"><img src="i.png"></a>
        <a href="https://a.com/x"> First  text </a>
        <a href="https://a.com/x">Second text</a>
        <a href="#top">top</a><a href="javascript:void(0)">js</a><a href="">empty</a><a>none</a>
        <a href="https://b.org/path?q=1&amp;r=2"><svg></svg></a>
        <a href="/url?q=https://c.net/page%3Fa%3D1&amp;sa=U&amp;ved=2">C result</a>
        <span hidden><a href="https://hidden.example/">h</a></span></p>"##;
    let d = doc(html);
    assert_eq!(
        d.links(),
        &[
            Link {
                url: "https://a.com/x".into(),
                text: "First text".into()
            },
            Link {
                url: "https://b.org/path?q=1&r=2".into(),
                text: "b.org".into()
            },
            Link {
                url: "https://c.net/page?a=1".into(),
                text: "C result".into()
            },
        ]
    );
    let numbered = html_to_document(
        html,
        &RenderOptions {
            number_links: true,
            ..Default::default()
        },
    );
    assert_eq!(
        numbered.plain_text(),
        "First text\nSecond text\ntop\njs\nempty\nnone\n\nC result"
    );
    let view = lines(&numbered, 200).join("\n");
    assert_eq!(
        view,
        "First text [1]\nSecond text [1]\ntop\njs\nempty\nnone\n\nC result [3]"
    );
}

#[test]
fn extract_links_cheap_pass() {
    let links = extract_links(
        r#"<ol><li><a href="https://one.example/a">One <b>bold</b></a></li>
           <li><a href="https://two.example/">  </a></li><li><a href="https://one.example/a">dup</a></li>
           <li><a href="/url?q=https://three.example/&amp;sa=U">Three</a></li></ol>"#,
    );
    let got: Vec<(&str, &str)> = links
        .iter()
        .map(|l| (l.url.as_str(), l.text.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("https://one.example/a", "One bold"),
            ("https://two.example/", "two.example"),
            ("https://three.example/", "Three"),
        ]
    );
}

#[test]
fn wrap_respects_width_with_wide_chars() {
    let d = doc(
        "<h1>日本語のタイトルはとても長いです</h1><p>emoji 👩‍👩‍👧‍👦 flags 🇯🇵🇫🇷 ⚠️ keycap 1️⃣ \
         skin 👍🏽 combining é and e\u{301} mixed漢字English交じりの文章 \
         averyveryveryverylongwordwithoutanyspacesatalltobreak</p>\
         <ul><li><ul><li><ul><li>深い入れ子のリスト項目です</li></ul></li></ul></li></ul>\
         <pre>コード  行\t타브</pre><blockquote><blockquote><p>引用の中の引用</p></blockquote></blockquote>\
         <table><tr><td>セル</td><td>👍🏽👍🏽</td></tr></table><hr>",
    );
    for w in 1..=60 {
        assert_fits(&d, w);
    }
    // Nothing is lost at a comfortable width.
    let all = lines(&d, 200).join("");
    // Emoji sequences come apart into their emoji (see `JOINERS`).
    assert!(
        all.contains("👩👩👧👦")
            && all.contains("🇯🇵🇫🇷")
            && all.contains("1\u{20E3}")
            && !all.contains('\u{FE0F}')
    );
}

#[test]
fn width_zero_gives_nothing() {
    assert!(doc("<p>x</p>").wrap(0).is_empty());
}

#[test]
fn to_markdown_small_sample() {
    let html = r#"<h2>Title &amp; more</h2><p>Some <strong>bold</strong>, <em>italic</em>, <code>x()</code>,
        <del>gone</del> and a <a href="https://ex.com/a b">link <b>here</b></a>. Stars * and_under.</p>
        <ul><li>one</li><li>two<ol><li>inner</li></ol></li></ul>
        <blockquote><p>quote</p></blockquote>
        <pre><code>let a = 1;
let b = 2;</code></pre>
        <table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table><hr><p>end</p>"#;
    let d = html_to_document(
        html,
        &RenderOptions {
            number_links: true,
            ..Default::default()
        },
    );
    assert_eq!(
        d.to_markdown(),
        "## Title & more\n\n\
         Some **bold**, *italic*, `x()`, ~~gone~~ and a [link **here**](https://ex.com/a%20b). Stars * and_under.\n\n\
         - one\n\
         - two\n  \
         1. inner\n\n\
         > quote\n\n\
         ```\nlet a = 1;\nlet b = 2;\n```\n\n\
         ```\n─┬─\nk│v\n─┼─\na│1\n─┴─\n```\n\n\
         ---\n\n\
         end"
    );
}

#[test]
fn misnested_and_broken_markup_is_tolerated() {
    let d = doc(
        "<b>bold <i>both</b> italic?</i> plain <p>unclosed <div>x</span></div> </foo> <a href='https://q.r'>open",
    );
    assert_eq!(
        d.plain_text(),
        "bold both italic? plain\n\nunclosed\n\nx\nopen"
    );
    assert_eq!(d.links().len(), 1);
    let d = doc("<p>a</p><!-- unterminated comment <p>b</p>");
    assert_eq!(d.plain_text(), "a");
    let d = doc("text <a href=\"x");
    assert_eq!(d.plain_text(), "text");
}

#[test]
fn empty_documents() {
    assert!(doc("").is_empty());
    assert!(doc("<div hidden>x</div><script>y</script>   ").is_empty());
    assert!(!doc("<hr>").is_empty());
    assert!(!doc("x").is_empty());
}

#[test]
fn wrapped_cache_rewraps_on_width_change() {
    let d = doc("<p>one two three four</p>");
    let mut cache = WrappedCache::new();
    assert_eq!(cache.lines(&d, 80).len(), 1);
    assert_eq!(cache.lines(&d, 8).len(), 3);
    cache.invalidate();
    assert_eq!(cache.lines(&d, 8).len(), 3);
}

#[test]
fn blank_lines_do_not_pile_up() {
    let d =
        doc("<p>a</p><p><br></p><p><br></p><div><br><br><br></div><p>b<br><br>c</p><p><br></p>");
    assert_eq!(lines(&d, 80), vec!["a", "", "b", "", "c"]);
    let d = doc("<div popover=\"hint\">tooltip</div><p>shown</p>");
    assert_eq!(d.plain_text(), "shown");
}

#[test]
fn pathological_nesting_stays_cheap() {
    let n = 20_000;
    let mut html = String::new();
    for i in 0..n {
        html.push_str(&format!("<blockquote><ul><li>item {i}<div><span>"));
    }
    for _ in 0..n {
        html.push_str("</b></span>");
    }
    let start = std::time::Instant::now();
    let d = doc(&html);
    for w in [1, 40, 200] {
        assert_fits(&d, w);
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn markdown_table_with_empty_cells() {
    let d = doc(
        "<table><tr><th>a</th><th></th><th>c</th></tr><tr><td></td><td></td><td>z</td></tr></table>",
    );
    assert_eq!(d.to_markdown(), "```\n─┬─\na│c\n─┼─\n │z\n─┴─\n```");
}

#[test]
fn chatgpt_style_code_block() {
    let html = r#"<p>Run:</p><pre class="overflow-visible!"><div class="contain-inline-size"><div class="flex">python</div><div class="sticky"><button>Copy code</button></div><div class="overflow-y-auto"><code class="language-python"><span class="hljs-keyword">def</span> <span class="hljs-title">f</span>(x):
    <span class="hljs-keyword">return</span> x &gt; 1
</code></div></div></pre><p>Done.</p>"#;
    let d = doc(html);
    assert_eq!(
        lines(&d, 80),
        vec!["Run:", "", "def f(x):", "    return x > 1", "", "Done."]
    );
    assert!(
        d.to_markdown()
            .contains("```\ndef f(x):\n    return x > 1\n```")
    );
}

#[test]
fn scratch_probe() {
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/live/search-google-sample.html"
    ))
    .unwrap();
    let i = page.find("<div class=\"yuRUbf\"").unwrap();
    let seg = &page[i..i + 3000];
    eprintln!("SEG {:?}", lines(&doc(seg), 80));
    let head_end = page.find("</head>").unwrap();
    let with_css = format!("{}{}", &page[..head_end], seg);
    eprintln!("CSS {:?}", lines(&doc(&with_css), 80));
}

#[test]
fn inline_citation_links_stay_in_their_sentence_and_nav_links_get_their_own_lines() {
    let prose = doc(
        "<p>Judged on grip. <a href=\"https://www.rei.com/a\"><span>rei.com</span></a> \
         <a href=\"https://treelinereview.com/b\"><span>treelinereview.com</span></a> Tests agree.</p>",
    );
    assert_eq!(
        lines(&prose, 200),
        ["Judged on grip. rei.com treelinereview.com Tests agree."]
    );
    let nav = doc("<nav><a href=\"/a\">Reviews</a> <a href=\"/b\">Deals</a></nav>");
    assert_eq!(lines(&nav, 200), ["Reviews", "Deals"]);
}

#[test]
fn a_citation_number_wrapped_in_chips_is_a_superscript_not_a_glued_digit() {
    let d = doc(
        "<p>Don't skimp on it.<sup class=\"superscript\"><source-footnote>\
         <span class=\"citation-chip\" aria-label=\"Wirecutter\">3</span></source-footnote></sup></p>\
         <p>Focus on weight.<sup class=\"citation\">[2]</sup> E = mc<sup>2</sup></p>",
    );
    assert_eq!(
        lines(&d, 200),
        ["Don't skimp on it.³", "", "Focus on weight.[2] E = mc²"]
    );
}

#[test]
fn a_space_inside_a_mark_moves_outside_so_markdown_stays_bold() {
    let d = doc("<p><strong>Price: </strong>About 187 €, <em> mostly</em> in shops.</p>");
    assert_eq!(
        d.to_markdown().trim(),
        "**Price:** About 187 €, *mostly* in shops."
    );
    assert_eq!(
        d.plain_text().trim(),
        "Price: About 187 €, mostly in shops."
    );
}

#[test]
fn a_citation_glued_to_its_sentence_is_set_apart() {
    let d =
        doc(r#"<p>Prices vary by region.<a href="https://bestbuy.com">Best Buy</a> has it.</p>"#);
    assert!(
        d.plain_text().contains("region. Best Buy has it."),
        "{}",
        d.plain_text()
    );
    // ChatGPT's pill: the link inside spans.
    let d = doc(
        r#"<p>Prices vary by region.<span><span><a href="https://bestbuy.com">Best Buy</a></span></span></p>"#,
    );
    assert!(
        d.plain_text().contains("region. Best Buy"),
        "{}",
        d.plain_text()
    );
}

#[test]
fn a_source_cards_title_leaves_out_its_site_and_number() {
    let d = doc(
        r#"<a href="https://www.switchbacktravel.com/boots"><div>Switchback Travel</div><div><span>www.switchbacktravel.com</span><span>1</span></div></a>
        <a href="https://example.com/top">Top 10</a>"#,
    );
    let texts: Vec<&str> = d.links().iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["Switchback Travel", "Top 10"]);
}

#[test]
fn blocks_inside_a_link_are_on_their_own_lines() {
    let d = doc(
        "<a href=\"https://www.reddit.com/r/boots\"><h3>Best boots | Reddit</h3>\
         <div><cite>www.reddit.com</cite></div></a>",
    );
    let shown = lines(&d, 80);
    assert!(
        shown.iter().any(|l| l.trim() == "Best boots | Reddit"),
        "{shown:?}"
    );
    assert!(
        shown.iter().any(|l| l.trim() == "www.reddit.com"),
        "{shown:?}"
    );
}
