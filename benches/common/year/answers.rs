//! The answers of a generated year: a pool of completions in the shape the live service
//! returns (JSON with the page's parts as HTML), a few KB each, naming five to eight of the
//! set's brands in varying order, with products, a caution now and then, cited pages and a
//! name or two nobody tracks (for discovery). Each model has its own markup, as on the live
//! service, and its own variants; a call's answer is one of its model's variants, with the
//! call's prompt written in.

use serde_json::{Map, Value, json};

/// The set's brands: name, domain, and a product of theirs.
pub const BRANDS: [(&str, &str, &str); 12] = [
    ("Lowa", "lowa.com", "Renegade GTX Mid"),
    ("Merrell", "merrell.com", "Moab 3"),
    ("Salomon", "salomon.com", "X Ultra 4 GTX"),
    ("Keen", "keenfootwear.com", "Targhee III"),
    ("Hoka", "hoka.com", "Kaha 2 GTX"),
    ("Scarpa", "scarpa.com", "Zodiac Plus GTX"),
    ("La Sportiva", "lasportiva.com", "Nucleo High II"),
    ("Columbia", "columbia.com", "Newton Ridge Plus"),
    ("Danner", "danner.com", "Mountain 600"),
    ("Vasque", "vasque.com", "Breeze LT"),
    ("Oboz", "obozfootwear.com", "Sawtooth X"),
    ("Altra", "altrarunning.com", "Lone Peak Hiker 2"),
];

/// Names the answers put forward that the set does not track.
const UNTRACKED: [(&str, &str); 6] = [
    ("Asolo", "Fugitive GTX"),
    ("Zamberlan", "Vioz GTX"),
    ("Timberland", "White Ledge"),
    ("Meindl", "Bhutan MFS"),
    ("Mammut", "Ducan High"),
    ("Adidas Terrex", "Free Hiker 2"),
];

/// The sites answers cite (besides the brands' own).
const SITES: [(&str, &str); 10] = [
    ("www.rei.com", "/learn/expert-advice/hiking-boots.html"),
    (
        "www.outdoorgearlab.com",
        "/topics/shoes-and-boots/best-hiking-boots",
    ),
    ("www.switchbacktravel.com", "/best-hiking-boots"),
    (
        "www.reddit.com",
        "/r/hiking/comments/1b2c3d/best_boots_this_year/",
    ),
    ("www.backpacker.com", "/gear/footwear/best-hiking-boots/"),
    ("www.runnersworld.com", "/gear/a20865766/best-hiking-shoes/"),
    ("www.cleverhiker.com", "/best-hiking-boots/"),
    ("www.youtube.com", "/watch?v=q1w2e3r4t5y"),
    ("en.wikipedia.org", "/wiki/Hiking_boot"),
    ("www.amazon.com", "/s?k=hiking+boots"),
];

const FEATURES: [&str; 8] = [
    "a waterproof membrane that kept feet dry through stream crossings",
    "a wide toe box that leaves room for swelling on long descents",
    "a stiff shank that steadies the foot under a heavy pack",
    "a light, flexible build that needs almost no break-in",
    "a grippy rubber outsole that holds on wet rock and loose scree",
    "a cushioned midsole that softens long days on hard-packed trails",
    "ankle support that keeps rolled ankles at bay on rocky ground",
    "a resoleable welted construction that lasts for many seasons",
];

const PRAISE: [&str; 6] = [
    "Reviewers praise its comfort straight out of the box",
    "Testers found it held up after hundreds of trail miles",
    "Owners like how it breathes on warm summer hikes",
    "Long-distance hikers rate its support highly",
    "It is one of the most recommended boots on hiking forums",
    "Guides often pick it for multi-day trips",
];

const DOUBTS: [&str; 6] = [
    "though it runs a little narrow",
    "though it feels heavy on short day hikes",
    "though the laces loosen on long descents",
    "though it is pricier than most",
    "though it needs a few walks to break in",
    "though the tongue can let in grit",
];

/// The models of the set, in the order of its calls.
pub const MODELS: [&str; 4] = ["chatgpt", "gemini", "perplexity", "copilot"];

/// Variants of each model's answer.
pub const VARIANTS: usize = 12;

/// A small deterministic spread (SplitMix64).
pub fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Where the prompt goes in a template.
pub const PROMPT: &str = "@@PROMPT@@";

/// A cited page, marked as the model marks its citations.
fn cite(model: &str, host: &str, path: &str) -> String {
    let label = host.trim_start_matches("www.");
    match model {
        "chatgpt" => {
            let join = if path.contains('?') { '&' } else { '?' };
            format!(
                "<span data-testid=\"webpage-citation-pill\"><a href=\"https://{host}{path}{join}utm_source=chatgpt.com\" target=\"_blank\" rel=\"noopener\">{label}</a></span>"
            )
        }
        "gemini" => format!(
            "<source-footnote class=\"ng-star-inserted\"><sup class=\"superscript\" data-turn-source-index=\"1\"><a href=\"https://{host}{path}\" target=\"_blank\">{label}</a></sup></source-footnote>"
        ),
        "perplexity" => format!(
            "<a href=\"https://{host}{path}\" class=\"citation inline-flex\" target=\"_blank\" rel=\"noopener\"><span class=\"rounded-badge px-1\">{label}</span></a>"
        ),
        _ => format!(
            "<a href=\"https://{host}{path}\" class=\"cite\" target=\"_blank\" rel=\"noopener\" aria-label=\"{label}\"><sup>{label}</sup></a>"
        ),
    }
}

/// The answer's blocks: an introduction, the picks as a numbered list, the untracked
/// names, and how to choose.
fn content(model: &str, variant: usize) -> (String, Vec<(String, String)>) {
    let seed = mix((MODELS.iter().position(|m| *m == model).unwrap_or(0) * 1_000 + variant) as u64);
    // The brands named, in an order of this variant's: five to eight of them.
    let mut order: Vec<usize> = (0..BRANDS.len()).collect();
    let mut state = seed;
    for i in (1..order.len()).rev() {
        state = mix(state);
        order.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let named = 5 + (seed % 4) as usize;
    order.truncate(named);
    let cautioned = (seed >> 8) as usize % (named + 2);
    let mut cited = Vec::new();
    let mut html = format!(
        "<p>For “{PROMPT}”, these are the boots that come up most in lab tests, long-term reviews and what hikers report on forums:</p>\n<ol>\n"
    );
    for (rank, &b) in order.iter().enumerate() {
        let (brand, domain, product) = BRANDS[b];
        state = mix(state ^ b as u64);
        let feature = FEATURES[(state % FEATURES.len() as u64) as usize];
        let praise = PRAISE[((state >> 8) % PRAISE.len() as u64) as usize];
        let doubt = DOUBTS[((state >> 16) % DOUBTS.len() as u64) as usize];
        let (host, path) = SITES[((state >> 24) % SITES.len() as u64) as usize];
        let mut cites = cite(model, host, path);
        cited.push((host.to_string(), path.to_string()));
        if (state >> 32).is_multiple_of(3) {
            let own = format!("/products/{}", product.to_lowercase().replace(' ', "-"));
            cites.push_str(&cite(model, &format!("www.{domain}"), &own));
            cited.push((format!("www.{domain}"), own));
        }
        let lead = match rank {
            0 => "Best overall: our top pick for most hikers, with".to_string(),
            1 => "Best for wet trails, with".to_string(),
            _ if rank == cautioned => {
                "Be careful with this one: several owners report the sole coming apart after a season, so we would avoid it for long trips despite".to_string()
            }
            _ => "A solid choice if you want".to_string(),
        };
        html.push_str(&format!(
            "<li><p><strong>{brand} {product}</strong> — {lead} {feature}. {praise}, {doubt}. {cites}</p></li>\n"
        ));
    }
    html.push_str("</ol>\n");
    let (other, other_product) = UNTRACKED[(seed >> 16) as usize % UNTRACKED.len()];
    let (second, second_product) = UNTRACKED[(seed >> 24) as usize % UNTRACKED.len()];
    html.push_str(&format!(
        "<p>Also worth a look: the <strong>{other} {other_product}</strong>, a classic leather boot with a loyal following, and the <strong>{second} {second_product}</strong> if you can find it in your size.</p>\n"
    ));
    html.push_str(
        "<h3>How to choose</h3>\n<p>Try boots on in the afternoon, with the socks you hike in; a membrane keeps water out but breathes less. Tell me where you hike and I can narrow this down.</p>\n",
    );
    (html, cited)
}

/// The answer of `model`'s variant `variant` as the service returns it, with [`PROMPT`]
/// where the call's prompt goes.
pub fn template(model: &str, variant: usize) -> String {
    let (answer, cited) = content(model, variant);
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    body.insert("query".into(), json!(PROMPT));
    let (prompt, completion, sources) = match model {
        "chatgpt" => (
            format!("<div class=\"whitespace-pre-wrap\">{PROMPT}</div>"),
            format!(
                "<section class=\"text-token-text-primary w-full\" dir=\"auto\" data-testid=\"conversation-turn-2\" data-turn=\"assistant\"><h4 class=\"sr-only select-none\">ChatGPT said:</h4><div class=\"text-base my-auto mx-auto\"><div data-message-author-role=\"assistant\" data-message-model-slug=\"gpt-5-3\" class=\"min-h-8 text-message relative flex w-full flex-col\"><div class=\"markdown prose dark:prose-invert w-full wrap-break-word light markdown-new-styling\">{answer}</div></div></div></section>"
            ),
            String::new(),
        ),
        "gemini" => (
            format!(
                "<user-query class=\"ng-star-inserted\"><div class=\"query-text\"><p class=\"query-text-line\">{PROMPT}</p></div></user-query>"
            ),
            format!(
                "<model-response class=\"ng-star-inserted\"><response-container><message-content class=\"model-response-text\"><div class=\"markdown markdown-main-panel\" dir=\"ltr\">{answer}</div></message-content></response-container></model-response>"
            ),
            sources_panel("context-sidebar", &cited),
        ),
        "perplexity" => (
            format!("<h1 class=\"group/query\"><span class=\"select-text\">{PROMPT}</span></h1>"),
            format!(
                "<div dir=\"auto\" class=\"prose dark:prose-invert inline leading-normal break-words min-w-0\">{answer}</div>"
            ),
            sources_panel("div", &cited),
        ),
        _ => (
            format!(
                "<div class=\"font-ligatures-none relative h-fit whitespace-pre-wrap\">{PROMPT}</div>"
            ),
            format!(
                "<div data-content=\"ai-message\"><h6 class=\"sr-only\">Copilot said</h6><div class=\"space-y-3 break-words\">{answer}</div></div>"
            ),
            sources_panel("div", &cited),
        ),
    };
    body.insert("prompt".into(), json!(prompt));
    body.insert("completion".into(), json!(completion));
    body.insert("sources".into(), json!(sources));
    if model == "chatgpt" {
        body.insert(
            "subqueries".into(),
            json!([PROMPT, format!("{PROMPT} reviews")]),
        );
    } else {
        body.insert("ads".into(), json!(""));
        body.insert("subqueries".into(), json!([]));
    }
    Value::Object(body).to_string()
}

/// A sources panel listing the cited pages, once each.
fn sources_panel(tag: &str, cited: &[(String, String)]) -> String {
    let mut seen = std::collections::BTreeSet::new();
    let mut html = format!("<{tag} class=\"sources-list\">");
    for (host, path) in cited {
        if !seen.insert((host, path)) {
            continue;
        }
        let label = host.trim_start_matches("www.");
        html.push_str(&format!(
            "<a href=\"https://{host}{path}\" target=\"_blank\"><div class=\"source-title\">{label}: hiking boots</div><div class=\"source-site\">{label}</div></a>"
        ));
    }
    html.push_str(&format!("</{tag}>"));
    html
}

/// A template with `prompt` written in (prompts are plain words: nothing to escape).
pub fn answer(template: &str, prompt: &str) -> String {
    template.replace(PROMPT, prompt)
}
