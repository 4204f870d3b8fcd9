//! The simulator's chat pages: each model's markup, sources, picks and variation.

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
    // Asked from Germany, the hidden label is in German, as the live pages write it.
    assert!(
        chatgpt
            .completion_html
            .contains("<h4 class=\"sr-only select-none\">ChatGPT hat gesagt:</h4>")
    );
    let anywhere = build(
        &AiRequest {
            country: None,
            city: None,
            ..request("chatgpt")
        },
        0,
    );
    assert!(anywhere.completion_html.contains(">ChatGPT said:</h4>"));
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
    assert!(
        copilot
            .completion_html
            .contains("class=\"sr-only\" aria-label=\"Copilot hat gesagt\"")
    );
    // The one link of its completion is the first reference's card, under the answer.
    assert_eq!(copilot.completion_html.matches("href=").count(), 1);
    assert!(copilot.sources_html.contains("References"));
    assert!(copilot.sources_html.contains("?utm_source=copilot.com\""));
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

#[test]
fn picks_come_in_the_forms_live_answers_use() {
    // Over many asks, each model writes its picks in more than one form, and the forms
    // of the live models all turn up: numbered headings, "— Best for", tables, bold leads.
    let mut seen = std::collections::BTreeSet::new();
    for model in ["chatgpt", "gemini", "perplexity", "copilot"] {
        let mut forms = std::collections::BTreeSet::new();
        for n in 1..=24 {
            let html = build(&request(model), FRESH_ASK | n).completion_html;
            for (form, mark) in [
                ("numbered headings", "<h3>1. "),
                ("best for", " — Best for "),
                ("table", "<table>"),
                ("bold with price", "</strong> (about "),
                ("name colon", "<p>Salomon X Ultra 4 GTX: "),
            ] {
                if html.contains(mark) {
                    forms.insert(form);
                }
            }
        }
        assert!(forms.len() >= 2, "{model}: {forms:?}");
        seen.extend(forms);
    }
    assert_eq!(seen.len(), 5, "{seen:?}");
}

#[test]
fn fresh_asks_keep_some_picks_and_vary_the_others() {
    let topic = topic_of("best hiking boots");
    for model in ["chatgpt", "gemini", "perplexity", "copilot"] {
        let named: Vec<Vec<&str>> = (1..=8)
            .map(|n| {
                let page = build(&request(model), FRESH_ASK | n);
                let text = page.completion_html;
                topic
                    .category
                    .picks
                    .iter()
                    .copied()
                    .filter(|pick| text.contains(pick))
                    .collect()
            })
            .collect();
        let always = topic
            .category
            .picks
            .iter()
            .filter(|pick| named.iter().all(|n| n.contains(pick)))
            .count();
        let sometimes = topic
            .category
            .picks
            .iter()
            .filter(|pick| {
                named.iter().any(|n| n.contains(pick)) && !named.iter().all(|n| n.contains(pick))
            })
            .count();
        assert!(always >= 1, "{model}: a pick named in every ask: {named:?}");
        assert!(
            sometimes >= 1,
            "{model}: a pick named now and then: {named:?}"
        );
        let again: Vec<String> = (1..=8)
            .map(|n| build(&request(model), FRESH_ASK | n).completion_html)
            .collect();
        assert_eq!(
            again,
            (1..=8)
                .map(|n| build(&request(model), FRESH_ASK | n).completion_html)
                .collect::<Vec<_>>(),
            "the same asks repeat"
        );
    }
}

fn asked_from(model: &'static str, country: Option<&str>) -> AiRequest {
    AiRequest {
        country: country.map(str::to_string),
        city: None,
        ..request(model)
    }
}

/// The words a client that strips the tags reads: blocks apart, inline elements glued.
fn tag_free(html: &str) -> String {
    const BLOCKS: &[&str] = &[
        "p", "li", "div", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "tr", "br", "pre", "ul",
        "ol", "button", "section",
    ];
    let mut text = String::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        let close = rest[open..]
            .find('>')
            .map_or(rest.len(), |at| open + at + 1);
        let name: String = rest[open + 1..close]
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        if BLOCKS.contains(&name.as_str()) {
            text.push(' ');
        }
        rest = &rest[close..];
    }
    text.push_str(rest);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn copilot_puts_its_references_in_sources_and_ends_its_text_with_its_chrome() {
    let page = build(&asked_from("copilot", Some("US")), 0);
    let references = page
        .sources_html
        .matches("?utm_source=copilot.com\"")
        .count();
    assert!(references >= 3, "{}", page.sources_html);
    assert_eq!(references, page.sources_html.matches("<li>").count());
    // The first reference again in the row of cards under the answer, then the chrome.
    assert!(
        page.completion_html
            .contains("data-testid=\"citation-cards-row\"")
    );
    let text = tag_free(&page.completion_html);
    assert!(text.ends_with("Show all Edit in a page"), "{text}");
    let card = page
        .completion_html
        .find("citation-cards-row")
        .map(|at| &page.completion_html[at..])
        .unwrap_or_default();
    assert!(card.contains("?utm_source=copilot.com\""));
    // No label over the prompt, as live.
    assert!(
        !page.prompt_html.contains("sr-only"),
        "{}",
        page.prompt_html
    );
}

#[test]
fn hidden_labels_are_in_the_language_of_the_place() {
    let indonesia = build(&asked_from("chatgpt", Some("ID")), 0);
    assert!(
        indonesia
            .completion_html
            .contains("<h4 class=\"sr-only select-none\">ChatGPT bilang:</h4>")
    );
    assert!(
        indonesia
            .prompt_html
            .contains("<h4 class=\"sr-only select-none\">Anda bilang:</h4>")
    );
    for (country, model, label) in [
        ("FR", "chatgpt", ">ChatGPT a dit :</h4>"),
        ("IT", "gemini", ">Gemini ha detto</h2>"),
        ("BR", "copilot", ">O Copilot disse</h6>"),
        ("ES", "gemini", ">Gemini dijo</h2>"),
        ("JP", "chatgpt", ">ChatGPT:</h4>"),
        ("US", "copilot", ">Copilot said</h6>"),
    ] {
        let page = build(&asked_from(model, Some(country)), 0);
        assert!(page.completion_html.contains(label), "{country} {model}");
    }
    let german = build(&asked_from("gemini", Some("DE")), 0);
    assert!(german.prompt_html.contains(">Du hast gesagt</h2>"));
}

#[test]
fn perplexity_folds_a_run_of_citations_into_one_token_and_has_no_label() {
    let page = build(&asked_from("perplexity", Some("US")), 0);
    let text = tag_free(&page.completion_html);
    // "rei+1": a site without its top-level domain, the others counted.
    let tokens: Vec<&str> = text
        .split_whitespace()
        .filter(|word| {
            word.split_once('+').is_some_and(|(site, more)| {
                !site.is_empty()
                    && site.chars().all(|c| c.is_ascii_lowercase() || c == '.')
                    && !more.is_empty()
                    && more.chars().all(|c| c.is_ascii_digit())
            })
        })
        .collect();
    assert!(tokens.len() >= 3, "{text}");
    assert!(!text.contains(".com"), "sites lose their domain: {text}");
    assert!(!page.completion_html.contains("sr-only"));
    assert!(!page.completion_html.contains("Perplexity answered"));
    assert!(!page.prompt_html.contains("sr-only"));
}

#[test]
fn sse_comes_with_chatgpt_only() {
    for model in ["chatgpt", "gemini", "perplexity", "copilot"] {
        let asked = asked_from(model, Some("US"));
        let body = completion_json(&asked, &build(&asked, 0));
        assert_eq!(body.get("sse").is_some(), model == "chatgpt", "{model}");
    }
}

#[test]
fn a_share_of_answers_name_their_searches_subqueries() {
    let asked = asked_from("chatgpt", Some("US"));
    let mut old = 0;
    for n in 1..=200 {
        let page = build(&asked, FRESH_ASK | n);
        let body = completion_json(&asked, &page);
        let (fanouts, subqueries) = (body.get("fanouts"), body.get("subqueries"));
        assert!(fanouts.is_some() != subqueries.is_some(), "one name: {n}");
        let searches = fanouts.or(subqueries).and_then(|v| v.as_array());
        assert_eq!(searches.map(Vec::len), Some(page.fanouts.len()));
        old += usize::from(subqueries.is_some());
    }
    assert!((25..=75).contains(&old), "{old} of 200 say subqueries");
    // The same ask, the same name.
    let again = |n| completion_json(&asked, &build(&asked, FRESH_ASK | n));
    assert_eq!(again(7), again(7));
}

fn asking(model: &'static str, prompt: &str) -> AiRequest {
    AiRequest {
        prompt: prompt.into(),
        ..asked_from(model, Some("US"))
    }
}

const MODELS: [&str; 4] = ["chatgpt", "gemini", "perplexity", "copilot"];

/// The answer's body: the completion without its label and, for Copilot, its chrome.
fn body_of(page: &ChatPage) -> &str {
    let html = page.completion_html.as_str();
    let html = html.split("<div class=\"pt-1\">").next().unwrap_or(html);
    let html = html
        .split("<div class=\"mt-3\"><div")
        .next()
        .unwrap_or(html);
    let start = html.find("<p>").unwrap_or(0);
    let end = html
        .rfind("</p>")
        .map_or(html.len(), |at| at + "</p>".len());
    &html[start..end]
}

#[test]
fn a_prompt_asking_for_json_only_gets_a_json_object() {
    for model in MODELS {
        for prompt in [
            "Reply with only JSON: the best CRM tools",
            "best laptops, respond in JSON",
            "Return a JSON object with \"company\", \"website\" and \"industry\" for a CRM vendor",
        ] {
            let page = build(&asking(model, prompt), 0);
            let body = body_of(&page);
            assert_eq!(body.matches("<p>").count(), 1, "{model}: {body}");
            let text = html_escape::decode_html_entities(&tag_free(body)).into_owned();
            let value: serde_json::Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{model} {prompt}: {e}: {text}"));
            assert!(value.is_object(), "{model}: {text}");
            if prompt.contains("\"company\"") {
                for key in ["company", "website", "industry"] {
                    assert!(value[key].is_string(), "{model}: {key} in {text}");
                }
                assert!(
                    value["website"]
                        .as_str()
                        .is_some_and(|u| u.starts_with("https://"))
                );
            } else {
                assert!(value["items"].as_array().is_some_and(|i| !i.is_empty()));
            }
        }
    }
}

#[test]
fn a_prompt_asking_for_n_items_gets_n() {
    for model in MODELS {
        for (prompt, n) in [
            ("list 5 espresso machines", 5),
            ("top 7 CRM tools", 7),
            ("give me 3 ideas for dinner", 3),
            (
                "What are the best AI coding tools right now? List the top 10.",
                10,
            ),
            // More than the catalogue holds.
            ("list 12 hiking boots", 12),
        ] {
            let page = build(&asking(model, prompt), 0);
            let body = body_of(&page);
            assert_eq!(body.matches("<ol>").count(), 1, "{model} {prompt}");
            assert_eq!(body.matches("<li>").count(), n, "{model} {prompt}");
        }
    }
}

#[test]
fn a_product_field_is_answered_with_four_to_seven_of_its_brands() {
    for prompt in [
        "best running shoes",
        "CRM software",
        "which password manager should I use",
    ] {
        let topic = topic_of(prompt);
        let field = topic.field.expect("a known field");
        for model in MODELS {
            for n in 0..6 {
                let variation = if n == 0 { 0 } else { FRESH_ASK | n };
                for device in [None, Some("iPhone 15")] {
                    let request = AiRequest {
                        device,
                        ..asking(model, prompt)
                    };
                    let text = tag_free(&build(&request, variation).completion_html);
                    let brands: std::collections::BTreeSet<&str> = field
                        .products
                        .iter()
                        .filter(|(_, product)| text.contains(product))
                        .map(|(brand, _)| *brand)
                        .collect();
                    assert!(
                        (4..=7).contains(&brands.len()),
                        "{model} {prompt} {n} {device:?}: {brands:?}"
                    );
                }
            }
        }
    }
}
