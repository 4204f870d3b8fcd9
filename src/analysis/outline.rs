//! The shape of an answer, read from its HTML: its text block by block, and the items of its
//! lists — list items, numbered (or sibling) headings with what follows them, rows of a
//! table — each with its subject (the bold lead or the label before ":" or "—", the heading,
//! the first cell that is not a number), its number in its list, and what the list's heading,
//! its lead-in or the question says of its items (a list of picks, of things to avoid).
//! Mentions are read in this shape (`super::mentions::read`): a brand's position is the
//! rank of the first item about it, and an item of a list of picks recommends its subject.
//! Pure and bounded: a page past `html_cost`'s bounds is read as prose.

use std::ops::Range;

use ego_tree::NodeId;
use ego_tree::iter::Edge;
use scraper::{Html, Node};

use super::stance::{self, Stance};

/// What an item of a list is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// An `<li>`.
    ListItem,
    /// A heading of a run of numbered (or sibling) headings, with what follows it.
    Section,
    /// A row of a table's body.
    Row,
}

/// One item of one of the answer's lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub kind: ItemKind,
    /// Which list it is in: lists are numbered in the order they open.
    pub list: usize,
    /// Its number in the list: 1 for the first (an ordered list's `start`, a heading's or a
    /// row's own number when it has one).
    pub rank: usize,
    /// Bytes of [`Outline::text`] the item is about: its bold lead, its label, its heading, its
    /// first cell.
    pub subject: Range<usize>,
    /// Bytes of [`Outline::text`] of the whole item (its sub-items, a section's paragraphs).
    pub span: Range<usize>,
    /// What the list's heading, lead-in or the question says of its items.
    pub context: Option<Stance>,
}

/// An answer's text and its items, in document order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    /// The visible text, a line per block; table cells joined by " | ".
    pub text: String,
    /// Sorted by start; an item inside another comes after it.
    pub items: Vec<Item>,
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

/// A subject longer than this many words is cut to them: a sentence is not a subject.
const SUBJECT_WORDS: usize = 8;

/// First words of a bold label that comes before the name it labels ("**Best overall**:
/// Salomon X Ultra").
const LABEL_WORDS: &[&str] = &[
    "best",
    "budget",
    "premium",
    "top",
    "pick",
    "our",
    "overall",
    "runner-up",
    "runner",
    "price",
    "value",
    "upgrade",
    "alternative",
    "winner",
    "editor's",
    "for",
    "most",
    "cheapest",
    "lightest",
];

/// Separators that end an item's subject when it has no bold lead ("Salomon — best for …",
/// "Merrell: roomy", "Lowa Renegade - stiff").
const SUBJECT_ENDS: &[&str] = &[": ", " — ", " – ", " - ", " (", "; ", ", ", ". ", "\n"];

impl Outline {
    /// Text with no structure: every mention in it is prose.
    pub fn prose(text: &str) -> Outline {
        Outline {
            text: text.to_string(),
            items: Vec::new(),
        }
    }

    /// Reads an answer's HTML; `question` is what was asked, `hidden_label` the tag of the
    /// model's unmarked "… said" label, dropped as the renderer drops it. `None` for a page
    /// past `html_cost`'s bounds, which is not parsed (its rendered text is read as prose).
    pub fn read(html: &str, question: &str, hidden_label: Option<&'static str>) -> Option<Outline> {
        crate::html_cost::check(html).ok()?;
        let document = Html::parse_fragment(html);
        Some(Outline::of_document(&document, question, hidden_label))
    }

    /// [`Outline::read`] of a document already parsed.
    pub fn of_document(
        document: &Html,
        question: &str,
        hidden_label: Option<&'static str>,
    ) -> Outline {
        let mut walker = Walker {
            hidden_label,
            ..Walker::default()
        };
        walker.walk(document);
        walker.finish(question)
    }

    /// The innermost item holding byte `at` of the text, by its index in [`Outline::items`].
    pub fn item_at(&self, at: usize) -> Option<usize> {
        let after = self.items.partition_point(|item| item.span.start <= at);
        (0..after).rev().find(|&i| self.items[i].span.contains(&at))
    }

    /// The words of the item's subject.
    pub fn subject_of(&self, item: &Item) -> &str {
        self.text.get(item.subject.clone()).unwrap_or_default()
    }
}

/// A heading as read: its level (7 for a paragraph led by a bold number, "**1. Cursor**"),
/// its text's bytes and its own number.
struct Heading {
    level: u8,
    range: Range<usize>,
    number: Option<usize>,
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
struct Walker {
    text: String,
    pending_space: bool,
    /// Open elements whose white space is kept (`pre`, a `whitespace-pre-wrap` span).
    keep_space: Vec<NodeId>,
    skip: Option<NodeId>,
    hidden_label: Option<&'static str>,
    headings: Vec<Heading>,
    open_heading: Option<(NodeId, u8, usize)>,
    /// A paragraph that opens with a bold element, while it is open: a bold number makes it
    /// a heading.
    open_paragraph: Option<(NodeId, usize)>,
    paragraph_bold: Option<(NodeId, usize, Option<usize>)>,
    rules: Vec<usize>,
    lists: Vec<OpenList>,
    items: Vec<OpenItem>,
    tables: Vec<OpenTable>,
    rows: Vec<OpenRow>,
    next_list: usize,
    /// Contexts of the lists, by id; filled when the question is known.
    list_contexts: Vec<String>,
    done: Vec<Item>,
}

impl Walker {
    fn walk(&mut self, document: &Html) {
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
                    && let Some(number) = leading_number(&self.text[bold_start..bold_end])
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
            .map(|h| self.text[h.range.clone()].to_string())
            .unwrap_or_default();
        let before = self.text.trim_end();
        let lead_in = before.rsplit('\n').next().unwrap_or_default();
        self.list_contexts.push(format!("{heading}\n{lead_in}"));
        id
    }

    fn push_text(&mut self, text: &str) {
        let keep = !self.keep_space.is_empty();
        for c in text.chars() {
            if c == '\r' {
                continue;
            }
            if keep && c == '\n' {
                self.trim_end();
                self.text.push('\n');
                self.pending_space = false;
                continue;
            }
            if c.is_whitespace() {
                self.pending_space = true;
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
                if c.is_alphabetic() && item.bold.is_none() {
                    item.had_words = true;
                }
            }
            self.text.push(c);
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
    fn finish(mut self, question: &str) -> Outline {
        let end = self.end();
        self.text.truncate(end);
        let contexts: Vec<Option<Stance>> = self
            .list_contexts
            .iter()
            .map(|context| stance::list_context(context, question))
            .collect();
        for item in &mut self.done {
            item.context = contexts.get(item.list).copied().flatten();
        }
        self.sections(question);
        let mut items = self.done;
        items.sort_by(|a, b| {
            a.span
                .start
                .cmp(&b.span.start)
                .then(b.span.end.cmp(&a.span.end))
        });
        Outline {
            text: self.text,
            items,
        }
    }

    /// Runs of headings of one level under one parent — numbered ones ("1. Claude Code"), or
    /// two or more unnumbered siblings — are lists whose items are their sections.
    fn sections(&mut self, question: &str) {
        let headings = std::mem::take(&mut self.headings);
        // (parent, level, numbered) of the run each heading is in.
        let mut runs: Vec<Vec<usize>> = Vec::new();
        let mut current: Vec<(Option<usize>, u8, bool, usize)> = Vec::new();
        for (index, heading) in headings.iter().enumerate() {
            let parent = headings[..index]
                .iter()
                .rposition(|h| h.level < heading.level);
            let numbered = heading.number.is_some();
            // A heading of a higher level ends the runs below it.
            current.retain(|(_, level, _, _)| *level <= heading.level);
            let key = (parent, heading.level, numbered);
            match current
                .iter()
                .find(|(p, l, n, _)| (*p, *l, *n) == key)
                .map(|c| c.3)
            {
                Some(run) => runs[run].push(index),
                None => {
                    current.retain(|(_, level, _, _)| *level != heading.level);
                    current.push((parent, heading.level, numbered, runs.len()));
                    runs.push(vec![index]);
                }
            }
        }
        let text_end = self.text.len();
        for run in runs {
            let numbered = headings[run[0]].number.is_some();
            if run.len() < 2 && !numbered {
                continue;
            }
            let first = &headings[run[0]];
            let parent = headings[..run[0]]
                .iter()
                .rposition(|h| h.level < first.level)
                .map(|p| self.text[headings[p].range.clone()].to_string())
                .unwrap_or_default();
            let before = self.text[..first.range.start].trim_end();
            let lead_in = before.rsplit('\n').next().unwrap_or_default();
            let context = stance::list_context(&format!("{parent}\n{lead_in}"), question);
            let list = self.next_list;
            self.next_list += 1;
            for (k, &index) in run.iter().enumerate() {
                let heading = &headings[index];
                let start = heading.range.start;
                // The section ends at the next heading of its level or above, or a rule.
                let next_heading = headings[index + 1..]
                    .iter()
                    .find(|h| h.level <= heading.level)
                    .map_or(text_end, |h| h.range.start);
                let next_rule = self
                    .rules
                    .iter()
                    .copied()
                    .find(|&r| r > heading.range.end)
                    .unwrap_or(text_end);
                let end = self.text[..next_heading.min(next_rule)].trim_end().len();
                let subject = strip_number(&self.text, heading.range.clone());
                self.done.push(Item {
                    kind: ItemKind::Section,
                    list,
                    rank: heading.number.unwrap_or(k + 1),
                    subject,
                    span: start..end.max(heading.range.end),
                    context,
                });
            }
        }
    }
}

/// The number a heading or an item opens with: "1. ", "1) ", "#1 ", or a number alone; not
/// a year or a measure ("2025 Buyer's Guide", "1.5 kg").
fn leading_number(text: &str) -> Option<usize> {
    let text = text.trim_start();
    let (hash, rest) = match text.strip_prefix('#') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 3 {
        return None;
    }
    let after = &rest[digits..];
    let mut chars = after.chars();
    let numbered = match chars.next() {
        None => true,
        Some('.' | ')') => chars.next().is_none_or(char::is_whitespace),
        Some(c) => hash && c.is_whitespace(),
    };
    numbered.then(|| rest[..digits].parse().ok()).flatten()
}

fn is_number(text: &str) -> bool {
    let text = text
        .trim()
        .trim_start_matches('#')
        .trim_end_matches(['.', ')']);
    !text.is_empty() && text.chars().all(|c| c.is_ascii_digit())
}

/// `range` of `text` without a leading "1. " or "#1", spaces, and a closing ":" or dash.
fn strip_number(text: &str, range: Range<usize>) -> Range<usize> {
    let words = &text[range.clone()];
    let mut rest = words.trim_start();
    if leading_number(rest).is_some() {
        rest = rest
            .trim_start_matches('#')
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches(['.', ')'])
            .trim_start();
    }
    let start = range.end - rest.len();
    let kept = rest.trim_end_matches([':', ' ', '—', '–', '-']);
    start..start + kept.len()
}

/// The subject of an item that opens with a bold lead at `start..bold_end` (the item ends at
/// `end`): the lead, or for a label followed by a short name ("**Best overall:** Salomon X
/// Ultra — …") the name.
fn lead_subject(text: &str, start: usize, bold_end: usize, end: usize) -> Range<usize> {
    let lead = strip_number(text, start..bold_end);
    let rest = &text[bold_end..end];
    // "**Best overall:** Salomon": a colon inside the bold, or a label's word before one
    // outside it ("**Budget**: Merrell"); "**Eufy X10**: the value pick" is a name.
    let first_word = text[lead.clone()]
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let is_label = text[start..bold_end].trim_end().ends_with(':')
        || rest.starts_with(':') && LABEL_WORDS.contains(&first_word.as_str());
    if !is_label {
        return lead;
    }
    let after_start = end - rest.trim_start_matches([':', ' ']).len();
    let line_end = text[after_start..end]
        .find('\n')
        .map_or(end, |at| after_start + at);
    let after = plain_subject(text, after_start, line_end);
    // A label before a sentence ("**Standout feature:** its context window …") is the subject.
    match text[after.clone()].split_whitespace().count() {
        1..=4 => after,
        _ => lead,
    }
}

/// The subject of an item without a bold lead: the words of its first line before a
/// separator, at most [`SUBJECT_WORDS`] of them.
fn plain_subject(text: &str, start: usize, end: usize) -> Range<usize> {
    let line = &text[start..end];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let cut = SUBJECT_ENDS
        .iter()
        .filter_map(|sep| line.find(sep))
        .min()
        .unwrap_or(line.len());
    let head = strip_number(text, start..start + cut);
    let words = &text[head.clone()];
    match words.split_whitespace().nth(SUBJECT_WORDS) {
        None => head,
        Some(word) => {
            let offset = word.as_ptr() as usize - words.as_ptr() as usize;
            head.start..head.start + words[..offset].trim_end().len()
        }
    }
}
