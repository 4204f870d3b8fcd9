//! What a prompt asks of the answer's form, where clients depend on it: JSON only ("reply
//! with only JSON", "return a JSON object"), or a list of so many items ("list 5 …",
//! "top 7 …", "give me 3 …"). Live answers follow these, so the simulator's do too.

use serde_json::{Map, Value, json};

use super::super::topic::Topic;
use super::picks::{PickForm, picks};
use super::{Block, Ctx, Inline, capitalize, text};

/// The form a prompt asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Asked {
    /// A JSON object and nothing else.
    pub json: bool,
    /// So many items (read with the topic, whose subject leaves the number out).
    pub count: Option<usize>,
}

fn words(prompt: &str) -> Vec<String> {
    prompt
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Reads what form the prompt asks for.
pub(super) fn asked(prompt: &str, topic: &Topic) -> Asked {
    let words = words(prompt);
    let has = |w: &str| words.iter().any(|x| x == w);
    // An instruction, not a question about JSON ("what is a json object").
    let json = has("json")
        && [
            "reply", "respond", "return", "output", "answer", "format", "give", "provide", "only",
            "produce", "print",
        ]
        .iter()
        .any(|verb| has(verb));
    Asked {
        json,
        count: topic.count,
    }
}

/// A list of `count` picks, as live answers write one asked for: a line before it, the
/// numbered list, a line after.
pub(super) fn list_answer(ctx: &mut Ctx, count: usize) -> Vec<Block> {
    let subject = ctx.topic.subject.clone();
    let intro = match ctx.request.model {
        "gemini" => {
            format!("Here are the top {count} {subject} right now, ranked by what each does best.")
        }
        "perplexity" => format!("These are the {count} {subject} reviewers rate highest."),
        "copilot" => format!("Here's a list of {count} {subject} worth a look:"),
        _ => format!("Here are {count} {subject} to consider:"),
    };
    let mut blocks = vec![Block::Para(vec![text(intro)])];
    blocks.extend(picks(ctx, PickForm::DashBestFor, count, false));
    blocks.push(Block::Para(vec![text(format!(
        "Tell me what matters most to you and I can narrow these {subject} down."
    ))]));
    blocks
}

/// A JSON object and nothing else: the keys the prompt names in quotes (`"company"`), else
/// the answer's picks with their brands and the pages it drew on.
pub(super) fn json_answer(ctx: &mut Ctx, prompt: &str, count: Option<usize>) -> Vec<Block> {
    let named = quoted_keys(prompt);
    let names = picked(ctx, count.unwrap_or(3));
    let first_url = ctx
        .sources
        .first()
        .map(|s| s.url.clone())
        .unwrap_or_default();
    let items: Vec<Value> = names
        .iter()
        .map(|name| {
            json!({
                "name": name,
                "brand": ctx.topic.brand_of(name),
                "reason": format!("Well reviewed for {}.", ctx.topic.aspects(&mut ctx.mix, 1).join("")),
            })
        })
        .collect();
    let value = if named.is_empty() {
        json!({
            "topic": ctx.topic.field.map_or(ctx.topic.subject.as_str(), |field| field.key),
            "items": items,
            "sources": ctx.sources.iter().map(|s| s.url.as_str()).collect::<Vec<_>>(),
        })
    } else {
        let mut object = Map::new();
        for key in named {
            let lower = key.to_lowercase();
            let value = if ["url", "website", "site", "domain", "link"]
                .iter()
                .any(|k| lower.contains(k))
            {
                json!(first_url)
            } else if ["items", "list", "brands", "products", "options"]
                .iter()
                .any(|k| lower.contains(k))
            {
                json!(names)
            } else if ["count", "score", "rating", "number", "rank"]
                .iter()
                .any(|k| lower.contains(k))
            {
                json!(names.len())
            } else if ["name", "company", "brand", "product"]
                .iter()
                .any(|k| lower.contains(k))
            {
                json!(names.first())
            } else {
                // What the answer is about: the field, else the subject.
                json!(capitalize(
                    ctx.topic
                        .field
                        .map_or(ctx.topic.subject.as_str(), |field| field.key)
                ))
            };
            object.insert(key, value);
        }
        Value::Object(object)
    };
    let written = serde_json::to_string_pretty(&value).unwrap_or_default();
    vec![Block::Para(vec![Inline::Text(written)])]
}

/// The picks a JSON answer names, recorded like a list's.
fn picked(ctx: &mut Ctx, count: usize) -> Vec<&'static str> {
    let names = ctx.topic.picks(&mut ctx.mix, count);
    ctx.listed.extend(names.iter().copied());
    names
}

/// The words of the prompt in double quotes that look like keys: `"company"`, `"website"`.
fn quoted_keys(prompt: &str) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for (i, part) in prompt.split('"').enumerate() {
        let key = part.trim();
        let is_key = i % 2 == 1
            && !key.is_empty()
            && key.len() <= 40
            && key
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
        if is_key && !keys.iter().any(|k| k == key) {
            keys.push(key.to_string());
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::super::super::topic::topic_of;
    use super::*;

    #[test]
    fn prompts_ask_for_json_or_a_number_of_items() {
        let json = |p: &str| asked(p, &topic_of(p)).json;
        assert!(json("Reply with only JSON: the best CRM tools"));
        assert!(json("best laptops, respond in JSON"));
        assert!(json(
            "Return a JSON object with \"company\" and \"website\" for Acme"
        ));
        assert!(!json("what is a json object"));
        let list = "list 5 running shoes";
        assert_eq!(asked(list, &topic_of(list)).count, Some(5));
    }

    #[test]
    fn keys_in_quotes_are_read_once() {
        assert_eq!(
            quoted_keys(r#"JSON with "company", "website" and "company" for "Acme Inc.""#),
            ["company", "website"]
        );
    }
}
