//! A proxied response made ready for its views: status, exit, headers and body.

use std::collections::HashMap;

use crate::api::proxy::ProxyResponse;
use crate::render::{self, RenderOptions};

use crate::present::text::TextBody;

/// The views of a response, in the order they cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResponseView {
    Body,
    Headers,
    Raw,
}

impl ResponseView {
    pub const ALL: [ResponseView; 3] =
        [ResponseView::Body, ResponseView::Headers, ResponseView::Raw];
}

/// A response made ready to draw, off the UI task, when it lands.
#[derive(Debug)]
pub struct PreparedProxy {
    pub response: ProxyResponse,
    /// What the body view shows it as: "JSON", "Page" or "Text".
    pub body_kind: &'static str,
    pub body: TextBody,
    pub headers: TextBody,
    pub raw: TextBody,
}

impl PreparedProxy {
    pub fn body_of(&self, view: ResponseView) -> &TextBody {
        match view {
            ResponseView::Body => &self.body,
            ResponseView::Headers => &self.headers,
            ResponseView::Raw => &self.raw,
        }
    }

    pub fn view_title(&self, view: ResponseView) -> String {
        match view {
            ResponseView::Body => self.body_kind.to_string(),
            ResponseView::Headers => format!("Headers {}", self.response.headers.len()),
            ResponseView::Raw => "Raw".to_string(),
        }
    }
}

/// Pretty JSON, HTML as styled text, anything else as it came.
pub fn prepare(response: ProxyResponse) -> PreparedProxy {
    let pretty = response
        .is_json()
        .then(|| crate::render::pretty_json(&response.body))
        .flatten();
    let (body_kind, body) = if let Some(pretty) = pretty {
        ("JSON", TextBody::raw(&pretty))
    } else if response.is_html() {
        let doc = render::html_to_document(&response.body, &RenderOptions::default());
        ("Page", TextBody::document(doc))
    } else {
        ("Text", TextBody::raw(&response.body))
    };
    let headers: Vec<String> = response
        .headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}"))
        .collect();
    PreparedProxy {
        body_kind,
        body,
        headers: TextBody::raw(&headers.join("\n")),
        raw: TextBody::raw(&response.body),
        response,
    }
}

/// A response on screen, with where each view is scrolled to.
#[derive(Debug)]
pub struct ResponseState {
    pub prepared: Box<PreparedProxy>,
    pub view: ResponseView,
    pub scroll: HashMap<ResponseView, usize>,
}

impl ResponseState {
    pub fn scroll_of(&self, view: ResponseView) -> usize {
        self.scroll.get(&view).copied().unwrap_or(0)
    }
}
