//! HTML to styled, wrappable text, and the links it holds. Pure functions.
//!
//! [`html_to_document`] makes one pass over the HTML with a small forgiving tokenizer and
//! builds a width-independent [`Document`]: blocks (paragraphs, headings, list items, rows,
//! code blocks, rules) of styled runs over one shared text buffer. [`Document::wrap`] lays
//! it out for a given width, cheaply enough to redo on every resize.
//!
//! Elements hidden by markup are dropped with their content: the `hidden` attribute,
//! `aria-hidden="true"`, inline `display:none` / `visibility:hidden`, and the usual
//! screen-reader-only classes. That is how the chatbots' localized "… said:" labels go,
//! without matching any text.

mod builder;
mod entities;
mod json;
mod links;
mod text;
mod tokenizer;
mod wrap;

pub use json::pretty_json;
pub use wrap::WrappedCache;

/// How to convert.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RenderOptions {
    /// Tag of the model's visually hidden label to drop wherever it appears first as a
    /// heading-like element (Copilot labels its answer with an `<h6>`); `None` = nothing
    /// extra. Elements hidden by markup are always dropped.
    pub drop_first: Option<&'static str>,
    /// Append `" [n]"` after each link's text, n = 1-based index into [`Document::links`].
    pub number_links: bool,
}

/// A link found in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub url: String,
    /// Trimmed link text; the URL's host for icon-only links.
    pub text: String,
}

/// Run style flags.
pub(crate) mod flag {
    pub const BOLD: u16 = 1;
    pub const ITALIC: u16 = 1 << 1;
    pub const CODE: u16 = 1 << 2;
    pub const LINK: u16 = 1 << 3;
    pub const STRIKE: u16 = 1 << 4;
    pub const UNDERLINE: u16 = 1 << 5;
    /// The " [n]" after a link (not part of the text proper).
    pub const LINKNUM: u16 = 1 << 6;
    /// The " │ " between table cells.
    pub const SEP: u16 = 1 << 7;
    /// "[image: alt]".
    pub const IMAGE: u16 = 1 << 8;
}

/// No link.
pub(crate) const NO_LINK: u32 = u32::MAX;

/// A stretch of text with one style, `text[start..end]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Run {
    pub start: u32,
    pub end: u32,
    pub flags: u16,
    pub link: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BlockKind {
    Para,
    Heading(u8),
    /// Preformatted: verbatim, lines split at '\n'.
    Pre,
    /// Horizontal rule.
    Rule,
    /// A table row; cells are separated by runs flagged [`flag::SEP`].
    Row,
}

/// A byte range into a buffer.
pub(crate) type Span32 = (u32, u32);

#[derive(Debug, Clone, Copy)]
pub(crate) struct Block {
    pub kind: BlockKind,
    /// Range into `Document::runs`.
    pub runs: Span32,
    /// View prefixes (into `Document::prefixes`) of the first and the following lines.
    pub prefix_first: Span32,
    pub prefix_rest: Span32,
    /// Markdown prefixes of the first and the following lines.
    pub md_first: Span32,
    pub md_rest: Span32,
    /// A blank line separates this block from the previous one.
    pub gap: bool,
    /// Inside a blockquote (prefix drawn dim).
    pub quoted: bool,
    /// First row of a table (markdown puts the header rule after it).
    pub table_start: bool,
}

/// Width-independent result of one conversion; cheap to wrap at any width.
#[derive(Debug, Clone, Default)]
pub struct Document {
    pub(crate) text: String,
    pub(crate) runs: Vec<Run>,
    pub(crate) blocks: Vec<Block>,
    pub(crate) prefixes: String,
    pub(crate) links: Vec<Link>,
}

impl Document {
    /// Links in document order, deduplicated by URL.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// True if there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.blocks
            .iter()
            .all(|b| b.kind != BlockKind::Rule && b.runs.0 == b.runs.1)
    }

    pub(crate) fn run_text(&self, r: &Run) -> &str {
        &self.text[r.start as usize..r.end as usize]
    }

    pub(crate) fn block_runs(&self, b: &Block) -> &[Run] {
        &self.runs[b.runs.0 as usize..b.runs.1 as usize]
    }

    pub(crate) fn prefix(&self, s: Span32) -> &str {
        &self.prefixes[s.0 as usize..s.1 as usize]
    }
}

/// Convert HTML (a whole page or a fragment) into a [`Document`].
pub fn html_to_document(html: &str, options: &RenderOptions) -> Document {
    builder::build(html, options)
}

/// Only the links (a cheap pass), deduplicated by URL, for HTML fragments like a `sources`
/// section. Hidden elements are not considered here.
pub fn extract_links(html: &str) -> Vec<Link> {
    builder::extract_links(html)
}

#[cfg(test)]
mod tests;
