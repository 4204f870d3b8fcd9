//! Simulated chatbot answers: an answer is first composed as neutral blocks in the model's
//! voice, then written out in the model's own chat-page markup (hidden labels, citation
//! styles), because the app must cope with each chatbot's page as the live service returns it.

use serde_json::{Map, Value, json};

use super::html::{esc, noise};
use super::place::Place;
use super::seed::{Mix, hash_parts};
use super::topic::{Intent, Topic, title_case, topic_of};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeviceClass {
    Phone,
    Tablet,
    Desktop,
}

pub(crate) static DEVICES: &[(&str, DeviceClass)] = &[
    ("iPhone 15 Pro Max", DeviceClass::Phone),
    ("iPhone 15", DeviceClass::Phone),
    ("iPhone 14 Plus", DeviceClass::Phone),
    ("iPhone SE (3rd generation)", DeviceClass::Phone),
    ("Samsung Galaxy S24 Ultra", DeviceClass::Phone),
    ("Samsung Galaxy S23", DeviceClass::Phone),
    ("Samsung Galaxy A54 5G", DeviceClass::Phone),
    ("Samsung Galaxy Z Fold5", DeviceClass::Phone),
    ("Pixel 8 (Pro)", DeviceClass::Phone),
    ("Pixel 8a", DeviceClass::Phone),
    ("Pixel 7", DeviceClass::Phone),
    ("OnePlus 12", DeviceClass::Phone),
    ("Xiaomi 14 Ultra", DeviceClass::Phone),
    ("Motorola Edge+ (2023)", DeviceClass::Phone),
    ("Sony Xperia 1 V", DeviceClass::Phone),
    ("iPad Air (5th generation)", DeviceClass::Tablet),
    ("iPad Pro 12.9\" (6th generation)", DeviceClass::Tablet),
    ("iPad mini (6th generation)", DeviceClass::Tablet),
    ("Samsung Galaxy Tab S9", DeviceClass::Tablet),
    ("Kindle Fire HD 10", DeviceClass::Tablet),
    ("Surface Pro 9", DeviceClass::Desktop),
    ("MacBook Pro 14\"", DeviceClass::Desktop),
    ("MacBook Air 13\" (M2)", DeviceClass::Desktop),
    ("iMac 24\"", DeviceClass::Desktop),
    ("Windows 11 – Chrome", DeviceClass::Desktop),
    ("Windows 11 – Edge", DeviceClass::Desktop),
    ("Windows 10 – Firefox", DeviceClass::Desktop),
    ("macOS – Safari", DeviceClass::Desktop),
    ("macOS – Chrome", DeviceClass::Desktop),
    ("Ubuntu 22.04 – Firefox", DeviceClass::Desktop),
    ("Chromebook Plus", DeviceClass::Desktop),
];

/// The canonical spelling of a device name, matched case-insensitively.
pub(crate) fn device_named(name: &str) -> Option<&'static str> {
    let wanted = name.trim().to_lowercase();
    DEVICES
        .iter()
        .find(|(device, _)| device.to_lowercase() == wanted)
        .map(|(device, _)| *device)
}

fn device_class(device: Option<&str>) -> DeviceClass {
    device
        .and_then(|name| DEVICES.iter().find(|(d, _)| *d == name))
        .map(|(_, class)| *class)
        .unwrap_or(DeviceClass::Desktop)
}

/// A validated completion request: everything that shapes the answer.
#[derive(Clone, Debug)]
pub(crate) struct AiRequest {
    pub prompt: String,
    pub model: &'static str,
    pub device: Option<&'static str>,
    pub country: Option<String>,
    pub subdivision: Option<String>,
    pub city: Option<String>,
    pub language: Option<String>,
    pub display: Option<String>,
}

impl AiRequest {
    /// Stable text of the fields that shape the answer, for seeds and cache keys.
    pub(crate) fn content_key(&self) -> String {
        let parts = [
            self.model,
            &self.prompt,
            self.device.unwrap_or(""),
            self.country.as_deref().unwrap_or(""),
            self.subdivision.as_deref().unwrap_or(""),
            self.city.as_deref().unwrap_or(""),
            self.language.as_deref().unwrap_or(""),
            self.display.as_deref().unwrap_or(""),
        ];
        parts.join("\u{1f}")
    }
}

#[derive(Clone, Debug)]
struct Source {
    url: String,
    host: String,
    name: String,
    title: String,
}

enum Inline {
    Text(String),
    Bold(String),
    Code(String),
    Link(String, String),
    /// Index into the answer's sources.
    Cite(usize),
}

struct Item {
    lead: Vec<Inline>,
    sub: Vec<Vec<Inline>>,
}

enum Block {
    Heading(u8, String),
    Para(Vec<Inline>),
    List { ordered: bool, items: Vec<Item> },
    Code { lang: &'static str, text: String },
}

fn text(s: impl Into<String>) -> Inline {
    Inline::Text(s.into())
}

fn bold(s: impl Into<String>) -> Inline {
    Inline::Bold(s.into())
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The parts of a chat page, as the JSON completion carries them.
pub(crate) struct ChatPage {
    pub prompt_html: String,
    pub completion_html: String,
    pub sources_html: String,
    pub ads_html: String,
    pub fanouts: Vec<String>,
    pub page_html: String,
    seed: u64,
}

struct Ctx<'a> {
    request: &'a AiRequest,
    topic: Topic,
    place: Place,
    class: DeviceClass,
    sources: Vec<Source>,
    mix: Mix,
    /// Citations rotate through the sources from a seeded start, so each gets cited.
    next_cite: usize,
}

/// Builds the whole page; `variation` is 0 for cacheable answers and a fresh number otherwise.
pub(crate) fn build(request: &AiRequest, variation: u64) -> ChatPage {
    let seed = hash_parts(&[&request.content_key(), &variation.to_string()]);
    let topic = topic_of(&request.prompt);
    let place = Place::new(
        request.country.as_deref(),
        request.subdivision.as_deref(),
        request.city.as_deref(),
    );
    let sources = pick_sources(&topic, &place, request.model);
    let mut ctx = Ctx {
        request,
        topic,
        place,
        class: device_class(request.device),
        next_cite: (seed % 7) as usize,
        sources,
        mix: Mix::new(seed),
    };
    let blocks = match request.model {
        "gemini" => compose_gemini(&mut ctx),
        "perplexity" => compose_perplexity(&mut ctx),
        "copilot" => compose_copilot(&mut ctx),
        _ => compose_chatgpt(&mut ctx),
    };
    let mut ids = Mix::new(seed ^ 0x5eed);
    let prompt_html = prompt_markup(request.model, &request.prompt, &mut ids);
    let completion_html = completion_markup(request.model, &blocks, &ctx.sources, &mut ids);
    let sources_html = sources_markup(request.model, &ctx.sources);
    let ads_html = ads_markup(&ctx);
    let fanouts = fanouts(&ctx);
    let page_html = page_markup(
        request.model,
        &prompt_html,
        &completion_html,
        &sources_html,
        &ads_html,
    );
    ChatPage {
        prompt_html,
        completion_html,
        sources_html,
        ads_html,
        fanouts,
        page_html,
        seed,
    }
}

/// The JSON completion. Unset optional fields are omitted for ChatGPT (as in the live sample)
/// and empty strings for the others, since the live service does both.
pub(crate) fn completion_json(request: &AiRequest, page: &ChatPage) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    body.insert("query".into(), json!(request.prompt));
    body.insert("html".into(), json!(page.page_html));
    body.insert("prompt".into(), json!(page.prompt_html));
    body.insert("completion".into(), json!(page.completion_html));
    body.insert("sources".into(), json!(page.sources_html));
    body.insert("ads".into(), json!(page.ads_html));
    body.insert("fanouts".into(), json!(page.fanouts));
    let optional = [
        ("device", request.device.map(str::to_string)),
        ("country", request.country.clone()),
        ("subdivision", request.subdivision.clone()),
        ("city", request.city.clone()),
        ("language", request.language.clone()),
        ("display", request.display.clone()),
    ];
    for (name, value) in optional {
        match value {
            Some(value) => {
                body.insert(name.into(), json!(value));
            }
            None if request.model != "chatgpt" => {
                body.insert(name.into(), json!(""));
            }
            None => {}
        }
    }
    Value::Object(body)
}

/// The page as a browser fetched it: the rendered page with its scripts and styles.
pub(crate) fn raw_page(page: &ChatPage) -> String {
    let mut mix = Mix::new(page.seed ^ 0x7a3);
    let head_noise = noise(&mut mix, 12);
    let tail_noise = noise(&mut mix, 9);
    page.page_html
        .replacen("</head>", &format!("{head_noise}</head>"), 1)
        .replacen("</body>", &format!("{tail_noise}</body>"), 1)
}

fn pick_sources(topic: &Topic, place: &Place, model: &str) -> Vec<Source> {
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
            });
        }
    }
    sources
}

fn aspect_sentence(ctx: &mut Ctx, aspect: &str) -> String {
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

fn price_line(ctx: &mut Ctx) -> String {
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

fn code_block(ctx: &mut Ctx) -> Block {
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

fn location_para(ctx: &mut Ctx, cite: Option<usize>) -> Option<Block> {
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

fn device_para(ctx: &Ctx) -> Block {
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

fn cite_index(ctx: &mut Ctx) -> usize {
    ctx.next_cite += 1;
    ctx.next_cite % ctx.sources.len().max(1)
}

fn local_cite(ctx: &Ctx) -> Option<usize> {
    // Local sources are appended after the topic's global ones.
    ctx.sources
        .iter()
        .position(|s| ctx.place.country_sites().iter().any(|l| l.host == s.host))
}

fn picks_list(ctx: &mut Ctx, count: usize, ordered: bool, with_sub: bool) -> Block {
    let picks = ctx.topic.picks(&mut ctx.mix, count);
    let mut items = Vec::new();
    for pick in picks {
        let price = price_line(ctx);
        let aspect = ctx.topic.aspects(&mut ctx.mix, 1).join("");
        if with_sub {
            items.push(Item {
                lead: vec![bold(capitalize(pick))],
                sub: vec![
                    vec![bold("Price: "), text(capitalize(&price))],
                    vec![
                        bold("Best for: "),
                        text(format!("people who care most about {aspect}")),
                    ],
                ],
            });
        } else {
            items.push(Item {
                lead: vec![
                    bold(capitalize(pick)),
                    text(format!(" ({price}): strong on {aspect}.")),
                ],
                sub: Vec::new(),
            });
        }
    }
    Block::List { ordered, items }
}

fn steps_list(ctx: &mut Ctx, count: usize) -> Block {
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

fn explaining(ctx: &Ctx) -> bool {
    matches!(ctx.topic.intent, Intent::HowTo | Intent::Explainer)
}

fn short(ctx: &Ctx) -> bool {
    ctx.class == DeviceClass::Phone
}

fn compose_chatgpt(ctx: &mut Ctx) -> Vec<Block> {
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
    if !short(ctx) {
        if explaining(ctx) {
            blocks.push(Block::Heading(3, "🧭 How it works".into()));
            blocks.push(steps_list(ctx, 3));
        } else {
            blocks.push(Block::Heading(3, "🏆 Top picks".into()));
            blocks.push(picks_list(ctx, 3, true, false));
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

fn compose_gemini(ctx: &mut Ctx) -> Vec<Block> {
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
        blocks.push(Block::Heading(2, "Top Recommendations".into()));
        let count = if short(ctx) { 2 } else { 4 };
        blocks.push(picks_list(ctx, count, false, true));
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

fn compose_perplexity(ctx: &mut Ctx) -> Vec<Block> {
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

fn compose_copilot(ctx: &mut Ctx) -> Vec<Block> {
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
    if !short(ctx) {
        if explaining(ctx) {
            blocks.push(Block::Heading(3, "Getting started".into()));
            blocks.push(steps_list(ctx, 3));
        } else {
            blocks.push(Block::Heading(3, "Options worth a look".into()));
            blocks.push(picks_list(ctx, 3, true, false));
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

fn fanouts(ctx: &Ctx) -> Vec<String> {
    if ctx.request.model != "chatgpt" {
        return Vec::new();
    }
    let subject = &ctx.topic.subject;
    let mut all = vec![
        subject.clone(),
        format!("{subject} 2025"),
        format!("{subject} reviews"),
    ];
    if ctx.place.is_set() {
        all.push(format!("{subject} {}", ctx.place.town()));
    }
    all.push(format!("{subject} price comparison"));
    let mut mix = Mix::of(&["fanouts", &ctx.request.content_key()]);
    let count = 2 + mix.below(4);
    all.truncate(count);
    all
}

fn ads_markup(ctx: &Ctx) -> String {
    let mut mix = Mix::of(&["ads", &ctx.request.content_key()]);
    if !mix.chance(1.0 / 3.0) {
        return String::new();
    }
    let subject = &ctx.topic.subject;
    let shop_host = match ctx.place.country_sites().get(1) {
        Some(site) => site.host.clone(),
        None => format!("www.{}-store.com", ctx.topic.category.local_word),
    };
    let offers = [
        (
            format!("https://{shop_host}/deals/{}", ctx.topic.slug),
            format!("{} – Sale Now On", title_case(subject)),
            format!("Free delivery on {subject}. Order today."),
        ),
        (
            format!(
                "https://www.compare-{}.com/{}",
                ctx.topic.category.key, ctx.topic.slug
            ),
            format!("Compare {} Prices", title_case(subject)),
            "Hundreds of offers side by side.".to_string(),
        ),
    ];
    let count = 1 + mix.below(2);
    let mut html = String::from(
        "<div class=\"sponsored-results\" data-testid=\"sponsored-results\"><span class=\"sr-only\">Sponsored</span>",
    );
    for (url, title, body) in offers.iter().take(count) {
        html.push_str(&format!(
            "<a href=\"{}?utm_source={}&amp;utm_medium=cpc\" rel=\"sponsored noopener\" target=\"_blank\" data-sponsored=\"true\" class=\"ad-card\"><span class=\"ad-label\">Sponsored</span> <span class=\"ad-title\">{}</span> <span class=\"ad-body\">{}</span></a>",
            esc(url),
            ctx.request.model,
            esc(title),
            esc(body)
        ));
    }
    html.push_str("</div>");
    html
}

fn prompt_markup(model: &str, prompt: &str, ids: &mut Mix) -> String {
    let prompt = esc(prompt);
    match model {
        "gemini" => format!(
            "<user-query class=\"ng-star-inserted\"><h2 class=\"cdk-visually-hidden\">You said</h2><div class=\"query-content\" id=\"user-query-content-{}\"><div class=\"query-text gds-body-l\" dir=\"ltr\"><p class=\"query-text-line ng-star-inserted\">{prompt}</p></div></div></user-query>",
            ids.next_u64() & 0xffff
        ),
        "perplexity" => format!(
            "<div class=\"group/query\" data-testid=\"user-query\"><span class=\"sr-only\">Your question</span><h1 class=\"font-display text-textMain\"><span class=\"select-text whitespace-pre-line\">{prompt}</span></h1></div>"
        ),
        "copilot" => format!(
            "<div class=\"group/user-message\" data-content=\"user-message\"><h6 class=\"sr-only\">You said</h6><div class=\"rounded-2xl bg-user-message px-4 py-2.5\"><div class=\"whitespace-pre-wrap break-words\">{prompt}</div></div></div>"
        ),
        _ => format!(
            "<section class=\"text-token-text-primary w-full\" dir=\"auto\" data-turn-id=\"{id}\" data-testid=\"conversation-turn-1\" data-turn=\"user\"><h4 class=\"sr-only select-none\">You said:</h4><div class=\"text-base my-auto mx-auto pt-3\"><div data-message-author-role=\"user\" data-message-id=\"{id}\" dir=\"auto\" class=\"min-h-8 text-message relative flex w-full flex-col items-end\"><div class=\"user-message-bubble-color relative rounded-[22px] px-4 py-2.5\"><div class=\"whitespace-pre-wrap\">{prompt}</div></div></div></div></section>",
            id = ids.uuid_like()
        ),
    }
}

fn cite_markup(model: &str, sources: &[Source], index: usize) -> String {
    let Some(source) = sources.get(index) else {
        return String::new();
    };
    let number = index + 1;
    match model {
        "gemini" => format!(
            "<sup class=\"superscript\" data-turn-source-index=\"{number}\"><source-footnote class=\"ng-star-inserted\"><span class=\"citation-chip\" aria-label=\"{name}\">{number}</span></source-footnote></sup>",
            name = esc(&source.name)
        ),
        "perplexity" => format!(
            " <a href=\"{url}\" target=\"_blank\" rel=\"noopener\" class=\"citation ml-xs inline\" aria-label=\"{name}\"><span class=\"rounded-badge\">{name}</span></a>",
            url = esc(&source.url),
            name = esc(source.host.trim_start_matches("www."))
        ),
        "copilot" => format!("<sup class=\"citation\" data-citation=\"{number}\">[{number}]</sup>"),
        _ => format!(
            "<span class=\"\" data-state=\"closed\"><span class=\"ms-1 inline-flex max-w-full items-center select-none relative\" data-testid=\"webpage-citation-pill\"><a href=\"{url}?utm_source=chatgpt.com\" target=\"_blank\" rel=\"noopener\" alt=\"{url}?utm_source=chatgpt.com\" class=\"flex h-4.5 overflow-hidden rounded-xl px-2 text-[9px] font-medium\"><span class=\"relative start-0 bottom-0 flex h-full w-full items-center\"><span class=\"max-w-[15ch] grow truncate overflow-hidden text-center\">{name}</span></span></a></span></span>",
            url = esc(&source.url),
            name = esc(&source.name)
        ),
    }
}

fn inlines_markup(model: &str, inlines: &[Inline], sources: &[Source]) -> String {
    let mut html = String::new();
    for inline in inlines {
        match inline {
            Inline::Text(t) => html.push_str(&esc(t)),
            Inline::Bold(t) => html.push_str(&format!("<strong>{}</strong>", esc(t))),
            Inline::Code(t) => html.push_str(&format!("<code>{}</code>", esc(t))),
            Inline::Link(href, t) => html.push_str(&format!(
                "<a href=\"{}\" target=\"_blank\" rel=\"noopener\">{}</a>",
                esc(href),
                esc(t)
            )),
            Inline::Cite(index) => html.push_str(&cite_markup(model, sources, *index)),
        }
    }
    html
}

fn blocks_markup(model: &str, blocks: &[Block], sources: &[Source]) -> String {
    let mut html = String::new();
    for block in blocks {
        match block {
            Block::Heading(level, t) => {
                html.push_str(&format!("<h{level}>{}</h{level}>\n", esc(t)));
            }
            Block::Para(inlines) => {
                html.push_str(&format!(
                    "<p>{}</p>\n",
                    inlines_markup(model, inlines, sources)
                ));
            }
            Block::List { ordered, items } => {
                let tag = if *ordered { "ol" } else { "ul" };
                html.push_str(&format!("<{tag}>\n"));
                for item in items {
                    html.push_str(&format!(
                        "<li>\n<p>{}</p>",
                        inlines_markup(model, &item.lead, sources)
                    ));
                    if !item.sub.is_empty() {
                        html.push_str("\n<ul>\n");
                        for sub in &item.sub {
                            html.push_str(&format!(
                                "<li>\n<p>{}</p>\n</li>\n",
                                inlines_markup(model, sub, sources)
                            ));
                        }
                        html.push_str("</ul>");
                    }
                    html.push_str("\n</li>\n");
                }
                html.push_str(&format!("</{tag}>\n"));
            }
            Block::Code { lang, text } => {
                html.push_str(&format!(
                    "<pre class=\"overflow-visible!\"><div class=\"code-header\"><span>{lang}</span><button class=\"copy\">Copy code</button></div><code class=\"whitespace-pre! language-{lang}\">{}</code></pre>\n",
                    esc(text)
                ));
            }
        }
    }
    html
}

fn completion_markup(model: &str, blocks: &[Block], sources: &[Source], ids: &mut Mix) -> String {
    let body = blocks_markup(model, blocks, sources);
    match model {
        "gemini" => format!(
            "<model-response class=\"ng-star-inserted\"><h2 class=\"cdk-visually-hidden\">Gemini said</h2><response-container><message-content id=\"message-content-id-r_{:x}\" class=\"model-response-text\"><div class=\"markdown markdown-main-panel\" dir=\"ltr\">{body}</div></message-content></response-container></model-response>",
            ids.next_u64() & 0xffff_ffff
        ),
        "perplexity" => format!(
            "<div class=\"answer-panel\" data-testid=\"answer\"><h2 class=\"sr-only\">Perplexity answered</h2><div dir=\"auto\" class=\"prose text-pretty dark:prose-invert inline leading-relaxed\">{body}</div></div>"
        ),
        "copilot" => {
            let mut references = String::from(
                "<div class=\"references\" data-testid=\"references\"><h3>References</h3><ol>",
            );
            for (i, source) in sources.iter().enumerate() {
                references.push_str(&format!(
                    "<li id=\"ref-{}\"><a href=\"{}\" target=\"_blank\" rel=\"noopener\">{}</a> <span class=\"ref-host\">{}</span></li>",
                    i + 1,
                    esc(&source.url),
                    esc(&source.title),
                    esc(&source.host)
                ));
            }
            references.push_str("</ol></div>");
            format!(
                "<div class=\"group/ai-message\" data-content=\"ai-message\"><h6 class=\"sr-only\">Copilot said</h6><div class=\"space-y-3 break-words\">{body}</div>{references}</div>"
            )
        }
        _ => format!(
            "<section class=\"text-token-text-primary w-full\" dir=\"auto\" data-turn-id=\"request-WEB:{turn}\" data-testid=\"conversation-turn-2\" data-turn=\"assistant\"><h4 class=\"sr-only select-none\">ChatGPT said:</h4><div class=\"text-base my-auto mx-auto pb-10\"><div data-message-author-role=\"assistant\" data-message-id=\"{message}\" dir=\"auto\" data-message-model-slug=\"gpt-5-3\" class=\"min-h-8 text-message relative flex w-full flex-col\"><div class=\"markdown prose dark:prose-invert w-full wrap-break-word light markdown-new-styling\">{body}</div></div></div></section>",
            turn = ids.uuid_like(),
            message = ids.uuid_like()
        ),
    }
}

fn sources_markup(model: &str, sources: &[Source]) -> String {
    match model {
        "perplexity" => {
            let mut html = String::from(
                "<div class=\"sources-grid\" data-testid=\"sources\"><h2 class=\"sr-only\">Sources</h2>",
            );
            for (i, source) in sources.iter().enumerate() {
                html.push_str(&format!(
                    "<a href=\"{url}\" target=\"_blank\" rel=\"noopener\" class=\"source-card\"><div class=\"line-clamp-2\">{title}</div><div class=\"flex items-center\"><img src=\"https://www.google.com/s2/favicons?sz=32&amp;domain={host}\" alt=\"\"><span>{host}</span><span class=\"index\">{n}</span></div></a>",
                    url = esc(&source.url),
                    title = esc(&source.title),
                    host = esc(&source.host),
                    n = i + 1
                ));
            }
            html.push_str("</div>");
            html
        }
        "gemini" => {
            // The footnote chips carry no URLs; the sources panel does.
            let mut html = String::from(
                "<sources-list class=\"ng-star-inserted\"><h2 class=\"cdk-visually-hidden\">Sources</h2><div class=\"sources-list-container\">",
            );
            for source in sources {
                html.push_str(&format!(
                    "<a class=\"source-link\" href=\"{}\" target=\"_blank\"><span class=\"source-title\">{}</span><span class=\"source-domain\">{}</span></a>",
                    esc(&source.url),
                    esc(&source.title),
                    esc(&source.host)
                ));
            }
            html.push_str("</div></sources-list>");
            html
        }
        _ => String::new(),
    }
}

fn page_markup(model: &str, prompt: &str, completion: &str, sources: &str, ads: &str) -> String {
    let (title, lang_class) = match model {
        "gemini" => ("Google Gemini", "gemini-app"),
        "perplexity" => ("Perplexity", "perplexity-app"),
        "copilot" => ("Microsoft Copilot: Your AI companion", "copilot-app"),
        _ => ("ChatGPT", "chatgpt-app"),
    };
    format!(
        "<!DOCTYPE html><html lang=\"en-US\" class=\"{lang_class}\"><head><meta charset=\"UTF-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{title}</title><link rel=\"icon\" href=\"/favicon.ico\"></head><body><div id=\"root\"><main class=\"relative h-full w-full\"><div id=\"thread\" role=\"presentation\">{prompt}{completion}</div><aside class=\"sources\">{sources}</aside>{ads}</main></div></body></html>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(model: &'static str) -> AiRequest {
        AiRequest {
            prompt: "best hiking boots".into(),
            model,
            device: None,
            country: Some("DE".into()),
            subdivision: None,
            city: Some("Munich".into()),
            language: None,
            display: None,
        }
    }

    #[test]
    fn each_model_has_its_hidden_label_and_citation_style() {
        let chatgpt = build(&request("chatgpt"), 0);
        assert!(
            chatgpt
                .completion_html
                .contains("<h4 class=\"sr-only select-none\">ChatGPT said:</h4>")
        );
        assert!(chatgpt.completion_html.contains("utm_source=chatgpt.com"));
        assert!(chatgpt.completion_html.contains("webpage-citation-pill"));
        assert!(chatgpt.sources_html.is_empty());
        assert!((2..=5).contains(&chatgpt.fanouts.len()));
        let gemini = build(&request("gemini"), 0);
        assert!(
            gemini
                .completion_html
                .contains("<h2 class=\"cdk-visually-hidden\">")
        );
        assert!(!gemini.completion_html.contains("href="));
        assert!(gemini.fanouts.is_empty());
        let copilot = build(&request("copilot"), 0);
        assert!(copilot.completion_html.contains("<h6 class=\"sr-only\">"));
        assert!(copilot.completion_html.contains("References"));
        let perplexity = build(&request("perplexity"), 0);
        assert!(perplexity.sources_html.matches("href=").count() >= 6);
        for page in [&chatgpt, &gemini, &copilot, &perplexity] {
            assert!(page.completion_html.contains("<pre"));
            assert!(page.completion_html.contains("<code"));
            assert!(page.completion_html.contains("Munich"));
            assert!(page.page_html.contains(&page.completion_html));
        }
    }

    #[test]
    fn models_share_some_sources_and_location_changes_them() {
        let chatgpt = build(&request("chatgpt"), 0);
        let perplexity = build(&request("perplexity"), 0);
        // Every model cites the prompt's core pair.
        let topic = topic_of("best hiking boots");
        let place = Place::new(Some("DE"), None, Some("Munich"));
        let a = pick_sources(&topic, &place, "chatgpt");
        let b = pick_sources(&topic, &place, "perplexity");
        assert_eq!(a[0].url, b[0].url);
        assert!(chatgpt.completion_html.contains(".de/"));
        assert!(perplexity.sources_html.contains(".de/"));
        let phone = build(
            &AiRequest {
                device: Some("iPhone 15"),
                ..request("chatgpt")
            },
            0,
        );
        assert!(phone.completion_html.len() < chatgpt.completion_html.len());
        assert!(phone.completion_html.contains("mobile layout"));
    }

    #[test]
    fn variation_changes_the_page_and_zero_repeats_it() {
        let a = build(&request("gemini"), 0).page_html;
        let b = build(&request("gemini"), 0).page_html;
        let c = build(&request("gemini"), 1).page_html;
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
