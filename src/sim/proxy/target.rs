//! The one site the simulator's proxies forward to: a page reporting the exit the request
//! left from and the options it carried. `/ip` (or any path ending in `.json`) answers JSON,
//! anything else HTML; a path containing `/blocked` is disallowed content (452).

use axum::body::Body;
use axum::http::{HeaderValue, Request, Response, StatusCode, header};
use serde_json::json;

use super::super::html::esc;
use super::auth::Exit;

/// Answers one request for the target site. `exit` is `None` when it came directly, not
/// through a proxy; `scheme` is how it reached the site (`http` or `https`).
pub fn answer<B>(request: &Request<B>, exit: Option<&Exit>, scheme: &str) -> Response<Body> {
    let path = request.uri().path();
    if path.contains("/blocked") {
        return text(
            452,
            "Disallowed content: the proxy network does not serve this target",
            exit,
        );
    }
    let via = exit.map(|e| e.network.as_str()).unwrap_or("direct");
    let options: serde_json::Map<String, serde_json::Value> = exit
        .map(|e| {
            e.options
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect()
        })
        .unwrap_or_default();
    let report = json!({
        "ip": exit.map_or("127.0.0.1", |e| e.ip.as_str()),
        "country": exit.map(|e| e.country.as_str()),
        "timezone": exit.map(|e| e.timezone),
        "asn": exit.map(|e| e.asn.as_str()),
        "network": via,
        "scheme": scheme,
        "method": request.method().as_str(),
        "path": path,
        "options": options,
    });
    let wants_json = path == "/ip" || path.ends_with(".json");
    let mut response = if wants_json {
        let body = serde_json::to_string_pretty(&report).unwrap_or_default();
        typed(StatusCode::OK, "application/json", body)
    } else {
        typed(
            StatusCode::OK,
            "text/html; charset=utf-8",
            html_page(&report),
        )
    };
    add_exit_headers(&mut response, exit);
    response
}

fn typed(status: StatusCode, content_type: &'static str, body: String) -> Response<Body> {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// A plain-text answer with any status (including the service's own 452 and 521).
pub fn text(status: u16, message: &str, exit: Option<&Exit>) -> Response<Body> {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    let mut response = typed(status, "text/plain; charset=utf-8", format!("{message}\n"));
    add_exit_headers(&mut response, exit);
    response
}

pub(crate) fn add_exit_headers(response: &mut Response<Body>, exit: Option<&Exit>) {
    let Some(exit) = exit else { return };
    for (name, value) in exit.headers() {
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().insert(name, value);
        }
    }
}

fn html_page(report: &serde_json::Value) -> String {
    let field = |key: &str| match &report[key] {
        serde_json::Value::String(s) => esc(s),
        serde_json::Value::Null => "—".to_string(),
        other => esc(&other.to_string()),
    };
    let options = report["options"]
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| format!("<li>{}: {}</li>", esc(k), esc(v.as_str().unwrap_or(""))))
                .collect::<String>()
        })
        .unwrap_or_default();
    let options = if options.is_empty() {
        "<p>No options were sent.</p>".to_string()
    } else {
        format!("<ul>{options}</ul>")
    };
    format!(
        "<!doctype html><html><head><title>Your exit</title></head><body>\
         <h1>Your exit</h1>\
         <p>IP address: {}</p><p>Country: {}</p><p>Time zone: {}</p><p>ASN: {}</p>\
         <p>Network: {} ({})</p><h2>Options</h2>{options}</body></html>",
        field("ip"),
        field("country"),
        field("timezone"),
        field("asn"),
        field("network"),
        field("scheme"),
    )
}
