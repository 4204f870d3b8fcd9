//! The server-sent events a ChatGPT conversation streams, which the live service returns as
//! `sse` beside the HTML it populated: metadata, the searches it ran, the answer in pieces.

use scraper::Html;
use serde_json::json;

use super::{AiRequest, ChatPage};

/// Characters per streamed piece of the answer; the live stream sends a few words at a time.
const PIECE_CHARS: usize = 40;

/// One JSON event a line, in the order the conversation streamed them.
pub(super) fn events(request: &AiRequest, page: &ChatPage) -> String {
    let answer = Html::parse_fragment(&page.completion_html)
        .root_element()
        .text()
        .collect::<Vec<_>>()
        .join(" ");
    let answer = answer.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut lines = vec![json!({
        "type": "conversation_detail_metadata",
        "model_slug": "gpt-5",
        "country": request.country,
        "query": request.prompt,
    })];
    if !page.fanouts.is_empty() {
        lines.push(json!({"type": "search_queries", "queries": page.fanouts}));
    }
    let chars: Vec<char> = answer.chars().collect();
    for piece in chars.chunks(PIECE_CHARS) {
        lines.push(json!({
            "type": "delta",
            "p": "/message/content/parts/0",
            "o": "append",
            "v": piece.iter().collect::<String>(),
        }));
    }
    lines.push(json!({"type": "message_stream_complete"}));
    lines
        .iter()
        .map(|line| line.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}
