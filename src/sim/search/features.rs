//! The AI overview and the related questions in the live page's markup (Google's class
//! names: `pOOWX` for the overview, `related-question-pair` with `data-q`, `hgKElc` for an
//! answer), so a parser written for the live page reads the simulator's pages too.

use serde_json::Value;

use super::super::html::esc;

fn field<'a>(value: &'a Value, name: &str) -> &'a str {
    value.get(name).and_then(Value::as_str).unwrap_or("")
}

fn origin(url: &str) -> String {
    url::Url::parse(url)
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_default()
}

/// A citation chip: an empty link to the page and a button naming its site.
fn chip(source: &Value) -> String {
    format!(
        "<span class=\"uJ19be notranslate\"><span class=\"vKEkVd\"><a class=\"muU3oe\" href=\"{}\" aria-label=\"{}\"></a><button class=\"rBl3me IWyTpf pjvauc\"><div class=\"Fwa2Od\"><span class=\"wJwe6c\"><span class=\"iFMVXd\">{}</span></span></div></button></span></span>",
        esc(field(source, "url")),
        esc(field(source, "title")),
        esc(field(source, "site"))
    )
}

pub(super) fn ai_overview(result: &Value, lang: &str) -> String {
    let empty = Vec::new();
    let sources = result
        .get("sources")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let cite = |i: usize| sources.get(i % sources.len().max(1)).map(chip);
    let mut content = format!(
        "<div class=\"n6owBd awi2gc\">{}{}</div>",
        esc(field(result, "text")),
        cite(0).unwrap_or_default()
    );
    let points = result
        .get("points")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    if !points.is_empty() {
        content.push_str(&format!(
            "<div class=\"n6owBd awi2gc\"><strong class=\"Yjhzub\">{}</strong></div><div class=\"\"><ul class=\"KsbFXc U6u95\">",
            esc(field(result, "heading"))
        ));
        for (i, point) in points.iter().enumerate() {
            content.push_str(&format!(
                "<li class=\"Z1qcYe\"><span class=\"T286Pc\"><strong class=\"Yjhzub\">{}:</strong> {}</span>{}</li>",
                esc(field(point, "label")),
                esc(field(point, "text")),
                cite(i + 1).unwrap_or_default()
            ));
        }
        content.push_str("</ul></div>");
    }
    let mut listed = String::new();
    for source in sources {
        let url = field(source, "url");
        listed.push_str(&format!(
            "<li class=\"jydCyd\"><div class=\"MFrAxb BKnikc\"><a class=\"NDNGvf\" href=\"{}\" aria-label=\"{}\"></a><div class=\"w6SxZb\"><div class=\"jEYmO\"><span class=\"Z1JFYc\"><span class=\"R0r5R\"><span>{}</span></span></span><span class=\"SKO46c\">{}</span></div><div class=\"fNe8gf\"><div class=\"Nn35F Kv3dbb\"><span>{}</span></div></div></div></div></li>",
            esc(url),
            esc(field(source, "title")),
            esc(field(source, "site")),
            esc(&origin(url)),
            esc(field(source, "title"))
        ));
    }
    format!(
        "<div class=\"YzCcne\"><div class=\"Fzsovc\" aria-level=\"2\" role=\"heading\">AI Overview</div><div class=\"LT6XE\"><div jsname=\"dvXlsc\" class=\"pOOWX\" data-rl=\"{}\"><div><section><div class=\"pWvJNd\"><div jsname=\"KFl8ub\" class=\"mZJni Dn7Fzd\">{content}</div><div class=\"jKhXsc RqoW4e notranslate\"><div class=\"lQfa5\"><span>{} sites</span></div><ul class=\"EJw9bc\">{listed}</ul></div></div></section></div></div></div></div>",
        esc(lang),
        sources.len()
    )
}

pub(super) fn related_question(result: &Value) -> String {
    let question = esc(field(result, "question"));
    let answer = result.get("answer").unwrap_or(&Value::Null);
    let description = field(answer, "description");
    // A heading the text itself opens with is not repeated above it, as Google does not.
    let heading = answer
        .get("heading")
        .and_then(Value::as_str)
        .filter(|h| !description.starts_with(h))
        .map(|h| format!("{}<br><br> ", esc(h)))
        .unwrap_or_default();
    let date = answer
        .get("date")
        .and_then(Value::as_str)
        .map(|d| format!("<span class=\"kX21rb ZYHQ7e\">{}</span>", esc(d)))
        .unwrap_or_default();
    format!(
        "<div class=\"wQiwMc related-question-pair aoRk1c\" data-q=\"{question}\"><div class=\"dnXCYb\"><div class=\"JlqpRe\"><span class=\"JCzEY tNxQIb\"><span class=\"CSkcDe\">{question}</span></span></div></div><div class=\"bCOlv\"><div class=\"IZE3Td\"><div class=\"wDYxhc\"><div class=\"LGOjhe\" data-attrid=\"wa:/description\"><span class=\"ILfuVd\"><span class=\"hgKElc\">{heading}{}</span></span>{date}</div></div><div class=\"Y6JuXb\"><div class=\"qX8Nbd\"><div class=\"b8lM7\"><a jsname=\"UWckNb\" href=\"{}\"><h3 class=\"LC20lb MBeuO DKV0Md\">{}</h3><div class=\"notranslate\"><div class=\"CA5RN\"><div><span class=\"VuuXrf\">{}</span></div><div class=\"byrV5b\"><cite class=\"qLRx3b\">{}</cite></div></div></div></a></div></div></div></div></div></div>",
        esc(field(answer, "description")),
        esc(field(answer, "url")),
        esc(field(answer, "title")),
        esc(field(answer, "site")),
        esc(field(answer, "visibleUrl"))
    )
}
