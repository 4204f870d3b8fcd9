//! The answer written out in each model's own chat-page markup: hidden labels, citation
//! styles, sources and ads as the live pages carry them.

use super::super::html::esc;
use super::super::seed::Mix;
use super::super::topic::title_case;
use super::{Block, Ctx, Inline, Source};

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

pub(super) fn prompt_markup(model: &str, prompt: &str, ids: &mut Mix) -> String {
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
                    esc(text)
                ));
            }
        }
    }
    html
}

pub(super) fn completion_markup(
    model: &str,
    blocks: &[Block],
    sources: &[Source],
    ids: &mut Mix,
) -> String {
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

pub(super) fn sources_markup(model: &str, sources: &[Source]) -> String {
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
