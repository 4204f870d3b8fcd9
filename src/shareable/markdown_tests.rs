use super::*;
use proptest::prelude::*;

/// What a renderer that passes raw HTML on would still find to run or fetch in `markdown`:
/// raw HTML, images, links to anything but http(s), control characters.
fn dangers(markdown: &str) -> Vec<String> {
    let mut found = Vec::new();
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Html(raw) | Event::InlineHtml(raw) => found.push(format!("raw HTML {raw:?}")),
            Event::Start(Tag::Image { dest_url, .. }) => found.push(format!("image {dest_url}")),
            Event::Start(Tag::Link { dest_url, .. }) if web_url(&dest_url).is_none() => {
                found.push(format!("link to {dest_url}"))
            }
            _ => {}
        }
    }
    if let Some(c) = markdown.chars().find(|c| sanitize::is_unsafe(*c)) {
        found.push(format!("control {c:?}"));
    }
    found
}

/// The text a renderer shows for `markdown`, markup aside.
fn shown_text(markdown: &str) -> String {
    Parser::new_ext(markdown, options())
        .filter_map(|e| match e {
            Event::Text(t) | Event::Code(t) => Some(t.to_string()),
            _ => None,
        })
        .collect()
}

const HOSTILE: &str = "# Boots <b>x</b>\n\n\
Try <script>alert(1)</script> and <img src=x onerror=alert(1)> or <iframe src=\"https://e.example\"></iframe>.\n\n\
<div onclick=\"alert(1)\">\nblock\n</div>\n\n\
[click](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [vb](vbscript:msgbox(1)) <javascript:alert(2)> [ok](https://example.com/a_(b)) ![pic](https://e.example/p.png)\n\n\
[ref]\n\n[ref]: javascript:alert(3)\n\n\
- item \x1b]0;title\x07 one\n- a < b & c\n\n\
| a | b |\n|---|---|\n| <svg onload=alert(1)> | `code` |\n\n\
```\nfence <x>\n";

#[test]
fn foreign_markdown_keeps_its_shape_and_loses_what_runs() {
    let safe = foreign(HOSTILE);
    assert_eq!(dangers(&safe), Vec::<String>::new(), "{safe}");
    let html = to_html(&safe);
    assert!(
        html.contains("<h1>Boots &lt;b&gt;x&lt;/b&gt;</h1>"),
        "{html}"
    );
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    assert!(
        html.contains("<a href=\"https://example.com/a_(b)\">ok</a>"),
        "{html}"
    );
    assert!(html.contains("<li>a &lt; b &amp; c</li>"), "{html}");
    assert!(html.contains("<table>"), "{html}");
    assert!(html.contains("<code>code</code>"), "{html}");
    assert!(html.contains("<pre><code>fence &lt;x&gt;"), "{html}");
    assert!(
        !html.contains("href=\"javascript") && !html.contains("<img"),
        "{html}"
    );
    assert!(
        shown_text(&safe).contains("click"),
        "a refused link keeps its words"
    );
}

#[test]
fn the_page_of_foreign_markdown_runs_nothing() {
    let html = to_html(HOSTILE);
    for refused in [
        "<script",
        "<img",
        "<iframe",
        "<div",
        "<svg",
        "javascript:alert(1)\"",
        "data:",
        "vbscript:",
    ] {
        assert!(!html.contains(refused), "{refused} in {html}");
    }
    assert!(
        html.contains("<a href=\"https://example.com/a_(b)\">ok</a>"),
        "{html}"
    );
    assert!(html.contains("item ␛ one"), "{html}");
}

#[test]
fn an_open_fence_or_block_ends_with_the_foreign_text() {
    let safe = foreign("```\nnever closed");
    let after = format!("{safe}\n\nOur own **words**\n");
    assert!(
        to_html(&after).contains("<strong>words</strong>"),
        "{after}"
    );
}

#[test]
fn values_read_as_themselves() {
    for value in [
        "<script>alert(1)</script>",
        "[x](javascript:alert(1))",
        "<javascript:alert(1)>",
        "**bold** _it_ ~~s~~ `c` a|b &amp; \\",
        "# heading",
        "- item",
        "+ item",
        "===",
        "1. one",
        "12) twelve",
        "> quote",
        "![i](https://e.example/i.png)",
    ] {
        let written = text(value);
        assert_eq!(dangers(&written), Vec::<String>::new(), "{written}");
        let parsed: Vec<Event> = Parser::new_ext(&written, options()).collect();
        assert!(
            matches!(parsed.first(), Some(Event::Start(Tag::Paragraph))),
            "{value:?} as {written:?} is {parsed:?}"
        );
        assert_eq!(shown_text(&written), value, "{written}");
    }
    assert_eq!(text("a\x1b]0;t\x07\nb"), "a␛ b");
    assert_eq!(
        text("Salomon 3.5 (2025) - best!"),
        "Salomon 3.5 (2025) - best!"
    );
}

#[test]
fn links_only_to_the_web() {
    assert_eq!(
        link("Boots [best]", "https://e.example/a (b)"),
        "[Boots \\[best\\]](https://e.example/a%20%28b%29)"
    );
    assert_eq!(link("x", "javascript:alert(1)"), "x");
    assert_eq!(link("", "data:text/html,hi"), "data:text/html,hi");
    assert_eq!(
        local_image("Chart", "javascript:alert(1)-visibility.svg"),
        "![Chart](./javascript%3Aalert%281%29-visibility.svg)"
    );
}

#[test]
fn preformatted_text_stays_in_its_block() {
    let block = preformatted(
        "<script>x</script>: named in 2\n\n```\n# not a heading\n[x](javascript:y)\x1b",
    );
    let page = format!("Before\n\n{block}\nAfter **this**\n");
    assert_eq!(dangers(&page), Vec::<String>::new(), "{page}");
    let html = to_html(&page);
    assert!(html.contains("<pre><code>&lt;script&gt;x&lt;/script&gt;: named in 2\n\n```\n# not a heading\n[x](javascript:y)␛\n</code></pre>"), "{html}");
    assert!(html.contains("<strong>this</strong>"), "{html}");
}

fn hostile_markdown() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "<script>",
        "</script>",
        "<img src=x onerror=alert(1)>",
        "<iframe>",
        "<!-- c -->",
        "<div>",
        "\n<div>\n",
        "</div>",
        "[x](javascript:alert(1))",
        "<javascript:x>",
        "[y](https://e.example)",
        "![z](data:image/png,x)",
        "[r]",
        "\n[r]: vbscript:x\n",
        "\n```\n",
        "`",
        "*",
        "_",
        "\n- ",
        "\n1. ",
        "\n> ",
        "\n# ",
        "|",
        "\n|a|b|\n|-|-|\n",
        "\\",
        "&lt;",
        "&#60;script&#62;",
        "\x1b]0;t\x07",
        "\u{9b}",
        "\u{202e}",
        "\n",
        "\n\n",
        " ",
        "text",
        "<",
        ">",
        "](",
        ")",
        "<a href=\"javascript:x\">a</a>",
        "\r\n",
    ]);
    prop::collection::vec(piece, 0..40).prop_map(|parts| parts.concat())
}

proptest! {
    #[test]
    fn no_foreign_markdown_comes_out_running(markdown in hostile_markdown()) {
        let safe = foreign(&markdown);
        prop_assert_eq!(dangers(&safe), Vec::<String>::new(), "{:?} -> {:?}", markdown, safe);
        // What the page is written from: push_html writes raw HTML only for HTML events,
        // and an `href` or `src` only for links and images.
        let clean = sanitize::for_terminal(&markdown);
        for event in safe_events(&clean) {
            let running = matches!(
                &event,
                Event::Html(_) | Event::InlineHtml(_) | Event::Start(Tag::Image { .. })
            ) || matches!(&event, Event::Start(Tag::Link { dest_url, .. }) if web_url(dest_url).is_none());
            prop_assert!(!running, "{:?} from {:?}", event, markdown);
        }
    }

    #[test]
    fn no_value_comes_out_as_markup(value in hostile_markdown()) {
        let written = text(&value);
        prop_assert_eq!(dangers(&written), Vec::<String>::new());
        prop_assert!(!written.contains('\n'));
    }
}
