//! The pieces an answer is made of: its sources, sentences, paragraphs and lists, drawn from
//! the request's seed.

use super::super::place::Place;
use super::super::search;
use super::super::seed::{Mix, hash_parts};
use super::super::topic::{Intent, Topic, title_case};
use super::{Block, Ctx, DeviceClass, Inline, Item, Source, bold, capitalize, text};

/// How many pages an answer built on its searches cites.
const CITED_FROM_SEARCHES: usize = 6;

/// The pages an answer that searched `fanouts` first cites: the top results of each of its
/// searches from the same place, taken a rank at a time across the searches, so each search
/// gives its best page before any gives its second. A site that ranks for none of them is
/// never cited; one that ranks first for several is cited once.
pub(super) fn sources_from_fanouts(fanouts: &[String], request: &super::AiRequest) -> Vec<Source> {
    let ranked: Vec<Vec<search::RankedPage>> = fanouts
        .iter()
        .map(|query| {
            search::top_pages(
                query,
                request.country.as_deref(),
                request.subdivision.as_deref(),
                request.city.as_deref(),
                3,
            )
        })
        .collect();
    let mut sources: Vec<Source> = Vec::new();
    for rank in 0..3 {
        for pages in &ranked {
            let Some(page) = pages.get(rank) else {
                continue;
            };
            if sources.len() < CITED_FROM_SEARCHES && !sources.iter().any(|s| s.host == page.host) {
                sources.push(Source {
                    url: page.url.clone(),
                    host: page.host.clone(),
                    name: page.site.clone(),
                    title: page.title.clone(),
                    snippet: String::new(),
                });
            }
        }
    }
    sources
}

pub(super) fn pick_sources(topic: &Topic, place: &Place, model: &str) -> Vec<Source> {
    let sites = topic.category.sites;
    // The core pair depends on the prompt only, so every model cites it: the app compares
    // shared sources across columns. The rest is the model's own choice.
    let mut chosen = Mix::of(&["core", &topic.subject]).sample_indices(sites.len(), 2);
    let extra = match model {
        "perplexity" => 5,
        "gemini" => 3,
        _ => 2,
    };
    for index in Mix::of(&["own", &topic.subject, model]).sample_indices(sites.len(), extra) {
        if !chosen.contains(&index) {
            chosen.push(index);
        }
    }
    let mut sources: Vec<Source> = chosen
        .into_iter()
        .map(|index| {
            let site = sites[index];
            let variant = (hash_parts(&[&topic.subject, site.host]) % 3) as usize;
            Source {
                url: format!("https://{}/{}/{}", site.host, site.section, topic.slug),
                host: site.host.to_string(),
                name: site.name.to_string(),
                title: topic.article_title(site.name, variant),
                snippet: String::new(),
            }
        })
        .collect();
    if let Some(code) = &place.country_code {
        let local = place.country_sites();
        let count = if model == "perplexity" { 2 } else { 1 };
        for index in Mix::of(&["local", &topic.subject, code]).sample_indices(local.len(), count) {
            let site = &local[index];
            sources.push(Source {
                url: format!("https://{}/{}", site.host, topic.slug),
                host: site.host.clone(),
                name: site.name.clone(),
                title: topic.article_title(&site.name, index),
                snippet: String::new(),
            });
        }
        if model != "gemini"
            && let Some(site) = place.city_site(topic.category)
        {
            sources.push(Source {
                url: format!("https://{}/{}", site.host, topic.slug),
                host: site.host.clone(),
                name: site.name.clone(),
                title: format!("{} in {}", topic.title(), place.town()),
                snippet: String::new(),
            });
        }
    }
    sources
}

/// Longest a card's snippet runs before the card cuts it with " ...".
const SNIPPET_MAX_CHARS: usize = 160;

/// What a cited page's card quotes from it, as the chat pages cut it: a sentence or two of
/// the page on the topic, drawn from the page's address so a page quotes the same words
/// wherever it is cited. Some pages have none (a card then shows its title alone).
pub(super) fn snippet_of(topic: &Topic, url: &str) -> String {
    let mut mix = Mix::of(&["snippet", url, &topic.subject]);
    if mix.chance(0.15) {
        return String::new();
    }
    let aspects = topic.aspects(&mut mix, 2);
    let subject = &topic.subject;
    let pick = topic
        .picks(&mut mix, 1)
        .first()
        .map_or_else(|| subject.clone(), |p| capitalize(p));
    let text = match (topic.intent, mix.below(3)) {
        (Intent::Buying | Intent::Comparison, 0) => format!(
            "{pick}: the one to beat. We tested {} {subject} for {} and {}; {pick} came out ahead on most of them, though not on price.",
            6 + mix.below(20),
            aspects[0],
            aspects[1]
        ),
        (Intent::Buying | Intent::Comparison, 1) => format!(
            "How we chose: {} first, then {}. - {pick} - Best for most people. - Budget pick under the usual price.",
            capitalize(aspects[0]),
            aspects[1]
        ),
        (Intent::Buying | Intent::Comparison, _) => format!(
            "Our verdict after {} weeks of testing: {subject} differ most in {} and {}. {pick} remains the safe choice.",
            2 + mix.below(10),
            aspects[0],
            aspects[1]
        ),
        (_, 0) => format!(
            "{} in plain language. Start with {}, then {}: most problems come from skipping the first.",
            title_case(subject),
            aspects[0],
            aspects[1]
        ),
        (_, 1) => format!(
            "Step 1: {}. Step 2: {}. Our guide to {subject} walks through both with examples.",
            capitalize(aspects[0]),
            aspects[1]
        ),
        _ => format!(
            "Everything about {subject}: what {} means, why {} matters, and what to try first.",
            aspects[0], aspects[1]
        ),
    };
    if text.chars().count() > SNIPPET_MAX_CHARS {
        let cut: String = text.chars().take(SNIPPET_MAX_CHARS - 5).collect();
        format!("{} ...", cut.trim_end())
    } else {
        text
    }
}

pub(super) fn aspect_sentence(ctx: &mut Ctx, aspect: &str) -> String {
    let subject = ctx.topic.subject.clone();
    let shopping = matches!(ctx.topic.intent, Intent::Buying | Intent::Comparison);
    let Ctx { mix, .. } = ctx;
    if shopping {
        match mix.below(5) {
            0 => format!(
                "{} matters more than most reviews admit; {subject} that get this wrong are the ones people return.",
                capitalize(aspect)
            ),
            1 => format!(
                "Look closely at {aspect}: it separates good {subject} from merely fine ones."
            ),
            2 => format!(
                "For most people {aspect} is the deciding factor, especially for everyday use."
            ),
            3 => format!("Reviewers consistently rank {aspect} among the top three concerns."),
            _ => format!("Don't overpay for {aspect} you won't use, but don't skimp on it either."),
        }
    } else {
        match mix.below(5) {
            0 => format!(
                "{} is where most people get stuck with {subject} at first.",
                capitalize(aspect)
            ),
            1 => {
                format!("Guides on {subject} spend the most time on {aspect}, and for good reason.")
            }
            2 => format!("Getting {aspect} right early saves a lot of trouble later."),
            3 => format!(
                "Check {aspect} against what you actually need, not what the examples assume."
            ),
            _ => format!(
                "Experienced users single out {aspect} as the part worth understanding well."
            ),
        }
    }
}

pub(super) fn price_line(ctx: &mut Ctx) -> String {
    let (lo, hi) = ctx.topic.category.price_usd;
    let base = ctx.mix.between(u64::from(lo), u64::from(hi));
    let base = u32::try_from(base).unwrap_or(hi);
    if lo == 0 {
        format!(
            "free to start, paid plans from {}/month",
            ctx.place.price(base.max(5))
        )
    } else {
        format!("about {}", ctx.place.price(base))
    }
}

fn price_range(ctx: &Ctx) -> (String, String) {
    let (lo, hi) = ctx.topic.category.price_usd;
    (ctx.place.price(lo.max(1)), ctx.place.price(hi))
}

pub(super) fn code_block(ctx: &mut Ctx) -> Block {
    let slug = ctx.topic.slug.clone();
    if ctx.topic.category.technical {
        let text = if ctx.mix.chance(0.5) {
            format!(
                "{{\n  \"name\": \"{slug}\",\n  \"transport\": \"stdio\",\n  \"command\": \"npx\",\n  \"args\": [\"-y\", \"{slug}-server\"],\n  \"env\": {{ \"LOG_LEVEL\": \"info\" }}\n}}"
            )
        } else {
            format!(
                "# install and try it locally\ncurl -fsSL https://get.{slug}.dev/install.sh | sh\n{slug} --version\n{slug} init my-project && cd my-project\n{slug} run --port 8080"
            )
        };
        Block::Code {
            lang: if text.starts_with('{') {
                "json"
            } else {
                "bash"
            },
            text,
        }
    } else {
        let aspects = ctx.topic.aspects(&mut ctx.mix, 3);
        let (lo, hi) = price_range(ctx);
        let mut text = format!("{} checklist\n", ctx.topic.title());
        for aspect in aspects {
            text.push_str(&format!("[ ] {aspect}\n"));
        }
        text.push_str(&format!("[ ] budget: {lo} to {hi}"));
        Block::Code { lang: "text", text }
    }
}

pub(super) fn location_para(ctx: &mut Ctx, cite: Option<usize>) -> Option<Block> {
    if !ctx.place.is_set() {
        return None;
    }
    let (lo, hi) = price_range(ctx);
    let named = cite
        .and_then(|i| ctx.sources.get(i))
        .map(|s| s.name.clone());
    let shop = named
        .or_else(|| ctx.place.country_sites().first().map(|s| s.name.clone()))
        .unwrap_or_default();
    let town = ctx.place.town();
    let subject = &ctx.topic.subject;
    let sentence = if ctx.topic.category.technical {
        format!(
            " hosted plans for {subject} are billed locally from {hi} a month, there are regular meetups in {town}, and {shop} covers it for local readers."
        )
    } else {
        format!(
            " expect roughly {lo} to {hi} for {subject} in shops around {town}. Compare offers on {shop} before buying, and check local stock since availability differs by region."
        )
    };
    let mut inlines = vec![
        text("📍 "),
        bold(format!("In {}:", ctx.place.label())),
        text(sentence),
    ];
    if let Some(cite) = cite {
        inlines.push(Inline::Cite(cite));
    }
    Some(Block::Para(inlines))
}

pub(super) fn device_para(ctx: &Ctx) -> Block {
    let Some(device) = ctx.request.device else {
        return Block::Para(vec![text(
            "🖥️ In the desktop layout the comparison fits on one screen, with sources listed alongside.",
        )]);
    };
    let line = match ctx.class {
        DeviceClass::Phone => format!(
            "📱 Shown in the mobile layout on {device}: I kept this short, and sections collapse so you can tap to expand."
        ),
        DeviceClass::Tablet => format!(
            "📲 On {device} the tablet layout shows sources in a side panel; rotate to landscape for the full list."
        ),
        DeviceClass::Desktop => format!(
            "🖥️ In the desktop layout ({device}) the comparison fits on one screen, with sources listed alongside."
        ),
    };
    Block::Para(vec![Inline::Text(line)])
}

pub(super) fn cite_index(ctx: &mut Ctx) -> usize {
    ctx.next_cite += 1;
    ctx.next_cite % ctx.sources.len().max(1)
}

pub(super) fn local_cite(ctx: &Ctx) -> Option<usize> {
    // Local sources are appended after the topic's global ones.
    ctx.sources
        .iter()
        .position(|s| ctx.place.country_sites().iter().any(|l| l.host == s.host))
}

pub(super) fn steps_list(ctx: &mut Ctx, count: usize) -> Block {
    let aspects = ctx.topic.aspects(&mut ctx.mix, count);
    let subject = ctx.topic.subject.clone();
    let items = aspects
        .into_iter()
        .enumerate()
        .map(|(step, aspect)| Item {
            lead: vec![
                bold(format!("Step {}: {}", step + 1, capitalize(aspect))),
                text(format!(
                    " Decide what {aspect} means for your use of {subject}."
                )),
            ],
            sub: Vec::new(),
        })
        .collect();
    Block::List {
        ordered: true,
        items,
    }
}

/// An answer that explains rather than recommends; one about a product field ("CRM
/// software") puts its products forward whatever the question, as live answers do.
pub(super) fn explaining(ctx: &Ctx) -> bool {
    matches!(ctx.topic.intent, Intent::HowTo | Intent::Explainer) && ctx.topic.field.is_none()
}

pub(super) fn short(ctx: &Ctx) -> bool {
    ctx.class == DeviceClass::Phone
}

/// In some answers, a pick the model warns against or one it says it found nothing on, as
/// live answers name brands: a reading of mentions must tell these from recommendations.
/// Drawn from the answer's own seed, so a repeated ask repeats it.
pub(super) fn caveat_para(ctx: &mut Ctx) -> Option<Block> {
    if !matches!(ctx.topic.intent, Intent::Buying | Intent::Comparison) {
        return None;
    }
    let roll = ctx.mix.below(4);
    if roll > 1 {
        return None;
    }
    // A pick the answer did not put forward: a model warns of what it does not recommend.
    let unlisted: Vec<&'static str> = ctx
        .topic
        .pick_names()
        .into_iter()
        .filter(|p| !ctx.listed.contains(p))
        .collect();
    let pick = *unlisted.get(ctx.mix.below(unlisted.len().max(1)))?;
    let aspect = ctx.topic.aspects(&mut ctx.mix, 1).join("");
    let sentence = match roll {
        0 => format!(
            "Skip the {pick} if {aspect} matters to you: owners report durability issues after a season."
        ),
        _ => format!(
            "I couldn't find reliable information about the newest {pick}, so it is left out here."
        ),
    };
    Some(Block::Para(vec![text(sentence)]))
}
