//! Generated tag soups for the tests that look for the next bad shape: formatting tags with
//! and without attributes, tables, lists, links and blocks, left open and misnested, with
//! text between. The same seed makes the same page everywhere.
#![allow(dead_code)]

/// A small, seeded generator (xorshift64*): the same seed makes the same page everywhere.
pub struct Dice(u64);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

pub const FORMATTING: &[&str] = &[
    "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt",
    "u", "span", "mark", "sup",
];
pub const TABLE: &[&str] = &[
    "table", "tr", "td", "th", "tbody", "thead", "caption", "colgroup",
];
pub const LIST: &[&str] = &["ul", "ol", "li", "dl", "dt", "dd"];
pub const BLOCK: &[&str] = &[
    "div",
    "p",
    "h2",
    "h3",
    "blockquote",
    "pre",
    "section",
    "form",
    "select",
    "option",
    "button",
];
pub const WORDS: &[&str] = &[
    "boots",
    "Salomon",
    "waterproof",
    "&amp;",
    "&nbsp;",
    "&#x1F97E;",
    "trail",
    "x",
    "·",
    "Ωmega",
    "2026",
];

/// The mix of one shape: how likely each kind of token is, out of 100.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub name: &'static str,
    pub formatting: usize,
    pub table: usize,
    pub list: usize,
    pub block: usize,
    pub link: usize,
    /// Of the tags above, how many in 100 are end tags (possibly of an element not open).
    pub closing: usize,
    /// End tags mostly close what is open, innermost first (a page that is parsed, not
    /// shown as plain text); otherwise they name any element.
    pub balanced: bool,
}

pub const SHAPES: &[Shape] = &[
    Shape {
        name: "formatting left open",
        formatting: 60,
        table: 5,
        list: 5,
        block: 10,
        link: 5,
        closing: 20,
        balanced: false,
    },
    Shape {
        name: "tables in formatting",
        formatting: 35,
        table: 45,
        list: 0,
        block: 5,
        link: 5,
        closing: 30,
        balanced: false,
    },
    Shape {
        name: "lists and blocks",
        formatting: 15,
        table: 0,
        list: 40,
        block: 35,
        link: 5,
        closing: 40,
        balanced: false,
    },
    Shape {
        name: "links",
        formatting: 10,
        table: 5,
        list: 10,
        block: 10,
        link: 60,
        closing: 45,
        balanced: false,
    },
    Shape {
        name: "everything misnested",
        formatting: 25,
        table: 20,
        list: 15,
        block: 20,
        link: 10,
        closing: 50,
        balanced: false,
    },
    Shape {
        name: "mostly closed formatting and tables",
        formatting: 40,
        table: 30,
        list: 5,
        block: 10,
        link: 5,
        closing: 48,
        balanced: true,
    },
    Shape {
        name: "mostly closed lists and blocks",
        formatting: 15,
        table: 5,
        list: 35,
        block: 35,
        link: 5,
        closing: 48,
        balanced: true,
    },
    Shape {
        name: "mostly closed, links",
        formatting: 15,
        table: 10,
        list: 10,
        block: 10,
        link: 50,
        closing: 48,
        balanced: true,
    },
];

/// A page of `shape`, about `bytes` long.
pub fn soup(shape: &Shape, seed: u64, bytes: usize) -> String {
    let mut dice = Dice::new(seed);
    let mut out = String::with_capacity(bytes + 256);
    let mut n = 0usize;
    let mut open: Vec<&str> = Vec::new();
    while out.len() < bytes {
        n += 1;
        let roll = dice.below(100);
        let kinds = [
            (shape.formatting, FORMATTING),
            (shape.table, TABLE),
            (shape.list, LIST),
            (shape.block, BLOCK),
        ];
        let mut at = 0;
        let mut chosen = None;
        for (share, names) in kinds {
            if roll < at + share {
                chosen = Some(names);
                break;
            }
            at += share;
        }
        match chosen {
            Some(names) => {
                let name = dice.pick(names);
                if dice.below(100) < shape.closing {
                    let closed = match (shape.balanced, open.len(), dice.below(20)) {
                        (true, 0, _) | (false, ..) | (true, _, 0) => name,
                        // Misnested: an element opened earlier ends first.
                        (true, len, 1 | 2) => open.remove(dice.below(len)),
                        (true, ..) => open.pop().unwrap_or(name),
                    };
                    out.push_str(&format!("</{closed}>"));
                } else {
                    if shape.balanced {
                        open.push(name);
                    }
                    match dice.below(4) {
                        0 => out.push_str(&format!("<{name}>")),
                        1 => out.push_str(&format!("<{name} class=\"c{n}\">")),
                        2 if name == "a" => {
                            out.push_str(&format!("<a href=\"https://s{}.example/{n}\">", n % 97))
                        }
                        _ => out.push_str(&format!("<{name} id=x{n} title='t>{n}'>")),
                    }
                }
            }
            None if roll < at + shape.link => out.push_str(&format!(
                "<a href=\"https://site{}.example/p{n}\"><h3>Title {n}</h3><cite>site{n}</cite></a>",
                n % 211
            )),
            None => {
                out.push_str(dice.pick(WORDS));
                out.push(' ');
            }
        }
        if dice.below(3) == 0 {
            out.push_str(dice.pick(WORDS));
        }
    }
    out
}
