//! The answer written out in each model's own chat-page markup: hidden labels, citation
//! styles, sources and ads as the live pages carry them.

use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};

use super::super::html::esc;
use super::super::seed::{Mix, hash_parts};
use super::super::topic::title_case;
use super::labels::{model_said, you_said};
use super::{Block, Ctx, Inline, Source};

/// Text as a browser serializes a text node: only `&`, `<` and `>` escaped, so the quotes
/// of a JSON answer read as quotes to a client that strips the tags.
fn esc_text(text: &str) -> String {
    html_escape::encode_text(text).into_owned()
}

pub(super) fn ads_markup(ctx: &Ctx) -> String {
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

/// The user's turn. Live Copilot and Perplexity put no label over it; ChatGPT and Gemini a
/// hidden one in the page's language.
pub(super) fn prompt_markup(
    model: &str,
    prompt: &str,
    country: Option<&str>,
    ids: &mut Mix,
) -> String {
    let prompt = esc(prompt);
    let label = esc(&you_said(model, country));
    match model {
        "gemini" => format!(
            "<user-query class=\"ng-star-inserted\"><h2 class=\"cdk-visually-hidden\">{label}</h2><div class=\"query-content\" id=\"user-query-content-{}\"><div class=\"query-text gds-body-l\" dir=\"ltr\"><p class=\"query-text-line ng-star-inserted\">{prompt}</p></div></div></user-query>",
            ids.next_u64() & 0xffff
        ),
        "perplexity" => format!(
            "<div class=\"group/query\" data-testid=\"user-query\"><h1 class=\"font-display text-textMain\"><span class=\"select-text whitespace-pre-line\">{prompt}</span></h1></div>"
        ),
        "copilot" => format!(
            "<div class=\"font-ligatures-none relative h-fit whitespace-pre-wrap break-words px-4 py-2.5 bg-accent-250/60 text-base self-end\" data-content=\"user-message\">{prompt}</div>"
        ),
        _ => format!(
            "<section class=\"text-token-text-primary w-full\" dir=\"auto\" data-turn-id=\"{id}\" data-testid=\"conversation-turn-1\" data-turn=\"user\"><h4 class=\"sr-only select-none\">{label}</h4><div class=\"text-base my-auto mx-auto pt-3\"><div data-message-author-role=\"user\" data-message-id=\"{id}\" dir=\"auto\" class=\"min-h-8 text-message relative flex w-full flex-col items-end\"><div class=\"user-message-bubble-color relative rounded-[22px] px-4 py-2.5\"><div class=\"whitespace-pre-wrap\">{prompt}</div></div></div></div></section>",
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
        "perplexity" => perplexity_chip(source, 0),
        // A chip naming the site, without an address: the References hold it.
        "copilot" => format!(
            "<span class=\"group relative inline-block pb-1 align-middle mx-1 h-6\" data-copy=\"false\"><button aria-expanded=\"false\" aria-label=\"Citation {label} \" type=\"button\" class=\"flex size-full items-center justify-center rounded-md pt-px text-2xs px-1 bg-black/5\"><span class=\"max-w-24 truncate\">{label}</span></button></span>",
            label = esc(&copilot_label(source))
        ),
        _ => format!(
            "<span class=\"\" data-state=\"closed\"><span class=\"ms-1 inline-flex max-w-full items-center select-none relative\" data-testid=\"webpage-citation-pill\"><a href=\"{url}?utm_source=chatgpt.com\" target=\"_blank\" rel=\"noopener\" alt=\"{url}?utm_source=chatgpt.com\" class=\"flex h-4.5 overflow-hidden rounded-xl px-2 text-[9px] font-medium\"><span class=\"relative start-0 bottom-0 flex h-full w-full items-center\"><span class=\"max-w-[15ch] grow truncate overflow-hidden text-center\">{name}</span></span></a></span></span>",
            url = esc(&source.url),
            name = esc(&source.name)
        ),
    }
}

/// Perplexity's chip: the first source's site without its top-level domain, then how many
/// more sources the chip stands for, glued on as the live page writes it
/// (`research.contrary+2`).
fn perplexity_chip(source: &Source, more: usize) -> String {
    let more = match more {
        0 => String::new(),
        n => format!("<span class=\"citation-more\">+{n}</span>"),
    };
    format!(
        " <span class=\"citation inline\"><a href=\"{url}\" target=\"_blank\" rel=\"noopener\" class=\"citation ml-xs inline\" aria-label=\"{host}\"><span class=\"rounded-badge\"><span class=\"citation-site\">{site}</span>{more}</span></a></span>",
        url = esc(&source.url),
        host = esc(source.host.trim_start_matches("www.")),
        site = esc(&chip_site(&source.host)),
    )
}

/// `www.research.contrary.com` → `research.contrary`, `www.bbc.co.uk` → `bbc`.
fn chip_site(host: &str) -> String {
    let host = host.trim_start_matches("www.");
    let mut parts: Vec<&str> = host.split('.').collect();
    if parts.len() > 1 {
        parts.pop();
    }
    if parts.len() > 1 && matches!(parts.last(), Some(&("co" | "com" | "org" | "net"))) {
        parts.pop();
    }
    parts.join(".")
}

fn inlines_markup(model: &str, inlines: &[Inline], sources: &[Source]) -> String {
    let mut html = String::new();
    let mut rest = inlines;
    while let Some((inline, after)) = rest.split_first() {
        rest = after;
        // Perplexity folds a run of citations into one chip that counts the others.
        if let (Inline::Cite(index), "perplexity") = (inline, model) {
            let more = rest
                .iter()
                .take_while(|i| matches!(i, Inline::Cite(_)))
                .count();
            rest = &rest[more..];
            if let Some(source) = sources.get(*index) {
                html.push_str(&perplexity_chip(source, more));
            }
            continue;
        }
        match inline {
            Inline::Text(t) => html.push_str(&esc_text(t)),
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
            Block::Table { head, rows } => {
                html.push_str("<table><thead><tr>");
                for cell in head {
                    html.push_str(&format!("<th>{}</th>", esc(cell)));
                }
                html.push_str("</tr></thead><tbody>");
                for row in rows {
                    html.push_str("<tr>");
                    for cell in row {
                        html.push_str(&format!("<td>{}</td>", esc(cell)));
                    }
                    html.push_str("</tr>");
                }
                html.push_str("</tbody></table>\n");
            }
            Block::Code { lang, text } => {
                html.push_str(&format!(
                    "<pre class=\"overflow-visible!\"><div class=\"code-header\"><span>{lang}</span><button class=\"copy\">Copy code</button></div><code class=\"whitespace-pre! language-{lang}\">{}</code></pre>\n",
                    esc_text(text)
                ));
            }
        }
    }
    html
}

pub(super) fn completion_markup(
    model: &str,
    country: Option<&str>,
    blocks: &[Block],
    sources: &[Source],
    ids: &mut Mix,
) -> String {
    let body = blocks_markup(model, blocks, sources);
    let said = esc(&model_said(model, country));
    match model {
        "gemini" => format!(
            "<model-response class=\"ng-star-inserted\"><h2 class=\"cdk-visually-hidden\">{said}</h2><response-container><message-content id=\"message-content-id-r_{:x}\" class=\"model-response-text\"><div class=\"markdown markdown-main-panel\" dir=\"ltr\">{body}</div></message-content></response-container></model-response>",
            ids.next_u64() & 0xffff_ffff
        ),
        // Live Perplexity puts no label over its answer.
        "perplexity" => format!(
            "<div class=\"answer-panel\" data-testid=\"answer\"><div dir=\"auto\" class=\"prose text-pretty dark:prose-invert inline leading-relaxed\">{body}</div></div>"
        ),
        "copilot" => {
            let id = ids.uuid_like();
            format!(
                "<div class=\"group/ai-message\" data-content=\"ai-message\" data-testid=\"ai-message\" role=\"article\"><div class=\"relative\"><h6 id=\"{id}-author\" class=\"sr-only\" aria-label=\"{said}\" data-copy=\"false\">{said}</h6></div><div class=\"space-y-3 mt-3\"><div class=\"group/ai-message-item space-y-3 break-words\" id=\"{id}-content-0\">{body}</div></div>{chrome}</div>",
                chrome = copilot_chrome(sources)
            )
        }
        _ => format!(
            "<section class=\"text-token-text-primary w-full\" dir=\"auto\" data-turn-id=\"request-WEB:{turn}\" data-testid=\"conversation-turn-2\" data-turn=\"assistant\"><h4 class=\"sr-only select-none\">{said}</h4><div class=\"text-base my-auto mx-auto pb-10\"><div data-message-author-role=\"assistant\" data-message-id=\"{message}\" dir=\"auto\" data-message-model-slug=\"gpt-5-3\" class=\"min-h-8 text-message relative flex w-full flex-col\"><div class=\"markdown prose dark:prose-invert w-full wrap-break-word light markdown-new-styling\">{body}</div></div></div></section>",
            turn = ids.uuid_like(),
            message = ids.uuid_like()
        ),
    }
}

/// What live Copilot draws under its answer, inside the completion: a row with the first
/// reference's card and a "Show all" button over the others' icons, then the reactions bar
/// ending in "Edit in a page". The page marks all of it `data-copy="false"`: not the answer.
fn copilot_chrome(sources: &[Source]) -> String {
    let mut html = String::new();
    if let Some(first) = sources.first() {
        let icons: String = sources
            .iter()
            .skip(1)
            .take(2)
            .map(|s| {
                format!(
                    "<div class=\"-ms-1 flex size-5 items-center justify-center rounded-full\"><img alt=\"\" class=\"size-4 rounded-full\" src=\"https://services.bingapis.com/favicon?url={}\"></div>",
                    esc(&s.host)
                )
            })
            .collect();
        html.push_str(&format!(
            "<div class=\"pt-1\"><div class=\"grid gap-3 pt-2 grid-cols-[1fr_auto]\" data-copy=\"false\" data-testid=\"citation-cards-row\"><span class=\"inline-flex\"><a class=\"flex w-full min-w-0 rounded-xl p-3\" title=\"{title}\" href=\"{url}?utm_source=copilot.com\" target=\"_blank\" rel=\"noopener\"><div class=\"relative flex min-w-0 grow flex-col gap-2\"><div class=\"flex items-center gap-2\"><div class=\"min-w-0 flex-1 overflow-hidden\"><p class=\"truncate text-sm\">{host}</p></div></div><div class=\"text-sm\"><p class=\"line-clamp-1\">{title}</p></div></div></a></span><span class=\"inline-flex\"><button type=\"button\" class=\"flex items-center gap-2 rounded-xl px-3\" title=\"Show all\" data-testid=\"citation-overflow-button\" aria-expanded=\"true\"><div class=\"inline-flex items-center justify-start\">{icons}</div><span class=\"text-sm\">Show all</span></button></span></div></div>",
            title = esc(&first.title),
            url = esc(&first.url),
            host = esc(&first.host),
        ));
    }
    let reactions: String = [
        ("Good response", "message-thumbs-up-button"),
        ("Bad response", "message-thumbs-down-button"),
        ("Share message and prompt", "share-message-button"),
        ("Copy message", "copy-ai-message-button"),
        ("Read aloud", "message-read-aloud-button"),
        ("Regenerate", "regenerate-message-button-popover"),
    ]
    .iter()
    .map(|(label, id)| {
        format!("<button aria-label=\"{label}\" type=\"button\" class=\"relative flex items-center rounded-xl size-9\" data-testid=\"{id}\"><svg viewBox=\"0 0 20 20\" class=\"size-5\"><path d=\"M2 2h16v16H2z\"></path></svg></button>")
    })
    .collect();
    html.push_str(&format!(
        "<div class=\"mt-3\"><div class=\"flex items-center gap-1\" data-copy=\"false\" data-testid=\"message-item-reactions\">{reactions}<button aria-label=\"Edit in a page\" type=\"button\" class=\"relative flex items-center rounded-xl min-h-9 px-2.5\" data-testid=\"create-page\"><svg viewBox=\"0 0 20 20\" class=\"size-5\"><path d=\"M2 3h9v1H2z\"></path></svg><span class=\"ms-1\">Edit in a page</span></button></div></div>"
    ));
    html
}

/// How Copilot labels a cited site, in its chips and References: by the site's name for
/// some sites ("Zapier"), by the address for others ("www.aimadetools.com").
fn copilot_label(source: &Source) -> String {
    match hash_parts(&["copilot-label", &source.host]) % 2 {
        0 => source.name.clone(),
        _ => source.host.clone(),
    }
}

/// The answer's sources in the model's own side panel: Gemini's source cards (the site's
/// label, its domain, the page's title and a snippet, the address with a highlight),
/// Perplexity's numbered list of cards, Copilot's References (the title in the link's
/// `title`, the address with `utm_source=copilot.com`). ChatGPT cites inline only.
pub(super) fn sources_markup(model: &str, sources: &[Source]) -> String {
    match model {
        "perplexity" => perplexity_sources(sources),
        "gemini" => gemini_sources(sources),
        "copilot" => copilot_references(sources),
        _ => String::new(),
    }
}

fn perplexity_sources(sources: &[Source]) -> String {
    let mut html = String::from(
        "<div class=\"sources-list\" data-testid=\"sources\"><h2 class=\"sr-only\">Sources</h2><ol class=\"flex flex-col gap-2\">",
    );
    for (i, source) in sources.iter().enumerate() {
        let snippet = match source.snippet.is_empty() {
            true => String::new(),
            false => format!(
                "<div class=\"snippet line-clamp-3 text-sm\">{}</div>",
                esc(&source.snippet)
            ),
        };
        html.push_str(&format!(
            "<li data-index=\"{n}\"><a href=\"{url}\" target=\"_blank\" rel=\"noopener\" class=\"source-card group flex flex-col\"><div class=\"line-clamp-2 font-medium\">{title}</div><div class=\"flex items-center gap-1 text-xs\"><img src=\"https://www.google.com/s2/favicons?sz=32&amp;domain={host}\" alt=\"\"><span class=\"site\">{name}</span><span class=\"domain\">{host}</span><span class=\"index\">{n}</span></div>{snippet}</a></li>",
            url = esc(&source.url),
            title = esc(&source.title),
            name = esc(&source.name),
            host = esc(&source.host),
            n = i + 1
        ));
    }
    html.push_str("</ol></div>");
    html
}

fn gemini_sources(sources: &[Source]) -> String {
    let mut html = String::from(
        "<context-sidebar class=\"ng-star-inserted\"><div class=\"container ng-star-inserted\"><div class=\"header ng-star-inserted\"><div class=\"gds-title-l\"> Sources </div><button mat-icon-button=\"\" aria-label=\"Close sidebar\" class=\"mdc-icon-button\"><mat-icon role=\"img\" fonticon=\"close\" aria-hidden=\"true\"></mat-icon></button></div><div class=\"feature-container\"><side-bar-sources class=\"ng-star-inserted\"><div class=\"scrollable-container\"><div class=\"all-sources\">",
    );
    for source in sources {
        html.push_str(&gemini_card(source, &source.snippet));
    }
    // The first page again, with another passage highlighted, as the live panel lists a
    // page once per passage it drew on.
    if let Some(first) = sources.first().filter(|s| !s.snippet.is_empty()) {
        let again: String = first.snippet.split(". ").last().unwrap_or_default().into();
        html.push_str(&gemini_card(first, &again));
    }
    html.push_str("</div></div></side-bar-sources></div></div></context-sidebar>");
    html
}

/// One of Gemini's source cards: the address carries a text fragment that highlights the
/// snippet's first words on the page.
fn gemini_card(source: &Source, snippet: &str) -> String {
    let (href, snippet) = match snippet.is_empty() {
        true => (source.url.clone(), String::new()),
        false => {
            let words: Vec<&str> = snippet.split_whitespace().take(5).collect();
            let highlight = utf8_percent_encode(&words.join(" "), NON_ALPHANUMERIC).to_string();
            (
                format!("{}#:~:text={highlight}", source.url),
                format!(
                    "<div dir=\"auto\" class=\"snippet gds-body-m ng-star-inserted\"> {} </div>",
                    esc(snippet)
                ),
            )
        }
    };
    format!(
        "<inline-source-card class=\"ng-star-inserted\"><div><a target=\"_blank\" href=\"{href}\" class=\"ng-star-inserted\"><div dir=\"auto\" class=\"inline-source-card-container ng-star-inserted\"><div class=\"header\"><div class=\"icon-container ng-star-inserted\"><img alt=\"\" class=\"icon-image\" src=\"https://encrypted-tbn0.gstatic.com/favicon-tbn?q={host}\"></div><div class=\"source-path-and-info-container\"><div class=\"source-path gds-title-s\"> {name} </div><div dir=\"auto\" class=\"info gds-body-s ng-star-inserted\"> {host} </div></div></div><div dir=\"auto\" class=\"title gds-title-m ng-star-inserted\"> {title} </div>{snippet}</div></a></div></inline-source-card>",
        href = esc(&href),
        host = esc(&source.host),
        name = esc(&source.name),
        title = esc(&source.title),
    )
}

fn copilot_references(sources: &[Source]) -> String {
    let mut html = String::from(
        "<div class=\"t-custom-scrollbar size-full overflow-auto\" tabindex=\"0\" aria-label=\"References\" data-testid=\"conversation-panel\"><div class=\"pointer-events-none sticky top-0 w-full z-20\"><section class=\"relative flex w-full gap-2 px-2.5 py-2.5 h-14\"><div class=\"flex items-center overflow-hidden sm:gap-2\"><h2 class=\"pointer-events-none block min-w-0 flex-1 truncate text-base-medium\">References</h2></div><div class=\"flex flex-1 items-center justify-end\"><button aria-label=\"Close side pane\" type=\"button\" class=\"relative flex items-center\"></button></div></section></div><div class=\"flex flex-col gap-4 px-4 pb-4\"><div><ul class=\"flex list-none flex-col gap-4\" role=\"list\">",
    );
    for source in sources {
        html.push_str(&format!(
            "<li><a class=\"flex min-w-0 cursor-pointer items-start relative rounded-3xl p-4\" title=\"{title}\" href=\"{url}?utm_source=copilot.com\" target=\"_blank\" rel=\"noopener noreferrer\"><div class=\"flex min-w-0 flex-col gap-1\"><div class=\"flex items-center gap-2\"><div class=\"size-4 shrink-0\"><div class=\"flex size-4 items-center justify-center overflow-hidden rounded-full\"></div></div><div class=\"min-w-0 truncate\"><p class=\"truncate text-sm\">{label}</p></div></div><div><p class=\"line-clamp-2 text-base-medium\">{title}</p></div><div><p class=\"truncate text-sm text-foreground-600\">{url}</p></div></div></a></li>",
            title = esc(&source.title),
            url = esc(&source.url),
            label = esc(&copilot_label(source)),
        ));
    }
    html.push_str("</ul></div></div></div>");
    html
}

pub(super) fn page_markup(
    model: &str,
    prompt: &str,
    completion: &str,
    sources: &str,
    ads: &str,
) -> String {
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
