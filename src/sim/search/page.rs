//! The results page as HTML, written from the same results as the JSON body.

use std::collections::BTreeMap;

use serde_json::Value;

use super::super::html::{esc, noise};
use super::super::seed::Mix;
use super::{SearchRequest, features};

fn field<'a>(value: &'a Value, name: &str) -> &'a str {
    value.get(name).and_then(Value::as_str).unwrap_or("")
}

/// The results pages as HTML, written from the same results as the JSON body: one document
/// per page, separated by an empty line as the live service sends `serps` of two or more.
pub(crate) fn results_html(request: &SearchRequest, body: &Value) -> String {
    let mut mix = Mix::of(&["html", &request.content_key()]);
    let mut pages: BTreeMap<u64, Vec<&Value>> = BTreeMap::new();
    for result in body
        .get("results")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let page = result.get("page").and_then(Value::as_u64).unwrap_or(1);
        pages.entry(page).or_default().push(result);
    }
    if pages.is_empty() {
        return document(request, &[], &mut mix);
    }
    let documents: Vec<String> = pages
        .values()
        .map(|results| document(request, results, &mut mix))
        .collect();
    documents.join("\n\n")
}

/// One page of results as Google's document.
fn document(request: &SearchRequest, results: &[&Value], mix: &mut Mix) -> String {
    let lang = request.language.as_deref().unwrap_or("en");
    let terms = esc(&request.terms);
    let mut top = String::new();
    let mut main = String::new();
    let mut right = String::new();
    let mut bottom = String::new();
    let mut current_page = 0;
    let mut in_asked = false;
    let mut in_stories = false;
    for &result in results {
        let kind = field(result, "type");
        let page = result.get("page").and_then(Value::as_u64).unwrap_or(1);
        if page != current_page && field(result, "section") == "main" {
            if current_page != 0 {
                main.push_str("</div>");
            }
            main.push_str(&format!("<div class=\"serp-page\" data-page=\"{page}\">"));
            current_page = page;
        }
        if kind != "also-asked" && in_asked {
            main.push_str("</div>");
            in_asked = false;
        }
        if kind != "top-story" && in_stories {
            main.push_str("</g-section-with-header>");
            in_stories = false;
        }
        match kind {
            "organic" | "organic-with-sitelinks" => {
                let mut block = format!(
                    "<div class=\"MjjYud\"><div class=\"g tF2Cxc\" data-rpos=\"{}\"><div class=\"yuRUbf\"><a jsname=\"UWckNb\" href=\"{}\" data-ved=\"2ahUKEwi{:x}\"><h3 class=\"LC20lb MBeuO DKV0Md\">{}</h3><div class=\"notranslate\"><div class=\"CA5RN\"><div><span class=\"VuuXrf\">{}</span></div><div class=\"byrV5b\"><cite class=\"qLRx3b\">{}</cite></div></div></div></a></div><div class=\"VwiC3b\">",
                    result.get("position").and_then(Value::as_u64).unwrap_or(0),
                    esc(field(result, "url")),
                    mix.next_u64() & 0xffff_ffff,
                    esc(field(result, "title")),
                    esc(field(result, "site")),
                    esc(field(result, "visibleUrl")),
                );
                if let Some(date) = result.get("date").and_then(Value::as_str) {
                    block.push_str(&format!("<span class=\"LEwnzc\">{} — </span>", esc(date)));
                }
                block.push_str(&format!(
                    "<span>{}</span></div>",
                    esc(field(result, "snippet"))
                ));
                if let Some(rating) = result.get("rating").and_then(Value::as_f64) {
                    block.push_str(&format!(
                        "<div class=\"fG8Fp\">Rating: {rating} · {} votes</div>",
                        result.get("votes").and_then(Value::as_u64).unwrap_or(0)
                    ));
                }
                if let Some(links) = result.get("sitelinks").and_then(Value::as_array)
                    && !links.is_empty()
                {
                    block.push_str("<table class=\"sitelinks\"><tr>");
                    for link in links {
                        block.push_str(&format!(
                            "<td><a href=\"{}\">{}</a></td>",
                            esc(field(link, "url")),
                            esc(field(link, "title"))
                        ));
                    }
                    block.push_str("</tr></table>");
                }
                block.push_str("</div></div>");
                main.push_str(&block);
            }
            "also-asked" => {
                if !in_asked {
                    main.push_str(
                        "<div class=\"Wt5Tfe\"><h2 class=\"Uo8X3b\">People also ask</h2>",
                    );
                    in_asked = true;
                }
                main.push_str(&features::related_question(result));
            }
            "top-story" => {
                if !in_stories {
                    main.push_str("<g-section-with-header><h3 role=\"heading\" aria-level=\"2\">Top stories</h3>");
                    in_stories = true;
                }
                main.push_str(&format!(
                    "<a class=\"WlydOe\" href=\"{}\"><img src=\"{}\" alt=\"\"><div class=\"MgUUmf\">{}</div><div role=\"heading\" class=\"n0jPhd\">{}</div><span class=\"OSrXXb\">{}</span></a>",
                    esc(field(result, "url")),
                    esc(field(result, "image")),
                    esc(field(result, "publisher")),
                    esc(field(result, "headline")),
                    esc(field(result, "date"))
                ));
            }
            "also-searched" => {
                if result.get("position").and_then(Value::as_u64) == Some(1) {
                    if !bottom.is_empty() {
                        bottom.push_str("</div>");
                    }
                    bottom.push_str(&format!("<div class=\"related-searches\" data-page=\"{page}\"><h2>People also search for</h2>"));
                }
                bottom.push_str(&format!(
                    "<a class=\"k8XOCe\" href=\"{}\"><span>{}</span></a>",
                    esc(field(result, "url")),
                    esc(field(result, "query"))
                ));
            }
            "knowledge-panel" => {
                right.push_str(&format!(
                    "<div class=\"kp-wholepage\"><h2 data-attrid=\"title\">{}</h2><div class=\"kno-rdesc\"><span>{}</span> <a href=\"{}\">{}</a></div></div>",
                    esc(field(result, "title")),
                    esc(field(result, "description")),
                    esc(field(result, "url")),
                    esc(field(result, "source"))
                ));
            }
            "ai-overview" => top.push_str(&features::ai_overview(result, lang)),
            _ => {
                top.push_str(&format!(
                    "<div class=\"uEierd\"><span>Sponsored</span><a href=\"{}\"><div role=\"heading\">{}</div></a><div>{}</div></div>",
                    esc(field(result, "url")),
                    esc(field(result, "title")),
                    esc(&format!("{}{}", field(result, "snippet"), field(result, "answer")))
                ));
            }
        }
    }
    if in_asked {
        main.push_str("</div>");
    }
    if in_stories {
        main.push_str("</g-section-with-header>");
    }
    if current_page != 0 {
        main.push_str("</div>");
    }
    if !bottom.is_empty() {
        bottom.push_str("</div>");
    }
    let head_noise = noise(mix, 6);
    let tail_noise = noise(mix, 4);
    format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"UTF-8\"><title>{terms} - Google Search</title>{head_noise}</head><body jsmodel=\"hspDDf\"><div id=\"searchform\"><form action=\"/search\" role=\"search\"><textarea name=\"q\" aria-label=\"Search\">{terms}</textarea></form></div><div id=\"main\"><div id=\"center_col\"><div id=\"taw\">{top}</div><div id=\"search\"><h1 class=\"bNg8Rb\">Search Results</h1><div id=\"rso\">{main}</div></div><div id=\"botstuff\">{bottom}</div></div><div id=\"rhs\">{right}</div></div><footer><a href=\"https://policies.google.com/privacy\">Privacy</a> <a href=\"https://policies.google.com/terms\">Terms</a></footer>{tail_noise}</body></html>"
    )
}
