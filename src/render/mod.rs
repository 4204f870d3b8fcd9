//! HTML to styled, wrappable text, and the links it holds. Pure functions.
//!
//! html2text (with its CSS support) does the conversion: html5ever parses the page, a pass
//! over the DOM adds what html2text does not do (see [`dom`]), html2text builds its render
//! tree, and the [`Document`] keeps that tree so a new width only re-runs the layout.
//! Elements hidden by markup (`hidden`, `aria-hidden="true"`, screen-reader-only classes,
//! inline or page `display:none`) are dropped by html2text's CSS: that is how the chatbots'
//! localized "… said:" labels go, without matching any text.
//!
//! Some pages cost html5ever and html2text far more than their size; [`crate::html_cost`]
//! spots them in one linear pass and such a page is shown as plain text with a notice. Another
//! linear pass ([`slim`]) leaves out what the parser would read for nothing: the contents
//! of scripts, and of style sheets all but their hiding rules.

mod cards;
mod dom;
mod json;
mod links;
mod marks;
mod plain;
mod slim;
mod text;
mod wrap;

use std::sync::OnceLock;

use html2text::RenderTree;
use html2text::config::{Config, ImageRenderMode};

pub use cards::Card;
pub use json::pretty_json;
pub use wrap::{WrappedCache, prose};

use marks::{Marks, USER_CSS};

/// How to convert.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RenderOptions {
    /// Tag of the model's visually hidden label to drop wherever it appears first (Copilot
    /// labels its answer with an `<h6>`); `None` = nothing extra. Elements hidden by markup
    /// are always dropped.
    pub drop_first: Option<&'static str>,
    /// Append `" [n]"` after each link's text, n = 1-based index into [`Document::links`].
    pub number_links: bool,
    /// Read each link as a source card too ([`Document::cards`]): an answer's citations.
    /// Off, a page's links are only links, and `cards` is empty.
    pub cards: bool,
}

/// A link found in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub url: String,
    /// Trimmed link text; the URL's host for icon-only links.
    pub text: String,
}

/// What a document shows.
#[derive(Debug, Clone, Default)]
enum Body {
    #[default]
    Empty,
    /// html2text's render tree, laid out again for each width (boxed: it is large).
    Tree(Box<RenderTree>),
    /// Text without markup (the fallback for pages too costly to lay out).
    Plain(String),
}

/// The result of one conversion: kept parsed, cheap to wrap at any width.
#[derive(Debug, Clone, Default)]
pub struct Document {
    body: Body,
    links: Vec<Link>,
    /// Each link read as a source card, in the order of `links` (when asked for).
    cards: Vec<Card>,
    notice: Option<String>,
    /// The unwrapped text, made on first use.
    plain: OnceLock<String>,
    /// Elements in the page: the layout's width is kept so that elements × width stays
    /// within [`wrap::LAYOUT_BUDGET`].
    elements: usize,
}

impl Document {
    /// Links in document order, deduplicated by URL.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// The links read as source cards (title, site, snippet apart), in the same order; empty
    /// unless [`RenderOptions::cards`] asked for them.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// True if there is nothing to show.
    pub fn is_empty(&self) -> bool {
        match &self.body {
            Body::Empty => true,
            Body::Plain(text) => text.trim().is_empty(),
            Body::Tree(_) => self.plain_text().trim().is_empty(),
        }
    }

    /// Why the page is shown as plain text instead of laid out, if it is.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// The notice leads the text, so every view and export says why it looks plain.
    fn fallback(html: &str, notice: String, cards: bool) -> Document {
        let (links, cards) = plain::scan_links(html, cards);
        Document {
            body: Body::Plain(format!("{notice}\n\n{}", plain::strip_tags(html))),
            links,
            cards,
            notice: Some(notice),
            plain: OnceLock::new(),
            elements: 0,
        }
    }
}

/// html2text set up for this app: hidden things hidden, the page's own rules applied,
/// images without a text left out.
fn config(markdown: bool) -> Config<Marks> {
    // The rules are ours and parse; should they not, the page's own rules still apply.
    let base = html2text::config::with_decorator(Marks::new(markdown))
        .add_css(USER_CSS)
        .unwrap_or_else(|_| html2text::config::with_decorator(Marks::new(markdown)));
    let base = if markdown { base.fence_tables() } else { base };
    base.use_doc_css()
        .unicode_strikeout(false)
        .empty_img_mode(ImageRenderMode::IgnoreEmpty)
}

/// Zero-width joiner and the emoji and text variation selectors (looked for byte-wise: a
/// page is mostly ASCII, and decoding every character costs more than three SIMD scans).
const JOINERS: [char; 3] = ['\u{200D}', '\u{FE0F}', '\u{FE0E}'];

/// Convert HTML (a whole page or a fragment) into a [`Document`].
pub fn html_to_document(html: &str, options: &RenderOptions) -> Document {
    let measures = match crate::html_cost::check(html) {
        Ok(measures) => measures,
        Err(why) => return Document::fallback(html, why.notice(), options.cards),
    };
    // Emoji sequences (joined by ZWJ, or with a variation selector) measure differently as a
    // string than as the sum of their characters; html2text mixes both measures and
    // miscounts a line's width. Without the joiners and selectors each emoji stands alone.
    let has_joiner = JOINERS.iter().any(|joiner| {
        let mut utf8 = [0; 4];
        memchr::memmem::find(html.as_bytes(), joiner.encode_utf8(&mut utf8).as_bytes()).is_some()
    });
    let html = if has_joiner {
        std::borrow::Cow::Owned(html.replace(JOINERS, ""))
    } else {
        std::borrow::Cow::Borrowed(html)
    };
    let slimmed = slim::slim(&html);
    let Some(dom) = dom::parse(&slimmed) else {
        return Document::fallback(
            &html,
            "Shown as plain text: the HTML could not be parsed.".to_owned(),
            options.cards,
        );
    };
    let (links, cards) = dom::prepare(&dom, options);
    match config(false).dom_to_render_tree(&dom) {
        Ok(tree) => Document {
            body: Body::Tree(Box::new(tree)),
            links,
            cards,
            notice: None,
            plain: OnceLock::new(),
            elements: measures.elements,
        },
        // html2text fails only on an empty document.
        Err(_) => Document {
            links,
            cards,
            ..Document::default()
        },
    }
}

/// Only the links, deduplicated by URL, for HTML fragments like a `sources` section.
pub fn extract_links(html: &str) -> Vec<Link> {
    links_and_cards(html, false).0
}

/// The links of an HTML fragment like a `sources` section read as source cards, deduplicated
/// by URL, in document order.
pub fn extract_cards(html: &str) -> Vec<Card> {
    links_and_cards(html, true).1
}

fn links_and_cards(html: &str, cards: bool) -> (Vec<Link>, Vec<Card>) {
    if crate::html_cost::check(html).is_err() {
        return plain::scan_links(html, cards);
    }
    match dom::parse(html) {
        Some(dom) => dom::links_of(&dom, cards),
        None => plain::scan_links(html, cards),
    }
}

#[cfg(test)]
mod tests;
