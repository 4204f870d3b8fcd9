//! Property tests: no input makes the converter panic, hang or overflow the width.

use proptest::prelude::*;
use vantage::render::{RenderOptions, extract_cards, extract_links, html_to_document};

/// Pieces of markup and text that tag soup is made of.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<".to_owned()),
        Just(">".to_owned()),
        Just("</".to_owned()),
        Just("/>".to_owned()),
        Just("\"".to_owned()),
        Just("'".to_owned()),
        Just("=".to_owned()),
        Just("&#".to_owned()),
        Just("&#x".to_owned()),
        Just("&".to_owned()),
        Just(";".to_owned()),
        Just("<!--".to_owned()),
        Just("-->".to_owned()),
        Just("<![CDATA[".to_owned()),
        Just("<!DOCTYPE html>".to_owned()),
        Just(" ".to_owned()),
        Just("\n".to_owned()),
        Just("\t".to_owned()),
        Just(" hidden".to_owned()),
        Just(" class=sr-only".to_owned()),
        Just(" href=\"https://a.b/c\"".to_owned()),
        Just(" href='/url?q=https://x.y/%41&amp;sa=U'".to_owned()),
        Just(" style=\"display:none\"".to_owned()),
        Just(" start=7".to_owned()),
        prop::sample::select(vec![
            "p",
            "div",
            "a",
            "b",
            "i",
            "ul",
            "ol",
            "li",
            "pre",
            "code",
            "table",
            "tr",
            "td",
            "th",
            "h1",
            "h2",
            "h6",
            "br",
            "hr",
            "img",
            "blockquote",
            "script",
            "style",
            "svg",
            "textarea",
            "title",
            "span",
            "dl",
            "dt",
            "dd",
            "button",
            "template",
            "sup",
        ])
        .prop_map(str::to_owned),
        "[a-z]{1,8}",
        "[ -~]{1,6}",
        "\\PC{1,4}",
        prop::sample::select(vec![
            "日本語",
            "👩‍👩‍👧",
            "🇯🇵",
            "⚠️",
            "e\u{301}",
            "한국",
            "\u{200d}",
            "\u{fe0f}",
            "\u{a0}",
            "\r\n",
            "\u{7}"
        ])
        .prop_map(str::to_owned),
    ]
}

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..120).prop_map(|v| v.concat())
}

fn check(html: &str, options: &RenderOptions) {
    let doc = html_to_document(html, options);
    for w in [1u16, 2, 3, 4, 5, 8, 13, 21, 40, 80, 120, 199, 200] {
        for line in doc.wrap(w) {
            assert!(line.width() <= w as usize, "line wider than {w}: {line:?}");
        }
    }
    let _ = doc.to_markdown();
    let _ = doc.plain_text();
    let _ = doc.is_empty();
    let links = extract_links(html);
    // Cards, when read, stand one for one with the links.
    if options.cards {
        assert_eq!(doc.cards().len(), doc.links().len());
        assert_eq!(extract_cards(html).len(), links.len());
    } else {
        assert!(doc.cards().is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_strings_never_panic(s in "\\PC{0,300}") {
        check(&s, &RenderOptions::default());
    }

    #[test]
    fn tag_soup_never_panics_and_fits(
        s in soup(),
        number_links in any::<bool>(),
        cards in any::<bool>(),
    ) {
        check(&s, &RenderOptions { drop_first: Some("h6"), number_links, cards });
    }

    #[test]
    fn any_width_fits(s in soup(), width in 1u16..=200) {
        let doc = html_to_document(&s, &RenderOptions::default());
        for line in doc.wrap(width) {
            prop_assert!(line.width() <= width as usize);
        }
    }
}

/// Tag soup with the pieces an answer's shape is read from: bold leads, numbered headings,
/// labels, tables and brand names.
fn answer_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        fragment(),
        prop::sample::select(vec![
            "<strong>",
            "</strong>",
            "<li>",
            "</li>",
            "<h3>",
            "</h3>",
            "<th>",
            "<thead>",
            "1. ",
            "#2 ",
            "10) ",
            ": ",
            " — ",
            " (",
            "Salomon",
            "Lowa Renegade",
            "Best for:",
            "avoid",
            "couldn't find",
            "than ",
            "If ",
            ", ",
            ". ",
            "\n",
        ])
        .prop_map(str::to_owned),
    ];
    prop::collection::vec(piece, 0..160).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn an_answer_s_shape_and_brands_are_read_from_any_soup(s in answer_soup(), question in "[ -~]{0,30}") {
        use vantage::analysis::mentions::{Brand, read};
        use vantage::analysis::names::shape_and_names;
        let (outline, _names) = shape_and_names(&s, &question, Some("h6"));
        let Some(outline) = outline else { return Ok(()); };
        let text = &outline.text;
        for item in &outline.items {
            prop_assert!(item.span.start <= item.span.end && item.span.end <= text.len());
            prop_assert!(item.subject.start <= item.subject.end && item.subject.end <= text.len());
            prop_assert!(text.is_char_boundary(item.span.start) && text.is_char_boundary(item.span.end));
            prop_assert!(text.is_char_boundary(item.subject.start) && text.is_char_boundary(item.subject.end));
        }
        for at in 0..=text.len() {
            if let Some(index) = outline.item_at(at) {
                prop_assert!(outline.items[index].span.contains(&at));
            }
        }
        let brands = [Brand::named("Salomon"), Brand::named("Lowa"), Brand::named("Best")];
        let found = read(&outline, &["https://salomon.com/x"], &brands);
        prop_assert_eq!(found.len(), 3);
        let mut positions: Vec<usize> = found.iter().filter_map(|m| m.position).collect();
        positions.sort_unstable();
        prop_assert_eq!(positions, (1..=found.iter().filter(|m| m.position.is_some()).count()).collect::<Vec<_>>());
    }
}
