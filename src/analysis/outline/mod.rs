//! The shape of an answer, read from its HTML: its text block by block, and the items of its
//! lists — list items, numbered (or sibling) headings with what follows them, rows of a
//! table — each with its subject (the bold lead or the label before ":" or "—", the heading,
//! the first cell that is not a number), its number in its list, and what the list's heading,
//! its lead-in or the question says of its items (a list of picks, of things to avoid).
//! Mentions are read in this shape (`super::mentions::read`): a brand's position is the
//! rank of the first item about it, and an item of a list of picks recommends its subject.
//! Pure and bounded: a page past `html_cost`'s bounds is read as prose.

use std::ops::Range;

use scraper::Html;

use super::stance::Stance;

mod sections;
mod subject;
mod walk;

use walk::Walker;

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
    /// Bold and linked runs of words of the text, in document order (bounded).
    pub emphasis: Vec<Range<usize>>,
    /// The hosts the answer links to (citation pills included), each once.
    pub linked_hosts: Vec<String>,
    /// The item each item is inside, by index.
    parents: Vec<Option<usize>>,
}

impl Outline {
    /// Text with no structure: every mention in it is prose.
    pub fn prose(text: &str) -> Outline {
        Outline {
            text: text.to_string(),
            ..Outline::default()
        }
    }

    /// An outline of `items` sorted by start, with the item each is inside.
    fn with_parents(
        text: String,
        items: Vec<Item>,
        emphasis: Vec<Range<usize>>,
        linked_hosts: Vec<String>,
    ) -> Outline {
        let mut parents = Vec::with_capacity(items.len());
        let mut open: Vec<usize> = Vec::new();
        for (index, item) in items.iter().enumerate() {
            while open
                .last()
                .is_some_and(|&top| items[top].span.end <= item.span.start)
            {
                open.pop();
            }
            parents.push(open.last().copied());
            open.push(index);
        }
        Outline {
            text,
            items,
            emphasis,
            linked_hosts,
            parents,
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
        let mut walker = Walker::new(hidden_label);
        walker.walk(document);
        walker.finish(question)
    }

    /// The innermost item holding byte `at` of the text, by its index in [`Outline::items`]:
    /// the last item to start at or before it, or the nearest of its parents that holds it.
    pub fn item_at(&self, at: usize) -> Option<usize> {
        let mut candidate = self
            .items
            .partition_point(|item| item.span.start <= at)
            .checked_sub(1);
        while let Some(index) = candidate {
            if self.items[index].span.contains(&at) {
                return Some(index);
            }
            candidate = self.parents.get(index).copied().flatten();
        }
        None
    }

    /// The words of the item's subject.
    pub fn subject_of(&self, item: &Item) -> &str {
        self.text.get(item.subject.clone()).unwrap_or_default()
    }
}
