//! The walk over an answer's parsed HTML that writes its text block by block and notes
//! its lists, items, tables, headings and rules as it goes.

use std::ops::Range;

use ego_tree::NodeId;
use ego_tree::iter::Edge;
use scraper::{Html, Node};

use super::super::stance::{self, Stance};
use super::sections::bounded;
use super::subject::{is_number, lead_subject, leading_number, plain_subject, strip_number};
use super::{Item, ItemKind, Outline};

/// Bold or linked runs of words, and link hosts, noted at most: what suggests names is
/// bounded whatever the answer.
const MAX_EMPHASIS: usize = 2_000;

/// A link's host in lower case, without `www.`.
fn host_of(href: &str) -> Option<String> {
    let url = url::Url::parse(href).ok()?;
    let host = url.host_str()?.to_lowercase();
    Some(host.trim_start_matches("www.").to_string())
}

/// Elements read past: not the answer's words (controls, icons, citation markers).
const SKIPPED: &[&str] = &[
    "script",
    "style",
    "template",
    "noscript",
    "button",
    "svg",
    "img",
    "picture",
    "video",
    "audio",
    "canvas",
    "iframe",
    "object",
    "math",
    "input",
    "select",
    "textarea",
    "sup",
    "source-footnote",
    "sources-carousel-inline",
    "mat-icon",
];

/// Elements that begin and end a block of text.
const BLOCKS: &[&str] = &[
    "p",
    "div",
    "section",
    "article",
    "blockquote",
    "dl",
    "dt",
    "dd",
    "pre",
    "figure",
    "figcaption",
    "header",
    "footer",
    "main",
    "aside",
    "nav",
    "details",
    "summary",
    "caption",
    "address",
    "center",
    "form",
    "fieldset",
];

/// A heading as read: its level (7 for a paragraph led by a bold number, "**1. Cursor**"),
/// its text's bytes and its own number.
pub(super) struct Heading {
    pub(super) level: u8,
    pub(super) range: Range<usize>,
    pub(super) number: Option<usize>,
}

struct OpenList {
    id: usize,
    next_rank: usize,
}

struct OpenItem {
    node: NodeId,
    list: usize,
    rank: usize,
    start: usize,
    /// The bold element the item opens with, while it is open, and its bytes once read.
    bold: Option<NodeId>,
    bold_start: Option<usize>,
    bold_end: Option<usize>,
    /// A letter was written: a bold element opened later is not the item's lead.
    had_words: bool,
    /// Without a bold lead, the first bold element of the item ("The **Niche Zero** is a
    /// favourite"), while open, and its bytes once read.
    inner_bold: Option<NodeId>,
    inner_start: Option<usize>,
    inner_end: Option<usize>,
}

struct OpenTable {
    id: usize,
    in_head: bool,
    rows: usize,
    /// The column whose header says it holds the brand ("Brand", "Maker"), if one does.
    brand_column: Option<usize>,
}

/// Headers of a table's column of brands: its rows are about the brand in it, not the
/// product in the first cell.
const BRAND_COLUMNS: &[&str] = &[
    "brand",
    "maker",
    "manufacturer",
    "company",
    "vendor",
    "provider",
    "marke",
    "hersteller",
    "marque",
    "marca",
];

struct OpenRow {
    cells: Vec<Range<usize>>,
    /// In the table's head, or made of header cells only.
    in_head: bool,
    all_header_cells: bool,
    start: usize,
}

#[derive(Default)]
pub(super) struct Walker {
    pub(super) text: String,
    pending_space: bool,
    /// Open elements whose white space is kept (`pre`, a `whitespace-pre-wrap` span).
    keep_space: Vec<NodeId>,
    skip: Option<NodeId>,
    hidden_label: Option<&'static str>,
    pub(super) headings: Vec<Heading>,
    open_heading: Option<(NodeId, u8, usize)>,
    /// A paragraph that opens with a bold element, while it is open: a bold number makes it
    /// a heading.
    open_paragraph: Option<(NodeId, usize)>,
    paragraph_bold: Option<(NodeId, usize, Option<usize>)>,
    pub(super) rules: Vec<usize>,
    lists: Vec<OpenList>,
    items: Vec<OpenItem>,
    tables: Vec<OpenTable>,
    rows: Vec<OpenRow>,
    pub(super) next_list: usize,
    /// Bold and linked words, as written (bounded), and the hosts of the links.
    emphasis: Vec<Range<usize>>,
    open_emphasis: Vec<(NodeId, usize)>,
    linked_hosts: Vec<String>,
    /// Contexts of the lists, by id; filled when the question is known.
    list_contexts: Vec<String>,
    pub(super) done: Vec<Item>,
}

impl Walker {
    pub(super) fn new(hidden_label: Option<&'static str>) -> Walker {
        Walker {
            hidden_label,
            ..Walker::default()
        }
    }

    pub(super) fn walk(&mut self, document: &Html) {
        for edge in document.root_element().traverse() {
            match edge {
                Edge::Open(node) => {
                    if self.skip.is_some() {
                        continue;
                    }
                    match node.value() {
                        Node::Text(text) => self.push_text(text),
                        Node::Element(element) => {
                            let name = element.name();
                            if self.skipped(name, element) {
                                self.skip = Some(node.id());
                                continue;
                            }
                            self.open(node.id(), name, element);
                        }
                        _ => {}
                    }
                }
                Edge::Close(node) => {
                    if self.skip == Some(node.id()) {
                        self.skip = None;
                        continue;
                    }
                    if self.skip.is_some() {
                        continue;
                    }
                    if let Node::Element(element) = node.value() {
                        self.close(node.id(), element.name());
                    }
                }
            }
        }
        self.block();
    }

    fn skipped(&mut self, name: &str, element: &scraper::node::Element) -> bool {
        if name == "a"
            && let Some(host) = element.attr("href").and_then(host_of)
            && self.linked_hosts.len() < MAX_EMPHASIS
            && !self.linked_hosts.contains(&host)
        {
            self.linked_hosts.push(host);
        }
        if self.hidden_label == Some(name) {
            self.hidden_label = None;
            return true;
        }
        if SKIPPED.contains(&name) || crate::markup::hides(element.attrs()) {
            return true;
        }
        // Citation pills and chips: the sources' labels, not words of the answer.
        element
            .attr("data-testid")
            .is_some_and(|id| id.contains("citation"))
            || (name == "a"
                && element.has_class("citation", scraper::CaseSensitivity::AsciiCaseInsensitive))
    }

    fn open(&mut self, id: NodeId, name: &str, element: &scraper::node::Element) {
        let keeps_space = name == "pre"
            || element
                .attr("class")
                .is_some_and(|c| c.contains("whitespace-pre"));
        if keeps_space {
            self.keep_space.push(id);
        }
        if matches!(name, "b" | "strong" | "a")
            && self.emphasis.len() + self.open_emphasis.len() < MAX_EMPHASIS
        {
            self.open_emphasis.push((id, self.text.len()));
        }
        match name {
            "br" => {
                self.trim_end();
                self.text.push('\n');
                self.pending_space = false;
            }
            "hr" => {
                self.block();
                self.rules.push(self.text.len());
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                self.block();
                let level = name.as_bytes()[1] - b'0';
                self.open_heading = Some((id, level, self.text.len()));
            }
            "ul" | "ol" | "menu" => {
                self.block();
                let start = element
                    .attr("start")
                    .and_then(|s| s.trim().parse::<usize>().ok())
                    .filter(|&s| name == "ol" && s < 1_000_000)
                    .unwrap_or(1);
                let id = self.new_list();
                self.lists.push(OpenList {
                    id,
                    next_rank: start,
                });
            }
            "li" => {
                self.block();
                let (list, rank) = match self.lists.last_mut() {
                    Some(list) => {
                        list.next_rank += 1;
                        (list.id, list.next_rank - 1)
                    }
                    None => (self.new_list(), 1),
                };
                self.items.push(OpenItem {
                    node: id,
                    list,
                    rank,
                    start: self.text.len(),
                    bold: None,
                    bold_start: None,
                    bold_end: None,
                    had_words: false,
                    inner_bold: None,
                    inner_start: None,
                    inner_end: None,
                });
            }
            "b" | "strong" => {
                if let Some(item) = self.items.last_mut()
                    && !item.had_words
                    && item.bold.is_none()
                    && item.bold_end.is_none()
                {
                    item.bold = Some(id);
                } else if let Some(item) = self.items.last_mut()
                    && item.had_words
                    && item.bold_end.is_none()
                    && item.inner_bold.is_none()
                    && item.inner_end.is_none()
                {
                    item.inner_bold = Some(id);
                }
                if let Some((_, start)) = self.open_paragraph
                    && self.items.is_empty()
                    && self.paragraph_bold.is_none()
                    && self.text.len() == start
                {
                    self.paragraph_bold = Some((id, start, None));
                }
            }
            "table" => {
                self.block();
                let id = self.new_list();
                self.tables.push(OpenTable {
                    id,
                    in_head: false,
                    rows: 0,
                    brand_column: None,
                });
            }
            "thead" => {
                if let Some(table) = self.tables.last_mut() {
                    table.in_head = true;
                }
            }
            "tbody" | "tfoot" => {
                if let Some(table) = self.tables.last_mut() {
                    table.in_head = false;
                }
            }
            "tr" => {
                self.block();
                let in_head = self.tables.last().is_some_and(|t| t.in_head);
                self.rows.push(OpenRow {
                    cells: Vec::new(),
                    in_head,
                    all_header_cells: true,
                    start: self.text.len(),
                });
            }
            "td" | "th" => {
                let Some(row) = self.rows.last_mut() else {
                    return;
                };
                if !row.cells.is_empty() {
                    self.text.truncate(self.text.trim_end_matches(' ').len());
                    self.text.push_str(" | ");
                    self.pending_space = false;
                }
                row.all_header_cells &= name == "th";
                let start = self.text.len();
                row.cells.push(start..start);
            }
            "p" => {
                self.block();
                self.open_paragraph = Some((id, self.text.len()));
                self.paragraph_bold = None;
            }
            _ if BLOCKS.contains(&name) || name.contains('-') => self.block(),
            _ => {}
        }
    }

    fn close(&mut self, id: NodeId, name: &str) {
        if self.keep_space.last() == Some(&id) {
            self.keep_space.pop();
        }
        if self
            .open_emphasis
            .last()
            .is_some_and(|(open, _)| *open == id)
            && let Some((_, start)) = self.open_emphasis.pop()
        {
            // Where its first word was written, to the end of its last.
            let start = start
                + self.text[start.min(self.text.len())..]
                    .len()
                    .saturating_sub(self.text[start.min(self.text.len())..].trim_start().len());
            let end = self.end();
            if start < end {
                self.emphasis.push(start..end);
            }
        }
        match name {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                if let Some((open, level, start)) = self.open_heading.take()
                    && open == id
                {
                    let end = self.end();
                    let number = leading_number(&self.text[start..end.max(start)]);
                    self.headings.push(Heading {
                        level,
                        range: start..end.max(start),
                        number,
                    });
                }
                self.block();
            }
            "b" | "strong" => {
                let end = self.end();
                if let Some(item) = self.items.last_mut()
                    && item.inner_bold == Some(id)
                {
                    item.inner_bold = None;
                    item.inner_end = item.inner_start.map(|_| end);
                }
                if let Some(item) = self.items.last_mut()
                    && item.bold == Some(id)
                {
                    item.bold = None;
                    item.bold_end = Some(end);
                    if item.bold_start.is_none() {
                        // An empty bold element leads nothing.
                        item.bold_end = None;
                    }
                }
                if let Some((bold, start, None)) = self.paragraph_bold
                    && bold == id
                {
                    self.paragraph_bold = Some((bold, start, Some(end)));
                }
            }
            "p" => {
                if let Some((open, start)) = self.open_paragraph.take()
                    && open == id
                    && let Some((_, bold_start, Some(bold_end))) = self.paragraph_bold.take()
                    && bold_start == start
                    && let Some(number) =
                        self.text.get(bold_start..bold_end).and_then(leading_number)
                {
                    // "**1. Cursor** — …": a heading of its own, the lowest level.
                    self.headings.push(Heading {
                        level: 7,
                        range: bold_start..bold_end,
                        number: Some(number),
                    });
                }
                self.block();
            }
            "li" => {
                self.block();
                if self.items.last().is_some_and(|item| item.node == id) {
                    self.close_item();
                }
            }
            "ul" | "ol" | "menu" => {
                self.block();
                self.lists.pop();
            }
            "td" | "th" => {
                let end = self.end();
                if let Some(cell) = self.rows.last_mut().and_then(|row| row.cells.last_mut()) {
                    cell.end = end.max(cell.start);
                }
            }
            "tr" => {
                self.block();
                self.close_row();
            }
            "table" => {
                self.block();
                self.tables.pop();
            }
            _ if BLOCKS.contains(&name) || name.contains('-') => self.block(),
            _ => {}
        }
    }

    fn new_list(&mut self) -> usize {
        let id = self.next_list;
        self.next_list += 1;
        // The list's heading and lead-in: the last heading before it and its line before.
        let heading = self
            .headings
            .last()
            .map(|h| bounded(&self.text[h.range.clone()]).to_string())
            .unwrap_or_default();
        let before = self.text.trim_end();
        let lead_in = bounded(before.rsplit('\n').next().unwrap_or_default());
        self.list_contexts.push(format!("{heading}\n{lead_in}"));
        id
    }

    /// Writes a text node: runs of white space become one space (kept as written inside
    /// `pre` and `whitespace-pre` elements, where a line break stays one), word by word.
    fn push_text(&mut self, text: &str) {
        let keep = !self.keep_space.is_empty();
        let mut rest = text;
        while !rest.is_empty() {
            let space = rest.len() - rest.trim_start().len();
            if space > 0 {
                let gap = &rest[..space];
                if keep && gap.contains('\n') {
                    for _ in gap.matches('\n') {
                        self.trim_end();
                        self.text.push('\n');
                    }
                    self.pending_space = false;
                } else {
                    self.pending_space = true;
                }
                rest = &rest[space..];
                continue;
            }
            let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let word = rest[..word_end].trim_matches('\r');
            rest = &rest[word_end..];
            if word.is_empty() {
                continue;
            }
            if self.pending_space && !self.text.is_empty() && !self.text.ends_with([' ', '\n']) {
                self.text.push(' ');
            }
            self.pending_space = false;
            if let Some(item) = self.items.last_mut() {
                if item.bold.is_some() && item.bold_start.is_none() {
                    item.bold_start = Some(self.text.len());
                }
                if item.inner_bold.is_some() && item.inner_start.is_none() {
                    item.inner_start = Some(self.text.len());
                }
                if item.bold.is_none() && word.chars().any(char::is_alphabetic) {
                    item.had_words = true;
                }
            }
            self.text.push_str(word);
        }
    }

    fn trim_end(&mut self) {
        self.text.truncate(self.text.trim_end_matches(' ').len());
    }

    /// The end of the text written so far, trailing spaces left out.
    fn end(&self) -> usize {
        self.text.trim_end().len()
    }

    /// Ends the block being written: the next text starts a line.
    fn block(&mut self) {
        self.trim_end();
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        self.pending_space = false;
    }

    fn close_item(&mut self) {
        let Some(item) = self.items.pop() else {
            return;
        };
        let end = self.end().max(item.start);
        let first_line_end = self.text[item.start..end]
            .find('\n')
            .map_or(end, |at| item.start + at);
        let subject = match (
            item.bold_start,
            item.bold_end,
            item.inner_start,
            item.inner_end,
        ) {
            (Some(start), Some(bold_end), _, _) if bold_end > start => {
                lead_subject(&self.text, start, bold_end, end)
            }
            // The name the item's first line sets in bold.
            (_, _, Some(start), Some(inner_end))
                if start < inner_end && inner_end <= first_line_end =>
            {
                strip_number(&self.text, start..inner_end)
            }
            _ => plain_subject(&self.text, item.start, end),
        };
        self.done.push(Item {
            kind: ItemKind::ListItem,
            list: item.list,
            rank: item.rank,
            subject,
            span: item.start..end,
            context: None,
        });
    }

    fn close_row(&mut self) {
        let Some(row) = self.rows.pop() else {
            return;
        };
        let end = self.end().max(row.start);
        let Some(table) = self.tables.last_mut() else {
            return;
        };
        if row.in_head || row.all_header_cells || row.cells.is_empty() {
            if table.brand_column.is_none() {
                table.brand_column = row.cells.iter().position(|cell| {
                    let header = self.text[cell.clone()].trim().to_lowercase();
                    BRAND_COLUMNS.contains(&header.as_str())
                });
            }
            return;
        }
        table.rows += 1;
        // A first cell that is a number is the row's rank ("1 | Cursor | …").
        let first = &self.text[row.cells[0].clone()];
        let number = leading_number(first).filter(|_| is_number(first));
        let brand_cell = table
            .brand_column
            .and_then(|column| row.cells.get(column))
            .filter(|cell| !self.text[(*cell).clone()].trim().is_empty());
        let subject = brand_cell
            .or_else(|| {
                row.cells
                    .iter()
                    .find(|cell| !is_number(&self.text[(*cell).clone()]))
            })
            .cloned()
            .unwrap_or(row.start..row.start);
        self.done.push(Item {
            kind: ItemKind::Row,
            list: table.id,
            rank: number.unwrap_or(table.rows),
            subject,
            span: row.start..end,
            context: None,
        });
    }

    /// The sections of runs of headings, the contexts of every list, the items in order.
    pub(super) fn finish(mut self, question: &str) -> Outline {
        let contexts: Vec<Option<Stance>> = self
            .list_contexts
            .iter()
            .map(|context| stance::list_context(context, question))
            .collect();
        for item in &mut self.done {
            item.context = contexts.get(item.list).copied().flatten();
        }
        self.sections(question);
        // Trailing white space goes; no range may point past the text.
        let end = self.end();
        self.text.truncate(end);
        let clamp = |range: &mut Range<usize>| {
            range.end = range.end.min(end);
            range.start = range.start.min(range.end);
        };
        let mut items = self.done;
        for item in &mut items {
            clamp(&mut item.span);
            clamp(&mut item.subject);
        }
        for range in &mut self.emphasis {
            clamp(range);
        }
        items.sort_by(|a, b| {
            a.span
                .start
                .cmp(&b.span.start)
                .then(b.span.end.cmp(&a.span.end))
        });
        Outline::with_parents(self.text, items, self.emphasis, self.linked_hosts)
    }
}
