//! The Markdown files vantage writes (an answer, a comparison, a set's report) and the HTML
//! page made of one. Values from outside are escaped where they are placed ([`text`]) and
//! linked only to http(s) ([`link`]); Markdown written by others (an answer, as its HTML was
//! rendered) is read and written again through one filter ([`foreign`], [`to_html`]): raw
//! HTML becomes text, an image its alt text, a link to anything but http(s) its text, and a
//! block it opens (a fence, an HTML block) is closed where it ends, so it cannot swallow what
//! follows it in the file.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use pulldown_cmark::{CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};

use super::web_url;
use crate::sanitize;

/// The extensions every Markdown of ours is read and written with.
fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH
}

/// A value (a name, a title, a prompt, a table cell) as Markdown text that reads as itself,
/// on one line: control characters shown, every character Markdown reads as markup
/// anywhere escaped (HTML's `<`, links, emphasis, code, strikethrough, table pipes,
/// entities, headings' `#`), and a block marker (`-`, `+`, `=`, `1.`) at its start too.
pub fn text(value: &str) -> String {
    let line = sanitize::one_line(value);
    let leading_digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let mut out = String::with_capacity(line.len() + 8);
    for (at, c) in line.char_indices() {
        let markup = match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '#' => true,
            '-' | '+' | '=' => at == 0,
            '.' | ')' => at > 0 && at == leading_digits,
            _ => false,
        };
        if markup {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `[label](url)` for an http(s) URL; the label alone, as text, for any other (the URL
/// itself when the label is blank).
pub fn link(label: &str, url: &str) -> String {
    let label = if label.trim().is_empty() { url } else { label };
    match web_url(url) {
        // The URL crate has percent-encoded spaces and angle brackets; parentheses would
        // end the destination.
        Some(url) => format!(
            "[{}]({})",
            text(label),
            url.as_str().replace('(', "%28").replace(')', "%29")
        ),
        None => text(label),
    }
}

/// Text shown as it is, in a block of its own (an indented code block: every line indented,
/// so no line of the text can end the block, and nothing in it is read as Markdown or
/// HTML); control characters shown. A blank line must come before it.
pub fn preformatted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in sanitize::for_terminal(text).lines() {
        out.push_str("    ");
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Characters kept as they are in a file name linked from Markdown.
const FILE_NAME: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_');

/// An image in a file written beside this one (a report's chart), by a relative path that
/// starts `./`, so that no file name can read as a scheme (`javascript:…`).
pub fn local_image(alt: &str, file_name: &str) -> String {
    format!(
        "![{}](./{})",
        text(alt),
        utf8_percent_encode(file_name, FILE_NAME)
    )
}

/// Markdown written by someone else, made safe to place in a file of ours (see the module):
/// headings, lists, emphasis, code, quotes and tables kept.
pub fn foreign(markdown: &str) -> String {
    let layout = pulldown_cmark_to_cmark::Options {
        list_token: '-',
        increment_ordered_list_bullets: true,
        code_block_token_count: 3,
        ..pulldown_cmark_to_cmark::Options::default()
    };
    let markdown = sanitize::for_terminal(markdown);
    let mut out = String::with_capacity(markdown.len() + markdown.len() / 8);
    match pulldown_cmark_to_cmark::cmark_with_options(
        safe_events(&markdown),
        &mut out,
        options(),
        layout,
    ) {
        Ok(_) => out,
        // Should the writer refuse the events, the lines are kept as escaped text.
        Err(_) => markdown
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(text)
            .collect::<Vec<_>>()
            .join("\n\n"),
    }
}

/// Markdown as an HTML fragment for a page vantage writes, read through the same filter as
/// [`foreign`]: tables and strikethrough kept, raw HTML shown as text, images as their alt
/// text (an image would be fetched when the page opens), links only to http(s).
pub fn to_html(markdown: &str) -> String {
    let markdown = sanitize::for_terminal(markdown);
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut out, safe_events(&markdown));
    out
}

/// The events of `markdown` with nothing that could run or fetch: see the module. Its
/// control characters are shown first, by the caller ([`sanitize::for_terminal`]).
fn safe_events(markdown: &str) -> impl Iterator<Item = Event<'_>> {
    // Whether each open link was kept, so that its end is dropped with its start.
    let mut open_links: Vec<bool> = Vec::new();
    // An HTML block's lines become a paragraph's, with a line break between them.
    let mut first_html_line = true;
    // A fence left open at the end of the text is closed only after a line end.
    let mut code_line_open = false;
    Parser::new_ext(markdown, options()).flat_map(move |event| {
        let one = |event| [Some(event), None];
        match event {
            Event::InlineHtml(raw) => one(Event::Text(raw)),
            Event::Html(raw) => {
                let line = match raw {
                    CowStr::Borrowed(b) => CowStr::Borrowed(b.trim_end_matches('\n')),
                    other => CowStr::from(other.trim_end_matches('\n').to_string()),
                };
                let between = (!std::mem::take(&mut first_html_line)).then_some(Event::SoftBreak);
                [between, Some(Event::Text(line))]
            }
            Event::Start(Tag::HtmlBlock) => {
                first_html_line = true;
                one(Event::Start(Tag::Paragraph))
            }
            Event::End(TagEnd::HtmlBlock) => one(Event::End(TagEnd::Paragraph)),
            Event::Start(Tag::Link {
                dest_url, title, ..
            }) => match web_url(&dest_url) {
                Some(url) => {
                    open_links.push(true);
                    one(Event::Start(Tag::Link {
                        // Written inline: a reference's definition is not carried.
                        link_type: LinkType::Inline,
                        dest_url: CowStr::from(url.to_string()),
                        title,
                        id: CowStr::Borrowed(""),
                    }))
                }
                None => {
                    open_links.push(false);
                    [None, None]
                }
            },
            Event::End(TagEnd::Link) => match open_links.pop() {
                Some(true) => one(Event::End(TagEnd::Link)),
                _ => [None, None],
            },
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => [None, None],
            Event::Start(Tag::CodeBlock(kind)) => {
                code_line_open = false;
                one(Event::Start(Tag::CodeBlock(kind)))
            }
            Event::Text(text) => {
                code_line_open = !text.ends_with('\n');
                one(Event::Text(text))
            }
            Event::End(TagEnd::CodeBlock) if std::mem::take(&mut code_line_open) => [
                Some(Event::Text(CowStr::Borrowed("\n"))),
                Some(Event::End(TagEnd::CodeBlock)),
            ],
            other => one(other),
        }
        .into_iter()
        .flatten()
    })
}

#[cfg(test)]
#[path = "markdown_tests.rs"]
mod tests;
