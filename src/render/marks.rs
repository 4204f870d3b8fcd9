//! html2text's decorator for this app: what each kind of text is marked with, and the
//! prefixes of headings, quotes and list items, for the view and for Markdown.
//!
//! html2text gives headings, link numbers and rules no annotation of their own, so the
//! converter colours them through CSS with reserved colours that this decorator turns back
//! into marks ([`USER_CSS`]).

use html2text::Colour;
use html2text::render::TextDecorator;

/// What a piece of rendered text is; outer marks come first on each piece.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) enum Mark {
    #[default]
    Plain,
    Link(String),
    Emphasis,
    Strong,
    Strike,
    Code,
    /// A line of a preformatted block.
    Pre,
    Image,
    Heading(u8),
    /// The `[n]` after a link.
    LinkNumber,
    /// The stand-in for an `<hr>`, drawn across the width.
    Rule,
}

/// Class of the element that stands in for an `<hr>`.
pub(crate) const RULE_CLASS: &str = "vantage-rule";
/// Class of the element holding a link's number.
pub(crate) const LINK_NUMBER_CLASS: &str = "vantage-link-number";

/// Reserved colours (never the page's: `!important` user rules win over page styles).
const HEADING_RED: u8 = 0xA0;
const LINK_NUMBER: Colour = Colour {
    r: 0xA1,
    g: 0x01,
    b: 0x01,
};
const RULE: Colour = Colour {
    r: 0xA1,
    g: 0x01,
    b: 0x02,
};

/// Rules html2text applies on every page: hidden things stay hidden, and the reserved
/// colours of headings, link numbers and rules.
pub(crate) const USER_CSS: &str = "
[hidden], [aria-hidden=\"true\"], .sr-only, .visually-hidden, .cdk-visually-hidden,
.screen-reader-text, .a11y-hidden, .visuallyhidden, .hidden-visually, .assistive-text,
noscript, template, button, input, select, textarea, svg, [popover]
{ display: none !important; }
h1 { color: #a00101 !important; } h2 { color: #a00102 !important; }
h3 { color: #a00103 !important; } h4 { color: #a00104 !important; }
h5 { color: #a00105 !important; } h6 { color: #a00106 !important; }
.vantage-link-number { color: #a10101 !important; }
.vantage-rule { color: #a10102 !important; }
";

/// The decorator; `markdown` picks Markdown's markers and prefixes over the view's.
#[derive(Debug, Clone, Default)]
pub(crate) struct Marks {
    pub markdown: bool,
    /// Targets of the links being written, for Markdown's `](url)`.
    open_links: Vec<String>,
}

impl Marks {
    pub(crate) fn new(markdown: bool) -> Self {
        Marks {
            markdown,
            open_links: Vec::new(),
        }
    }

    fn md(&self, marker: &str) -> String {
        if self.markdown {
            marker.to_owned()
        } else {
            String::new()
        }
    }
}

impl TextDecorator for Marks {
    type Annotation = Mark;

    fn decorate_link_start(&mut self, url: &str) -> (String, Mark) {
        self.open_links.push(url.to_owned());
        (self.md("["), Mark::Link(url.to_owned()))
    }

    fn decorate_link_end(&mut self) -> String {
        let url = self.open_links.pop().unwrap_or_default();
        if self.markdown {
            format!("]({})", markdown_url(&url))
        } else {
            String::new()
        }
    }

    fn decorate_em_start(&self) -> (String, Mark) {
        (self.md("*"), Mark::Emphasis)
    }

    fn decorate_em_end(&self) -> String {
        self.md("*")
    }

    fn decorate_strong_start(&self) -> (String, Mark) {
        (self.md("**"), Mark::Strong)
    }

    fn decorate_strong_end(&self) -> String {
        self.md("**")
    }

    fn decorate_strikeout_start(&self) -> (String, Mark) {
        (self.md("~~"), Mark::Strike)
    }

    fn decorate_strikeout_end(&self) -> String {
        self.md("~~")
    }

    fn decorate_code_start(&self) -> (String, Mark) {
        (self.md("`"), Mark::Code)
    }

    fn decorate_code_end(&self) -> String {
        self.md("`")
    }

    fn decorate_preformat_first(&self) -> Mark {
        Mark::Pre
    }

    fn decorate_preformat_cont(&self) -> Mark {
        Mark::Pre
    }

    fn decorate_image(&mut self, _src: &str, title: &str) -> (String, Mark) {
        (format!("[image: {title}]"), Mark::Image)
    }

    fn header_prefix(&self, level: usize) -> String {
        if self.markdown {
            format!("{} ", "#".repeat(level.clamp(1, 6)))
        } else {
            String::new()
        }
    }

    // Prefixes are ASCII: html2text measures them in bytes in some places and in columns
    // in others.
    fn quote_prefix(&self) -> String {
        "> ".to_owned()
    }

    fn unordered_item_prefix(&self) -> String {
        "- ".to_owned()
    }

    fn ordered_item_prefix(&self, i: i64) -> String {
        format!("{i}. ")
    }

    fn make_subblock_decorator(&self) -> Self {
        Marks::new(self.markdown)
    }

    fn push_colour(&mut self, colour: Colour) -> Option<Mark> {
        Some(match colour {
            LINK_NUMBER => Mark::LinkNumber,
            RULE => Mark::Rule,
            Colour {
                r: HEADING_RED,
                g: 0x01,
                b: level @ 1..=6,
            } => Mark::Heading(level),
            // The page's own colours are not shown.
            _ => Mark::Plain,
        })
    }

    fn pop_colour(&mut self) -> bool {
        true
    }

    fn decorate_superscript_start(&self) -> (String, Mark) {
        (String::new(), Mark::Plain)
    }

    fn decorate_superscript_end(&self) -> String {
        String::new()
    }

    fn finalise(&mut self, _urls: Vec<String>) -> Vec<html2text::render::TaggedLine<Mark>> {
        Vec::new()
    }
}

/// A URL as Markdown's `(…)` takes it.
fn markdown_url(url: &str) -> String {
    url.replace(' ', "%20")
        .replace('(', "%28")
        .replace(')', "%29")
}
