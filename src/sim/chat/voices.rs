//! Each model's way of composing an answer from the pieces: what it leads with, how it
//! lists, where it cites.

use super::super::place::Place;
use super::super::seed::Mix;
use super::super::topic::{Intent, Topic, title_case};
use super::parts::{
    aspect_sentence, cite_index, code_block, device_para, explaining, local_cite, location_para,
    short, steps_list,
};
use super::picks::{PickForm, pick_count, picks, picks_heading};
use super::{AiRequest, Block, Ctx, Inline, Item, bold, capitalize, text};

pub(super) fn compose_chatgpt(ctx: &mut Ctx) -> Vec<Block> {
    let subject = ctx.topic.subject.clone();
    let count = if short(ctx) { 2 } else { 3 };
    let aspects = ctx.topic.aspects(&mut ctx.mix, count);
    let opening = match ctx.topic.intent {
        Intent::Buying => format!(
            "Good {subject} depend a lot on how you'll use them, but a few things matter almost every time:"
        ),
        Intent::Comparison => format!(
            "Comparing {subject} comes down to trade-offs rather than a single winner. Here's how they stack up:"
        ),
        Intent::HowTo => format!("Here's a practical way to approach {subject}, step by step:"),
        Intent::Explainer => format!(
            "“{}” can mean a few things depending on context, but most of the time people mean this:",
            title_case(&subject)
        ),
    };
    let mut blocks = vec![Block::Para(vec![text(opening)])];
    blocks.push(Block::Heading(3, "👉 What matters most".into()));
    let mut items = Vec::new();
    for (i, aspect) in aspects.iter().enumerate() {
        let sentence = aspect_sentence(ctx, aspect);
        let cite = cite_index(ctx);
        let sub = if i == aspects.len() - 1 {
            vec![
                vec![text(format!("Try {subject} in person if you can"))],
                vec![text("Read recent owner reviews, not just launch coverage")],
            ]
        } else {
            Vec::new()
        };
        items.push(Item {
            lead: vec![
                bold(format!("{}:", capitalize(aspect))),
                text(format!(" {sentence} ")),
                Inline::Cite(cite),
            ],
            sub,
        });
    }
    blocks.push(Block::List {
        ordered: false,
        items,
    });
    if !short(ctx) || ctx.topic.field.is_some() {
        if explaining(ctx) {
            blocks.push(Block::Heading(3, "🧭 How it works".into()));
            blocks.push(steps_list(ctx, 3));
        } else {
            let heading = picks_heading(ctx, &["🏆 Top picks", "🏆 My top picks", "Top picks"]);
            blocks.push(Block::Heading(3, heading));
            let form = *ctx.mix.pick(&[
                PickForm::BoldWithPrice,
                PickForm::NameColon,
                PickForm::NumberedHeadings,
            ]);
            let count = pick_count(ctx, 3);
            blocks.extend(picks(ctx, form, count, false));
        }
    }
    blocks.push(Block::Heading(3, "⚙️ Quick reference".into()));
    blocks.push(code_block(ctx));
    let local = local_cite(ctx);
    if let Some(block) = location_para(ctx, local) {
        blocks.push(block);
    }
    blocks.push(device_para(ctx));
    let first = ctx.sources[0].clone();
    blocks.push(Block::Para(vec![
        text("If you want, tell me your budget and I can narrow it down. A quick search for "),
        Inline::Code(format!("{subject} review")),
        text(" or the guide on "),
        Inline::Link(first.url, first.name),
        text(" is a good next step."),
    ]));
    blocks
}

pub(super) fn compose_gemini(ctx: &mut Ctx) -> Vec<Block> {
    let subject = ctx.topic.subject.clone();
    let count = if short(ctx) { 2 } else { 4 };
    let aspects = ctx.topic.aspects(&mut ctx.mix, count);
    let mut intro = vec![
        text("Here's a breakdown of "),
        bold(subject.clone()),
        text(format!(
            ", covering {} and what to keep in mind before you decide.",
            aspects.join(", ")
        )),
    ];
    if let Some(local) = local_cite(ctx) {
        intro.push(Inline::Cite(local));
    }
    let mut blocks = vec![
        Block::Para(intro),
        Block::Heading(2, "Key Factors to Consider".into()),
    ];
    let mut items = Vec::new();
    for aspect in &aspects {
        let sentence = aspect_sentence(ctx, aspect);
        let cite = cite_index(ctx);
        items.push(Item {
            lead: vec![
                bold(format!("{}:", title_case(aspect))),
                text(format!(" {sentence}")),
                Inline::Cite(cite),
            ],
            sub: Vec::new(),
        });
    }
    blocks.push(Block::List {
        ordered: true,
        items,
    });
    if explaining(ctx) {
        blocks.push(Block::Heading(2, "How It Works".into()));
        let count = if short(ctx) { 2 } else { 4 };
        blocks.push(steps_list(ctx, count));
    } else {
        let heading = picks_heading(ctx, &["Top Recommendations", "Top {subject} Right Now"]);
        blocks.push(Block::Heading(2, heading));
        let usual = if short(ctx) { 2 } else { 4 };
        let count = pick_count(ctx, usual);
        if ctx.mix.chance(0.5) {
            let subject = ctx.topic.subject.clone();
            blocks.push(Block::Para(vec![text(format!(
                "Here are the top {count} {subject} right now, by what each does best."
            ))]));
            blocks.extend(picks(ctx, PickForm::NumberedHeadings, count, !short(ctx)));
        } else {
            blocks.extend(picks(ctx, PickForm::SubBullets, count, false));
        }
    }
    if !short(ctx) {
        blocks.push(Block::Heading(2, "Quick Reference".into()));
        blocks.push(code_block(ctx));
    }
    if ctx.place.is_set() {
        blocks.push(Block::Heading(
            2,
            format!("Buying in {}", ctx.place.label()),
        ));
        if let Some(block) = location_para(ctx, None) {
            blocks.push(block);
        }
    }
    blocks.push(device_para(ctx));
    blocks.push(Block::Heading(2, "In Summary".into()));
    blocks.push(Block::Para(vec![
        text(format!(
            "There is no single best choice for {subject}: weigh {} first, then compare prices. Searching "
        , aspects.first().copied().unwrap_or("quality"))),
        Inline::Code(format!("\"{subject}\" comparison")),
        text(" brings up side-by-side tests."),
    ]));
    blocks
}

pub(super) fn compose_perplexity(ctx: &mut Ctx) -> Vec<Block> {
    let subject = ctx.topic.subject.clone();
    let count = if short(ctx) { 2 } else { 3 };
    let aspects = ctx.topic.aspects(&mut ctx.mix, count);
    let first = cite_index(ctx);
    let second = cite_index(ctx);
    let mut blocks = vec![Block::Para(vec![
        text(match ctx.topic.intent {
            Intent::Buying | Intent::Comparison => format!(
                "{} are usually judged on {} and {}.",
                capitalize(&subject),
                aspects[0],
                aspects[1]
            ),
            Intent::HowTo | Intent::Explainer => format!(
                "{} is mostly explained through {} and {}.",
                title_case(&subject),
                aspects[0],
                aspects[1]
            ),
        }),
        Inline::Cite(first),
        Inline::Cite(second),
        text(" Recent tests agree on the leaders but differ on value for money."),
        Inline::Cite(0),
    ])];
    blocks.push(Block::Heading(2, "Key points".into()));
    let mut items = Vec::new();
    for aspect in &aspects {
        let a = cite_index(ctx);
        let b = cite_index(ctx);
        items.push(Item {
            lead: vec![
                bold(capitalize(aspect)),
                text(format!(": {}", aspect_sentence(ctx, aspect))),
                Inline::Cite(a),
                Inline::Cite(b),
            ],
            sub: Vec::new(),
        });
    }
    blocks.push(Block::List {
        ordered: false,
        items,
    });
    if !explaining(ctx) {
        blocks.push(Block::Para(vec![text(
            "Here are the options reviewers rate highest:",
        )]));
        let usual = if short(ctx) { 2 } else { 3 };
        let count = pick_count(ctx, usual);
        let form = *ctx
            .mix
            .pick(&[PickForm::NameColon, PickForm::BoldWithPrice]);
        let table = !short(ctx) && ctx.mix.chance(0.5);
        blocks.extend(picks(ctx, form, count, table));
    }
    blocks.push(code_block(ctx));
    let local = local_cite(ctx);
    if let Some(block) = location_para(ctx, local) {
        blocks.push(block);
    }
    blocks.push(device_para(ctx));
    blocks.push(Block::Heading(2, "Bottom line".into()));
    let last = ctx.sources[ctx.sources.len() - 1].clone();
    blocks.push(Block::Para(vec![
        text(format!(
            "Shortlist two or three {subject} and compare them on "
        )),
        Inline::Code(aspects[0].to_string()),
        text("; "),
        Inline::Link(last.url, last.name),
        text(" keeps an up-to-date list."),
    ]));
    blocks
}

pub(super) fn compose_copilot(ctx: &mut Ctx) -> Vec<Block> {
    let subject = ctx.topic.subject.clone();
    let aspects = ctx.topic.aspects(&mut ctx.mix, 3);
    let mut blocks = vec![Block::Para(vec![text(format!(
        "Great question! Here's what you need to know about {subject}."
    ))])];
    blocks.push(Block::Heading(3, "The short answer".into()));
    let cite = cite_index(ctx);
    blocks.push(Block::Para(vec![
        text(format!(
            "Focus on {} first; everything else is a matter of taste.",
            aspects[0]
        )),
        Inline::Cite(cite),
    ]));
    blocks.push(Block::Heading(3, "What to look for".into()));
    let mut items = Vec::new();
    for aspect in &aspects {
        let cite = cite_index(ctx);
        items.push(Item {
            lead: vec![
                bold(capitalize(aspect)),
                text(format!(" – {}", aspect_sentence(ctx, aspect))),
                Inline::Cite(cite),
            ],
            sub: Vec::new(),
        });
    }
    blocks.push(Block::List {
        ordered: false,
        items,
    });
    if !short(ctx) || ctx.topic.field.is_some() {
        if explaining(ctx) {
            blocks.push(Block::Heading(3, "Getting started".into()));
            blocks.push(steps_list(ctx, 3));
        } else {
            let heading = picks_heading(ctx, &["Options worth a look", "Top picks"]);
            blocks.push(Block::Heading(3, heading));
            let count = pick_count(ctx, 3);
            if ctx.mix.chance(0.5) {
                blocks.extend(picks(ctx, PickForm::DashBestFor, count, true));
            } else {
                blocks.extend(picks(ctx, PickForm::BoldWithPrice, count, false));
            }
        }
        blocks.push(code_block(ctx));
    }
    let local = local_cite(ctx);
    if let Some(block) = location_para(ctx, local) {
        blocks.push(block);
    }
    blocks.push(device_para(ctx));
    blocks.push(Block::Para(vec![
        text("Would you like me to compare a couple of these, or check prices with "),
        Inline::Code(format!("{subject} deals")),
        text("?"),
    ]));
    blocks
}

/// The searches ChatGPT makes before answering: the subject, with the year, reviews, the
/// town asked from and prices; how many depends on the prompt and place.
pub(super) fn fanouts(request: &AiRequest, topic: &Topic, place: &Place) -> Vec<String> {
    if request.model != "chatgpt" {
        return Vec::new();
    }
    let subject = &topic.subject;
    let mut all = vec![
        subject.clone(),
        format!("{subject} 2025"),
        format!("{subject} reviews"),
    ];
    if place.is_set() {
        all.push(format!("{subject} {}", place.town()));
    }
    all.push(format!("{subject} price comparison"));
    let mut mix = Mix::of(&["fanouts", &request.content_key()]);
    let count = 2 + mix.below(4);
    all.truncate(count);
    all
}
