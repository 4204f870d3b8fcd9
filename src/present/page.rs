//! A page fetched from a vantage point, made ready to show: Markdown as text, HTML through the
//! render path with its links numbered; and the word diff of the same page seen from two
//! vantage points. Pure and possibly slow: run it off the UI task.

use std::time::Duration;

use similar::{ChangeTag, TextDiff};

use crate::api::{BrowserFormat, BrowserRequest, Fetched};
use crate::render::{self, Link, RenderOptions};

use super::text::TextBody;

/// One page as a vantage point saw it.
#[derive(Debug)]
pub struct PreparedPage {
    pub request: BrowserRequest,
    pub text: TextBody,
    pub links: Vec<Link>,
    /// The page's words as plain text, for the diff.
    pub plain: String,
    pub status: u16,
    pub elapsed: Duration,
    pub bytes: usize,
}

impl PreparedPage {
    /// Where it was seen from, for tabs and the diff's header.
    pub fn vantage(&self) -> String {
        vantage_label(&self.request)
    }
}

/// A request's vantage point in a few words: the country (or "any"), then the city or the
/// subdivision, then the device when one is named.
pub fn vantage_label(request: &BrowserRequest) -> String {
    let location = &request.location;
    let mut label = location
        .country
        .as_deref()
        .map_or_else(|| "any".to_string(), str::to_ascii_uppercase);
    if let Some(place) = location.city.as_ref().or(location.subdivision.as_ref()) {
        label.push('/');
        label.push_str(place);
    }
    if let Some(device) = &request.device {
        label.push_str(" · ");
        label.push_str(device);
    }
    label
}

/// Markdown stays text; HTML (rendered or raw) is laid out with its links numbered.
pub fn prepare(request: BrowserRequest, fetched: Fetched<String>) -> PreparedPage {
    let (text, links, plain) = match request.format {
        BrowserFormat::Markdown => (
            TextBody::raw(&fetched.value),
            markdown_links(&fetched.value),
            fetched.value.clone(),
        ),
        BrowserFormat::Rendered | BrowserFormat::Raw => {
            let doc = render::html_to_document(
                &fetched.value,
                &RenderOptions {
                    number_links: true,
                    ..RenderOptions::default()
                },
            );
            // The diff reads the words without the link numbers, which differ by position; a
            // page shown as plain text has none, and is not read twice.
            let plain = match doc.notice() {
                Some(_) => doc.plain_text(),
                None => {
                    render::html_to_document(&fetched.value, &RenderOptions::default()).plain_text()
                }
            };
            let links = doc.links().to_vec();
            (TextBody::document(doc), links, plain)
        }
    };
    PreparedPage {
        request,
        text,
        links,
        plain,
        status: fetched.status,
        elapsed: fetched.elapsed,
        bytes: fetched.body.len(),
    }
}

/// The inline links of Markdown, `[text](url)`, in order.
fn markdown_links(markdown: &str) -> Vec<Link> {
    let mut links = Vec::new();
    let mut rest = markdown;
    while let Some(middle) = rest.find("](") {
        let before = &rest[..middle];
        let after = &rest[middle + 2..];
        let Some(end) = after.find(')') else {
            break;
        };
        if let Some(start) = before.rfind('[') {
            let url = after[..end].split_whitespace().next().unwrap_or_default();
            if !url.is_empty() {
                links.push(Link {
                    url: url.to_string(),
                    text: before[start + 1..].trim().to_string(),
                });
            }
        }
        rest = &after[end + 1..];
    }
    links
}

/// The word diff of one page seen from two vantage points.
#[derive(Debug)]
pub struct PageDiff {
    pub left: String,
    pub right: String,
    pub removed: usize,
    pub added: usize,
    /// The merged text, words only on the left as `[-…-]`, only on the right as `{+…+}`
    /// (readable without colour), styled through the render path.
    pub text: TextBody,
}

/// One side of a diff: where the page was seen from, and its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffSide {
    pub label: String,
    pub plain: String,
}

impl From<&PreparedPage> for DiffSide {
    fn from(page: &PreparedPage) -> DiffSide {
        DiffSide {
            label: page.vantage(),
            plain: page.plain.clone(),
        }
    }
}

/// Diffs two pages word by word (the `similar` crate), keeping the lines of the text.
pub fn diff(left: &DiffSide, right: &DiffSide) -> PageDiff {
    let diff = TextDiff::configure()
        .timeout(Duration::from_secs(2))
        .diff_words(left.plain.as_str(), right.plain.as_str());
    let (mut removed, mut added) = (0, 0);
    let mut html = String::from("<p>");
    // A run of changes shows as one `[-…-]{+…+}` pair, not a pair per word.
    let (mut gone, mut new) = (String::new(), String::new());
    let flush = |html: &mut String, gone: &mut String, new: &mut String| {
        if gone.trim().is_empty() && new.trim().is_empty() {
            // Only whitespace changed: one space (or line break) stands for it.
            if !(gone.is_empty() && new.is_empty()) {
                html.push_str(if gone.contains('\n') || new.contains('\n') {
                    "<br>"
                } else {
                    " "
                });
            }
            gone.clear();
            new.clear();
            return;
        }
        let starts_apart = [&*gone, &*new]
            .iter()
            .any(|t| t.starts_with(char::is_whitespace));
        let trailing: String = [&*gone, &*new]
            .iter()
            .map(|t| &t[t.trim_end().len()..])
            .max_by_key(|t| t.len())
            .unwrap_or_default()
            .to_string();
        if starts_apart {
            html.push(' ');
        }
        if !gone.trim().is_empty() {
            html.push_str(&format!("<del>[-{}-]</del>", escape(gone.trim())));
        }
        if !new.trim().is_empty() {
            html.push_str(&format!("<strong>{{+{}+}}</strong>", escape(new.trim())));
        }
        if trailing.contains('\n') {
            html.push_str("<br>");
        } else if !trailing.is_empty() {
            html.push(' ');
        }
        gone.clear();
        new.clear();
    };
    for change in diff.iter_all_changes() {
        let value = change.value();
        let is_word = !value.trim().is_empty();
        match change.tag() {
            ChangeTag::Delete => {
                removed += usize::from(is_word);
                gone.push_str(value);
            }
            ChangeTag::Insert => {
                added += usize::from(is_word);
                new.push_str(value);
            }
            // Whitespace between two changed words stays inside the run.
            ChangeTag::Equal
                if !(is_word || value.contains('\n') || gone.is_empty() && new.is_empty()) =>
            {
                gone.push_str(value);
                new.push_str(value);
            }
            ChangeTag::Equal => {
                flush(&mut html, &mut gone, &mut new);
                html.push_str(&escape(value).replace('\n', "<br>"));
            }
        }
    }
    flush(&mut html, &mut gone, &mut new);
    html.push_str("</p>");
    PageDiff {
        left: left.label.clone(),
        right: right.label.clone(),
        removed,
        added,
        text: TextBody::document(render::html_to_document(&html, &RenderOptions::default())),
    }
}

fn escape(text: &str) -> String {
    html_escape::encode_text(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Location;

    fn page(country: &str, html: &str) -> PreparedPage {
        let mut request = BrowserRequest::new("https://shop.example.net/boots");
        request.location = Location {
            country: Some(country.to_string()),
            ..Location::default()
        };
        prepare(
            request,
            Fetched {
                value: html.to_string(),
                body: html.to_string(),
                status: 200,
                content_type: "text/html".to_string(),
                elapsed: Duration::from_millis(5),
            },
        )
    }

    #[test]
    fn the_diff_marks_words_seen_from_one_side_only() {
        let us = page(
            "us",
            "<h1>Boots</h1><p>Price: $120 <a href=\"/buy\">Buy now</a></p>",
        );
        let de = page(
            "de",
            "<h1>Boots</h1><p>Preis: 110 € <a href=\"/buy\">Jetzt kaufen</a></p>",
        );
        let diff = diff(&DiffSide::from(&us), &DiffSide::from(&de));
        assert_eq!((diff.left.as_str(), diff.right.as_str()), ("US", "DE"));
        let text = diff
            .text
            .as_document()
            .map(|d| d.plain_text())
            .unwrap_or_default();
        assert!(text.contains("Boots"), "{text}");
        // One run of changes, one pair of marks.
        assert!(
            text.contains("[-Price: $120 Buy now-]{+Preis: 110 € Jetzt kaufen+}"),
            "{text}"
        );
        assert!(diff.removed >= 3 && diff.added >= 4, "{diff:?}");
        assert!(!text.contains("[-Boots-]"), "{text}");
    }

    #[test]
    fn markdown_stays_text_and_html_numbers_its_links() {
        let mut request = BrowserRequest::new("https://example.com");
        request.format = BrowserFormat::Markdown;
        let markdown = "# Example Domain\n\n[More information...](https://www.iana.org/help/example-domains)\n";
        let prepared = prepare(
            request,
            Fetched {
                value: markdown.to_string(),
                body: markdown.to_string(),
                status: 200,
                content_type: "text/markdown".to_string(),
                elapsed: Duration::ZERO,
            },
        );
        assert!(prepared.text.as_document().is_none());
        assert_eq!(prepared.plain, markdown);
        assert_eq!(prepared.links.len(), 1);
        assert_eq!(prepared.links[0].text, "More information...");
        assert_eq!(
            prepared.links[0].url,
            "https://www.iana.org/help/example-domains"
        );
        let html = page("us", "<p><a href=\"https://iana.org/\">More</a></p>");
        assert_eq!(html.links.len(), 1);
        assert_eq!(html.vantage(), "US");
    }
}
