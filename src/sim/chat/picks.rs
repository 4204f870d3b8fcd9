//! The picks of a buying answer, written in the forms the live models use, so a reading of
//! the simulator's answers is not tuned to one template: numbered headings with "Best for:"
//! (Gemini), "**Name** — Best for …" with a comparison table (Copilot), bold leads with a
//! price, plain "Name: …" bullets, sub-bullets of price and use. Some items compare a pick
//! with another ("lighter than the Hoka Kaha 2"), and some name the brand alone ("Lowa has
//! made it for decades"), as real answers do.

use super::super::topic::title_case;
use super::parts::{cite_index, price_line, short};
use super::{Block, Ctx, Inline, Item, bold, capitalize, text};

/// How a list of picks is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PickForm {
    /// `**Name** (about $120): strong on grip.`
    BoldWithPrice,
    /// `**Name** — Best for …` then a sentence, in an ordered list.
    DashBestFor,
    /// `### 1. Name` then `**Best for:** …`, as sections.
    NumberedHeadings,
    /// `Name: sentence` bullets, no bold.
    NameColon,
    /// `**Name**` with sub-bullets `Price:` and `Best for:`.
    SubBullets,
}

/// The picks of the answer: `count` of the topic's picks (half of them steady across fresh
/// asks), written in `form`; a comparison table after them when `table`. Records the picks
/// named in `ctx.listed`.
pub(super) fn picks(ctx: &mut Ctx, form: PickForm, count: usize, table: bool) -> Vec<Block> {
    let names = match ctx.steady {
        Some(steady) => ctx.topic.picks_sampled(steady, &mut ctx.mix, count),
        None => ctx.topic.picks(&mut ctx.mix, count),
    };
    ctx.listed.extend(names.iter().copied());
    let mut names: Vec<String> = names.iter().map(|name| name.to_string()).collect();
    // A list asked longer than the catalogue runs on with unnamed options, so it still
    // holds the number asked for.
    for more in names.len()..count {
        names.push(format!(
            "{} option {}",
            title_case(&ctx.topic.subject),
            more + 1
        ));
    }
    let rows: Vec<Pick> = names.iter().map(|name| Pick::draw(ctx, name)).collect();
    let mut blocks = Vec::new();
    let mut items = Vec::new();
    for (i, pick) in rows.iter().enumerate() {
        // Now and then an item measures its pick against another one of the list.
        let other = rows
            .get(i + 1)
            .or(rows.first())
            .filter(|o| o.name != pick.name);
        let aside = other
            .filter(|_| ctx.mix.chance(0.35))
            .map(|o| format!(" It is {} than the {}.", comparison(&pick.aspect), o.name));
        let brand_alone = pick
            .brand
            .as_ref()
            .filter(|_| ctx.mix.chance(0.3))
            .map(|brand| format!(" It is one of {brand}'s best-known models."));
        let more = format!(
            "{}{}",
            aside.unwrap_or_default(),
            brand_alone.unwrap_or_default()
        );
        let sentence = format!("{}{more}", pick.sentence);
        match form {
            PickForm::BoldWithPrice => items.push(Item {
                lead: vec![
                    bold(pick.name.clone()),
                    text(format!(" ({}): {sentence}", pick.price)),
                ],
                sub: Vec::new(),
            }),
            PickForm::DashBestFor => {
                let cite = cite_index(ctx);
                items.push(Item {
                    lead: vec![
                        bold(pick.name.clone()),
                        text(format!(" — Best for {}\n{sentence}", pick.best_for)),
                        Inline::Cite(cite),
                    ],
                    sub: Vec::new(),
                });
            }
            PickForm::NameColon => {
                let cite = cite_index(ctx);
                items.push(Item {
                    lead: vec![
                        text(format!("{}: {sentence}", pick.name)),
                        Inline::Cite(cite),
                    ],
                    sub: Vec::new(),
                });
            }
            PickForm::SubBullets => items.push(Item {
                lead: vec![bold(pick.name.clone())],
                sub: vec![
                    vec![bold("Price: "), text(capitalize(&pick.price))],
                    vec![bold("Best for: "), text(pick.best_for.clone())],
                ],
            }),
            PickForm::NumberedHeadings => {
                blocks.push(Block::Heading(3, format!("{}. {}", i + 1, pick.name)));
                let cite = cite_index(ctx);
                blocks.push(Block::Para(vec![
                    bold("Best for:"),
                    text(format!(" {}. {sentence}", capitalize(&pick.best_for))),
                    Inline::Cite(cite),
                ]));
            }
        }
    }
    if !items.is_empty() {
        blocks.push(Block::List {
            ordered: matches!(form, PickForm::DashBestFor),
            items,
        });
    }
    if table && rows.len() > 1 {
        blocks.push(Block::Heading(3, "Quick Comparison Table".into()));
        blocks.push(Block::Table {
            head: vec![
                "Rank".into(),
                "Pick".into(),
                "Best for".into(),
                "Price".into(),
            ],
            rows: rows
                .iter()
                .enumerate()
                .map(|(i, pick)| {
                    vec![
                        (i + 1).to_string(),
                        pick.name.clone(),
                        capitalize(&pick.best_for),
                        capitalize(&pick.price),
                    ]
                })
                .collect(),
        });
    }
    blocks
}

/// What an answer says of one pick.
struct Pick {
    name: String,
    brand: Option<String>,
    price: String,
    aspect: String,
    best_for: String,
    sentence: String,
}

impl Pick {
    fn draw(ctx: &mut Ctx, name: &str) -> Pick {
        let price = price_line(ctx);
        let aspect = ctx.topic.aspects(&mut ctx.mix, 1).join("");
        let subject = ctx.topic.subject.clone();
        let sentence = match ctx.mix.below(4) {
            0 => format!("Strong on {aspect}."),
            1 => format!("Reviewers single it out for {aspect}."),
            2 => format!("A safe choice if {aspect} matters most to you."),
            _ => format!("One of the better {subject} for {aspect}."),
        };
        let best_for = match ctx.mix.below(3) {
            0 => format!("people who care most about {aspect}"),
            1 => format!("{aspect} on a budget"),
            _ => format!("everyday use where {aspect} counts"),
        };
        // A product is written as its maker spells it ("monday sales CRM").
        let written = match ctx.topic.field {
            Some(_) => name.to_string(),
            None => capitalize(name),
        };
        // An unnamed option past the catalogue has no maker.
        let brand = match ctx.topic.pick_names().contains(&name) {
            true => ctx.topic.brand_of(name),
            false => None,
        };
        Pick {
            name: written,
            brand,
            price,
            aspect,
            best_for,
            sentence,
        }
    }
}

/// "lighter", "better on durability": how one pick compares with another on an aspect.
fn comparison(aspect: &str) -> String {
    match aspect {
        "weight" => "lighter".to_string(),
        "price" | "value" => "cheaper".to_string(),
        _ => format!("better on {aspect}"),
    }
}

/// How many picks an answer lists: as many as a field's live answers name (four to six,
/// four on a phone, so that with a warning about one more an answer names four to seven
/// brands), else the model's `usual`.
pub(super) fn pick_count(ctx: &mut Ctx, usual: usize) -> usize {
    match ctx.topic.field {
        Some(_) if short(ctx) => 4,
        Some(_) => 4 + ctx.mix.below(3),
        None => usual,
    }
}

/// The heading a model puts over its picks, drawn from the ones live answers use.
pub(super) fn picks_heading(ctx: &mut Ctx, choices: &[&str]) -> String {
    let subject = title_case(&ctx.topic.subject);
    let heading = *ctx.mix.pick(choices);
    heading.replace("{subject}", &subject)
}
