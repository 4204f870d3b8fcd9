//! The shapes of answers written to hurt (part 22): nesting thousands deep, one paragraph
//! that names a tracked brand thousands of times, thousands of list items. Each goes whole
//! through what the app shows (answer and JSON views at 100 columns) and what the readings
//! take (brands, names), as stored answers are read again.

use vantage::api::AiRequest;
use vantage::present;
use vantage::present::discover::names_in;

use super::{BRANDS, brands, grows_linearly, sizes};

/// A stored completion shown as the app shows it, and read as tracking and discovery read it.
fn stored_answer(body: &str) -> usize {
    let request = AiRequest::new("best hiking boots");
    let shown = present::answer::prepare_stored(request.clone(), body).map_or(0, |prepared| {
        let json = prepared.json.as_ref().map_or(0, |j| j.lines(100).len());
        prepared.answer.lines(100).len() + json + prepared.mentions(&brands()).len()
    });
    let read = present::answer::prepare_to_read(request, body).map_or(0, |prepared| {
        prepared.mentions(&brands()).len() + names_in(&prepared).len()
    });
    shown + read
}

fn completion(html: &str, extra: Option<&str>) -> String {
    let mut body = serde_json::json!({
        "model": "chatgpt",
        "completion": html,
        "sources": "",
    })
    .to_string();
    if let Some(extra) = extra {
        body.pop();
        body.push_str(",\"extra\":");
        body.push_str(extra);
        body.push('}');
    }
    body
}

#[test]
fn nesting_thousands_deep_is_shown_and_read_within_bounds() {
    // Arrays and objects nested as deep as the size allows, beside an ordinary answer.
    let arrays = |size: usize| {
        let depth = size / 2;
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        completion("<p>Lowa is a fine pick.</p>", Some(&deep))
    };
    grows_linearly("arrays nested deep", stored_answer, &sizes(), &arrays);
    let objects = |size: usize| {
        let depth = size / 6;
        let deep = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
        completion("<p>Lowa is a fine pick.</p>", Some(&deep))
    };
    grows_linearly("objects nested deep", stored_answer, &sizes(), &objects);
    // A hundred levels and then a flat list: laid out, each item would carry 200 spaces.
    let wide = |size: usize| {
        let items = vec!["1"; size / 2].join(",");
        let deep = format!("{}{items}{}", "[".repeat(100), "]".repeat(100));
        completion("<p>Lowa is a fine pick.</p>", Some(&deep))
    };
    grows_linearly("a flat list a hundred deep", stored_answer, &sizes(), &wide);
}

#[test]
fn one_paragraph_naming_a_brand_thousands_of_times_is_read_within_bounds() {
    // No full stop anywhere: one sentence the size of the answer.
    let paragraph = |size: usize| {
        let mut text = String::from("<p>");
        let mut i = 0;
        while text.len() < size {
            text.push_str(&format!(
                "Lowa beats {} and the Lowa Renegade is the pick over {}, ",
                BRANDS[i % 20],
                BRANDS[(i + 3) % 20]
            ));
            i += 1;
        }
        text.push_str("</p>");
        completion(&text, None)
    };
    grows_linearly(
        "one paragraph of brands",
        stored_answer,
        &sizes(),
        &paragraph,
    );
    // The same with each brand in bold: thousands of styled runs, each a candidate name.
    let bold = |size: usize| {
        let mut text = String::from("<p>");
        let mut i = 0;
        while text.len() < size {
            text.push_str(&format!(
                "<strong>{}</strong> beats {} and the {} Renegade is recommended over {}, ",
                BRANDS[i % 20],
                BRANDS[(i + 1) % 20],
                BRANDS[(i + 2) % 20],
                BRANDS[(i + 3) % 20]
            ));
            i += 1;
        }
        text.push_str("</p>");
        completion(&text, None)
    };
    grows_linearly(
        "one paragraph of bold brands",
        stored_answer,
        &sizes(),
        &bold,
    );
}

#[test]
fn thousands_of_list_items_are_read_within_bounds() {
    let list = |size: usize| {
        let mut html = String::from("<p>The best hiking boots:</p><ul>");
        let mut i = 0;
        while html.len() < size {
            html.push_str(&format!(
                "<li><strong>{} Model {i}</strong>: recommended, better than {}.</li>",
                BRANDS[i % 20],
                BRANDS[(i + 5) % 20]
            ));
            i += 1;
        }
        html.push_str("</ul>");
        completion(&html, None)
    };
    grows_linearly("thousands of list items", stored_answer, &sizes(), &list);
}
