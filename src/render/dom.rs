//! What we do to html2text's DOM before it makes its render tree: what html2text does not
//! do itself. Block elements it does not know become `<div>` (so their text does not run
//! into the next block), `<noscript>` goes before the page's style rules are read (a
//! page's `<noscript><style>` hides it all when scripts are on), `<hr>` becomes a rule,
//! redirect links are unwrapped, links are collected and optionally numbered.

use std::rc::Rc;

use html2text::{Comment, Document, Element, Handle, RcDom};
use html5ever::interface::{ElementFlags, NodeOrText, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::{Attribute, LocalName, QualName, local_name, ns};

use super::cards;
use super::links::{LinkList, host_of, resolve_href};
use super::marks::{LINK_NUMBER_CLASS, RULE_CLASS};
use super::plain::tidy;
use super::{Card, Link, RenderOptions};

/// Block-level elements html2text lays out inline.
const BLOCKS: &[&str] = &[
    "section",
    "article",
    "header",
    "footer",
    "nav",
    "main",
    "aside",
    "address",
    "figure",
    "figcaption",
    "details",
    "summary",
    "form",
    "fieldset",
    "legend",
    "hgroup",
    "center",
    "search",
    "menu",
    "caption",
    "dialog",
    "listing",
    "plaintext",
];

/// Elements removed with their content before anything else reads the DOM.
const REMOVED: &[&str] = &[
    "noscript", "template", "button", "input", "select", "textarea", "datalist", "canvas", "video",
    "audio", "object", "iframe", "math", "noembed", "noframes", "dialog",
];

/// Parse `html` (bytes that are not UTF-8 were already replaced by the caller's `&str`).
pub(crate) fn parse(html: &str) -> Option<RcDom> {
    html2text::config::plain().parse_html(html.as_bytes()).ok()
}

/// Prepare the DOM for html2text and return its visible links in document order,
/// deduplicated by URL, and their cards.
pub(crate) fn prepare(dom: &RcDom, options: &RenderOptions) -> (Vec<Link>, Vec<Card>) {
    let mut links = LinkList::default();
    let mut drop_first = options.drop_first;
    // Depth first in document order, so links are numbered as they are read; with each
    // node, whether it is inside a `<pre>` (where spacing is the author's).
    let mut stack: Vec<(Handle, bool)> = vec![(dom.document.clone(), false)];
    while let Some((node, in_pre)) = stack.pop() {
        let name = local_name_of(&node);
        let name = name.as_deref().unwrap_or("");
        if drop_first.is_some_and(|tag| tag == name) {
            drop_first = None;
            detach(&node);
            continue;
        }
        if name == "a"
            && let Some((n, has_text)) = collect_link(&node, &mut links, options.cards)
        {
            if is_sponsored(&node) {
                // An ad says where it leads.
                let host = format!(
                    " ·\u{A0}{}",
                    links.get(n).map_or("", |link| host_of(&link.url))
                );
                let where_to = new_element(dom, "span", None);
                dom.append(&where_to, NodeOrText::AppendText(host.into()));
                dom.append(&node, NodeOrText::AppendNode(where_to));
            }
            // Icon-only links are listed but show nothing to put a number after.
            if options.number_links && has_text {
                // Inside the link, so it stays with its text.
                let number = new_element(dom, "span", Some(LINK_NUMBER_CLASS));
                dom.append(&number, NodeOrText::AppendText(format!(" [{n}]").into()));
                dom.append(&innermost_last(&node), NodeOrText::AppendNode(number));
            }
        }
        let in_pre = in_pre || name == "pre";
        let in_list_or_cell = matches!(name, "li" | "dd" | "dt" | "td" | "th" | "p");
        let old = std::mem::take(&mut *node.children.borrow_mut());
        // Text of its own between the children: links there are words of a sentence (inline
        // citations), not a list laid out by the page's CSS.
        let prose = old.iter().any(|child| {
            local_name_of(child).is_none()
                && !matches!(child.data, Comment { .. })
                && !is_blank_text(child)
        });
        let mut kept: Vec<Handle> = Vec::with_capacity(old.len());
        // The element before this one with nothing but white space between them.
        let mut previous: Option<Handle> = None;
        for child in old {
            let Some(local) = local_name_of(&child) else {
                if previous.is_some()
                    && !matches!(child.data, Comment { .. })
                    && !is_blank_text(&child)
                {
                    previous = None;
                }
                kept.push(child);
                continue;
            };
            let name: &str = &local;
            // html2text's CSS would drop most of these too, but not `visibility:hidden`,
            // and links inside must not be collected.
            if REMOVED.contains(&name)
                || is_hidden(&child)
                || (name == "img" && is_inline_image(&child))
            {
                continue;
            }
            let child = if matches!(name, "ul" | "ol" | "dl" | "table") && !in_list_or_cell {
                // A paragraph of its own, so a blank line sets it apart as it does on a page.
                let block = new_element(dom, "p", None);
                child.parent.set(Some(Rc::downgrade(&block)));
                block.children.borrow_mut().push(child);
                block
            } else if name == "hr" {
                let rule = new_element(dom, "p", Some(RULE_CLASS));
                dom.append(&rule, NodeOrText::AppendText("─".into()));
                rule
            } else if BLOCKS.contains(&name) {
                rename_to_div(dom, &child)
            } else {
                if name == "pre" {
                    keep_only_code(&child);
                } else if name == "style" {
                    keep_hiding_rules(dom, &child);
                }
                child
            };
            if name == "sup" {
                digits_only(dom, &child);
            }
            if !in_pre
                && let Some(before) = previous.take()
                && let Some(separator) = separator(dom, &before, &child, prose)
            {
                kept.push(separator);
            }
            // A citation glued to the sentence before it (`region.<a>Best Buy</a>`) is set
            // apart as a browser's layout of the chip would.
            if !in_pre
                && prose
                && (name == "a" || (name == "span" && holds_a_link(&child)))
                && kept
                    .last()
                    .and_then(text_of_text_node)
                    .is_some_and(|text| text.ends_with(['.', ',', ';', ':', '!', '?', ')']))
            {
                kept.push(space(dom));
            }
            // Markdown's markers must hug their words: `**Price:** About`, not `**Price: **`.
            let (before, after) = if !in_pre && INLINE_MARKS.contains(&name) {
                spaces_out(dom, &child)
            } else {
                (false, false)
            };
            if before {
                kept.push(space(dom));
            }
            previous = Some(child.clone());
            kept.push(child);
            if after {
                kept.push(space(dom));
            }
        }
        for child in &kept {
            child.parent.set(Some(Rc::downgrade(&node)));
        }
        stack.extend(kept.iter().rev().map(|c| (c.clone(), in_pre)));
        *node.children.borrow_mut() = kept;
    }
    links.into_parts()
}

/// What goes between two elements that touch in the markup but not on the page, where the
/// page's CSS (which html2text does not lay out) sets them apart: a line break between
/// links (navigation, ad cards), a space between classed spans (a result's site name and
/// its address).
fn separator(dom: &RcDom, before: &Handle, after: &Handle, prose: bool) -> Option<Handle> {
    let (a, b) = (local_name_of(before)?, local_name_of(after)?);
    if &*a == "a" && &*b == "a" {
        // In a sentence the space between them is the separator.
        return (!prose).then(|| new_element(dom, "br", None));
    }
    let spaced = |n: &str| matches!(n, "span" | "cite");
    if spaced(&a) && spaced(&b) && attr(before, "class").is_some() && attr(after, "class").is_some()
    {
        let space = new_element(dom, "span", None);
        dom.append(&space, NodeOrText::AppendText(" ".into()));
        return Some(space);
    }
    None
}

/// True when a link is among the element's descendants (a citation pill wraps its link in
/// spans).
fn holds_a_link(node: &Handle) -> bool {
    let mut stack: Vec<Handle> = node.children.borrow().clone();
    while let Some(n) = stack.pop() {
        if local_name_of(&n).is_some_and(|name| &*name == "a") {
            return true;
        }
        stack.extend(n.children.borrow().iter().cloned());
    }
    false
}

/// Inline marks whose Markdown markers must touch the words they mark.
const INLINE_MARKS: &[&str] = &["strong", "b", "em", "i", "s", "strike", "del"];

/// A span holding one space.
fn space(dom: &RcDom) -> Handle {
    let space = new_element(dom, "span", None);
    dom.append(&space, NodeOrText::AppendText(" ".into()));
    space
}

/// The text of a text node, entities decoded; `None` for any other node.
fn text_of_text_node(node: &Handle) -> Option<String> {
    if matches!(node.data, Element { .. } | Comment { .. } | Document) {
        return None;
    }
    let mut html: Vec<u8> = Vec::new();
    let _ = node.serialize(&mut html);
    let escaped = String::from_utf8_lossy(&html);
    Some(html_escape::decode_html_entities(&escaped).into_owned())
}

/// Moves white space at the start and the end of a mark's text out of the mark; says
/// whether there was some at each end, for a space to stand outside instead.
fn spaces_out(dom: &RcDom, mark: &Handle) -> (bool, bool) {
    let mut children = mark.children.borrow_mut();
    let mut moved = (false, false);
    for at_end in [false, true] {
        let index = if at_end {
            children.len().checked_sub(1)
        } else {
            (!children.is_empty()).then_some(0)
        };
        let Some(index) = index else {
            continue;
        };
        let Some(text) = text_of_text_node(&children[index]) else {
            continue;
        };
        let trimmed = if at_end {
            text.trim_end()
        } else {
            text.trim_start()
        };
        if trimmed.len() == text.len() || trimmed.is_empty() {
            continue;
        }
        let words = new_element(dom, "span", None);
        dom.append(&words, NodeOrText::AppendText(trimmed.into()));
        words.parent.set(Some(Rc::downgrade(mark)));
        children[index] = words;
        if at_end {
            moved.1 = true;
        } else {
            moved.0 = true;
        }
    }
    moved
}

/// A superscript whose text is a number (a citation marker wrapped in chips and footnote
/// elements) becomes that number alone, which html2text writes in superscript digits
/// rather than running it into the word before it (`boots.3`).
fn digits_only(dom: &RcDom, sup: &Handle) {
    let mut html = Vec::new();
    if sup.serialize(&mut html).is_err() || html.len() > 4096 {
        return;
    }
    let mut text = String::new();
    let mut in_tag = false;
    for c in String::from_utf8_lossy(&html).chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let digits = text.trim();
    let nested = sup
        .children
        .borrow()
        .iter()
        .any(|child| local_name_of(child).is_some());
    if nested && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let digits = digits.to_owned();
        sup.children.borrow_mut().clear();
        dom.append(sup, NodeOrText::AppendText(digits.into()));
    }
}

/// A text node of white space only (its serialization, entities and all, is blank).
fn is_blank_text(node: &Handle) -> bool {
    let mut text = Vec::new();
    let _ = node.serialize(&mut text);
    text.iter().all(u8::is_ascii_whitespace)
}

/// A link marked as an ad.
fn is_sponsored(a: &Handle) -> bool {
    attr(a, "rel").is_some_and(|rel| rel.split_ascii_whitespace().any(|r| r == "sponsored"))
        || attr(a, "data-sponsored").is_some_and(|v| v == "true")
}

/// The element holding the end of `node`'s content: its last element child's, and so on
/// down, so a number put there follows the last word instead of starting a line after a
/// block inside a link.
fn innermost_last(node: &Handle) -> Handle {
    let mut at = node.clone();
    loop {
        let last = at
            .children
            .borrow()
            .iter()
            .rev()
            .find(|c| {
                !matches!(c.data, Comment { .. })
                    && (local_name_of(c).is_some() || !is_blank_text(c))
            })
            .cloned();
        match last {
            Some(child) if local_name_of(&child).is_some_and(|n| !REMOVED.contains(&&*n)) => {
                if is_hidden(&child) {
                    return at;
                }
                at = child;
            }
            _ => return at,
        }
    }
}

/// Take a node out of its parent's children.
fn detach(node: &Handle) {
    if let Some(parent) = node.get_parent() {
        parent
            .children
            .borrow_mut()
            .retain(|c| !Rc::ptr_eq(c, node));
    }
    node.parent.set(None);
}

/// Links only: the visible `<a href>` of a parsed fragment, and their cards if asked.
pub(crate) fn links_of(dom: &RcDom, cards: bool) -> (Vec<Link>, Vec<Card>) {
    let mut links = LinkList::default();
    let mut stack = vec![dom.document.clone()];
    while let Some(node) = stack.pop() {
        for child in node.children.borrow().iter().rev() {
            let Some(name) = local_name_of(child) else {
                continue;
            };
            if REMOVED.contains(&&*name) || is_hidden(child) {
                continue;
            }
            stack.push(child.clone());
        }
        if local_name_of(&node).is_some_and(|n| &*n == "a") {
            collect_link(&node, &mut links, cards);
        }
    }
    links.into_parts()
}

/// An image inlined as a `data:` URL: icons and thumbnails whose alt text is noise.
fn is_inline_image(img: &Handle) -> bool {
    attr(img, "src").is_some_and(|src| src.trim_start().starts_with("data:"))
}

fn local_name_of(node: &Handle) -> Option<LocalName> {
    match &node.data {
        Element { name, .. } => Some(name.local.clone()),
        _ => None,
    }
}

fn attr(node: &Handle, key: &str) -> Option<String> {
    match &node.data {
        Element { attrs, .. } => attrs
            .borrow()
            .iter()
            .find(|a| &*a.name.local == key)
            .map(|a| a.value.to_string()),
        _ => None,
    }
}

/// Hidden by markup (the `hidden` attribute, `aria-hidden="true"`, a screen-reader-only
/// class, an inline `display:none` or `visibility:hidden`), or the page's chrome around an
/// answer (`data-copy="false"`): see [`crate::markup::hides`].
pub(crate) fn is_hidden(node: &Handle) -> bool {
    let Element { attrs, .. } = &node.data else {
        return false;
    };
    let attrs = attrs.borrow();
    crate::markup::hides(attrs.iter().map(|a| (&*a.name.local, &*a.value)))
}

/// Record the link `a` stands for (its target rewritten to the unwrapped one), read as a
/// card too if `card`; its 1-based number in `links` and whether it has text, or `None` if
/// it leads nowhere.
fn collect_link(a: &Handle, links: &mut LinkList, card: bool) -> Option<(usize, bool)> {
    let url = resolve_href(&attr(a, "href")?)?;
    if let Element { attrs, .. } = &a.data {
        for at in attrs.borrow_mut().iter_mut() {
            if &*at.name.local == "href" {
                at.value = StrTendril::from(url.as_str());
            }
        }
    }
    let text = without_site_and_index(&text_of(a), &url);
    let has_text = !text.is_empty();
    let card = card.then(|| cards::read(&url, attr(a, "title").as_deref(), &blocks_of(a)));
    Some((links.add(url, text, card), has_text))
}

/// Elements that set their text apart from what is around it, wherever they stand.
const BLOCK_TEXT: &[&str] = &[
    "div",
    "p",
    "br",
    "li",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "tr",
    "td",
    "th",
    "section",
    "article",
    "header",
    "footer",
    "aside",
    "figure",
    "figcaption",
    "blockquote",
    "pre",
    "hr",
];

/// A step of the walk over a link's content.
enum Step {
    Enter(Handle, bool),
    /// The end of an element that sets its text apart.
    Leave,
}

/// The runs of visible text a link lays out apart, in order: each block element's text is a
/// run; so is each element among siblings with no text of their own between them (a card's
/// `<span>site</span><span>3</span>`), while in a sentence inline elements are words of it.
fn blocks_of(a: &Handle) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Vec<u8> = Vec::new();
    let flush = |current: &mut Vec<u8>, blocks: &mut Vec<String>| {
        let escaped = String::from_utf8_lossy(current);
        let text =
            tidy(&html_escape::decode_html_entities(&escaped).replace(['\n', '\u{A0}'], " "));
        if !text.is_empty() {
            blocks.push(text);
        }
        current.clear();
    };
    let mut stack = vec![Step::Enter(a.clone(), false)];
    while let Some(step) = stack.pop() {
        let (node, apart) = match step {
            Step::Leave => {
                flush(&mut current, &mut blocks);
                continue;
            }
            Step::Enter(node, apart) => (node, apart),
        };
        match &node.data {
            Element { .. } => {
                let name = local_name_of(&node);
                if is_hidden(&node) || name.as_ref().is_some_and(|l| REMOVED.contains(&&**l)) {
                    continue;
                }
                let children = node.children.borrow();
                let prose = children.iter().any(|child| {
                    local_name_of(child).is_none()
                        && !matches!(child.data, Comment { .. })
                        && !is_blank_text(child)
                });
                if apart {
                    flush(&mut current, &mut blocks);
                    stack.push(Step::Leave);
                }
                for child in children.iter().rev() {
                    let block =
                        local_name_of(child).is_some_and(|n| !prose || BLOCK_TEXT.contains(&&*n));
                    stack.push(Step::Enter(child.clone(), block));
                }
            }
            Comment { .. } => {}
            // Text: its serialization is the text with `&`, `<`, `>` and NBSP escaped.
            _ => {
                let _ = node.serialize(&mut current);
            }
        }
    }
    flush(&mut current, &mut blocks);
    blocks
}

/// A source card's text is its title, then the site's address and its number in the list
/// ("Switchback Travel www.switchbacktravel.com 1"): the title alone names the link. A text
/// that is nothing but the address stays as it is.
fn without_site_and_index(text: &str, url: &str) -> String {
    let host = host_of(url);
    let bare = host.trim_start_matches("www.");
    let mut words: Vec<&str> = text.split(' ').collect();
    let mut site_seen = false;
    while words.len() > 1 {
        let Some(last) = words.last() else { break };
        let is_index = !last.is_empty() && last.chars().all(|c| c.is_ascii_digit());
        let is_site = last.eq_ignore_ascii_case(host) || last.eq_ignore_ascii_case(bare);
        if !(is_index || is_site) {
            break;
        }
        site_seen |= is_site;
        words.pop();
    }
    // Only digits at the end ("Top 10") are the title's own.
    if !site_seen {
        return text.to_string();
    }
    words
        .join(" ")
        .trim_end_matches([' ', '—', '-', '·'])
        .to_string()
}

/// The visible text of an element, white space collapsed.
fn text_of(node: &Handle) -> String {
    let mut html: Vec<u8> = Vec::new();
    let mut stack = vec![node.clone()];
    while let Some(n) = stack.pop() {
        match &n.data {
            Element { .. } => {
                if is_hidden(&n) || local_name_of(&n).is_some_and(|l| REMOVED.contains(&&*l)) {
                    continue;
                }
                html.push(b' ');
                stack.extend(n.children.borrow().iter().rev().cloned());
            }
            Comment { .. } => {}
            // Text: its serialization is the text with `&`, `<`, `>` and NBSP escaped.
            _ => {
                let _ = n.serialize(&mut html);
            }
        }
    }
    let escaped = String::from_utf8_lossy(&html);
    tidy(&html_escape::decode_html_entities(&escaped).replace(['\n', '\u{A0}'], " "))
}

/// Of a page's style sheet, only the rules that hide something matter here (html2text
/// lays out nothing else of CSS); a search page carries thousands of rules, and html2text
/// matches each against every element.
fn keep_hiding_rules(dom: &RcDom, style: &Handle) {
    let mut css = Vec::new();
    for child in style.children.borrow().iter() {
        let _ = child.serialize(&mut css);
    }
    let kept = hiding_rules(&String::from_utf8_lossy(&css));
    style.children.borrow_mut().clear();
    dom.append(style, NodeOrText::AppendText(kept.into()));
}

/// The rules of a style sheet that set `display: none`, each as written (with what stood
/// before it since the previous rule). Rules inside at-rules (`@media` and the like) depend
/// on a screen this is not, so they go too.
pub(crate) fn hiding_rules(css: &str) -> String {
    let mut kept = String::new();
    let mut depth = 0usize;
    let mut rule_start = 0;
    // Braces are ASCII, so byte offsets found by memchr fall between characters.
    for i in memchr::memchr2_iter(b'{', b'}', css.as_bytes()) {
        if css.as_bytes()[i] == b'{' {
            depth += 1;
        } else if depth > 0 {
            depth -= 1;
            if depth == 0 {
                let rule = &css[rule_start..=i];
                if !rule.trim_start().starts_with('@') && hides(rule) {
                    kept.push_str(rule);
                }
                rule_start = i + 1;
            }
        }
    }
    kept
}

/// Whether a rule, white space left out, says `display:none`.
fn hides(rule: &str) -> bool {
    const NEEDLE: &[u8] = b"display:none";
    // No prefix of the needle recurs inside it, so a mismatch restarts the match.
    let mut matched = 0;
    for c in rule.chars().filter(|c| !c.is_whitespace()) {
        if c.is_ascii() && c as u8 == NEEDLE[matched] {
            matched += 1;
            if matched == NEEDLE.len() {
                return true;
            }
        } else {
            matched = usize::from(c == 'd');
        }
    }
    false
}

/// A code block as chatbots send it holds a language label and a copy button beside the
/// `<code>`: keep only the code's content (the block is code already).
fn keep_only_code(pre: &Handle) {
    let mut stack: Vec<Handle> = pre.children.borrow().iter().rev().cloned().collect();
    let mut code = None;
    while let Some(n) = stack.pop() {
        if local_name_of(&n).is_some_and(|l| &*l == "code") {
            code = Some(n);
            break;
        }
        stack.extend(n.children.borrow().iter().rev().cloned());
    }
    let Some(code) = code else { return };
    let content = std::mem::take(&mut *code.children.borrow_mut());
    for c in &content {
        c.parent.set(Some(Rc::downgrade(pre)));
    }
    *pre.children.borrow_mut() = content;
}

fn new_element(dom: &RcDom, tag: &str, class: Option<&str>) -> Handle {
    let attrs = class
        .map(|class| Attribute {
            name: QualName::new(None, ns!(), local_name!("class")),
            value: StrTendril::from(class),
        })
        .into_iter()
        .collect();
    dom.create_element(
        QualName::new(None, ns!(html), LocalName::from(tag)),
        attrs,
        ElementFlags::default(),
    )
}

/// A `<div>` with the element's attributes (classes and styles still apply) and children.
fn rename_to_div(dom: &RcDom, node: &Handle) -> Handle {
    let attrs = match &node.data {
        Element { attrs, .. } => attrs.borrow().clone(),
        _ => Vec::new(),
    };
    let div = dom.create_element(
        QualName::new(None, ns!(html), local_name!("div")),
        attrs,
        ElementFlags::default(),
    );
    let children = std::mem::take(&mut *node.children.borrow_mut());
    for c in &children {
        c.parent.set(Some(Rc::downgrade(&div)));
    }
    *div.children.borrow_mut() = children;
    div
}
