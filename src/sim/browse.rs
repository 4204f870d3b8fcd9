//! What `/browser` answers: the reserved example domains answer the well-known example page,
//! any other URL a generated shop page whose language, currency and prices follow the
//! vantage point, so a comparison across locations has something to show. Each page is one
//! model written three ways: rendered (the DOM after scripts ran), raw (the document as the
//! server sent it, content still in a script) and Markdown.

use serde_json::json;

use super::html::{esc, noise};
use super::place::Place;
use super::seed::Mix;
use super::topic::title_case;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BrowseFormat {
    Rendered,
    Raw,
    Markdown,
}

/// Where the page is browsed from.
pub(crate) struct Vantage<'a> {
    pub country: Option<&'a str>,
    pub subdivision: Option<&'a str>,
    pub city: Option<&'a str>,
    pub device: Option<&'a str>,
}

enum Part {
    Heading(u8, String),
    Paragraph(String),
    Items(Vec<String>),
    Link(String, String),
}

struct SitePage {
    lang: &'static str,
    title: String,
    parts: Vec<Part>,
    /// Products a script fills in; only the raw document keeps them out of the markup.
    scripted: Option<serde_json::Value>,
}

/// The hosts IANA reserves for documentation (RFC 2606), with or without `www.`.
fn is_example_domain(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    matches!(host, "example.com" | "example.net" | "example.org")
}

/// Top-level domains reserved never to resolve (RFC 2606 and 6761): a page there does not
/// exist, and the live service answers 404 "Domain is nonexistant" for such a domain.
const UNRESOLVABLE_TLDS: [&str; 4] = ["invalid", "example", "test", "localhost"];

/// Whether the URL's host is under a reserved top-level domain, so no page can be fetched.
pub(crate) fn cannot_resolve(url: &url::Url) -> bool {
    let Some(url::Host::Domain(host)) = url.host() else {
        return false;
    };
    let host = host.trim_end_matches('.');
    let tld = host.rsplit('.').next().unwrap_or(host);
    UNRESOLVABLE_TLDS
        .iter()
        .any(|reserved| tld.eq_ignore_ascii_case(reserved))
}

/// The page and its content type. Markdown too is sent as `text/html`: the OpenAPI document
/// lists no other type for `/browser`, and clients written for it read that.
pub(crate) fn browse(
    url: &url::Url,
    vantage: &Vantage<'_>,
    format: BrowseFormat,
) -> (&'static str, String) {
    let page = if url.host_str().is_some_and(is_example_domain) {
        example_page()
    } else {
        shop_page(url, vantage)
    };
    match format {
        BrowseFormat::Rendered => ("text/html; charset=utf-8", rendered(&page)),
        BrowseFormat::Raw => ("text/html; charset=utf-8", raw(&page, url)),
        BrowseFormat::Markdown => ("text/html; charset=utf-8", markdown(&page)),
    }
}

fn example_page() -> SitePage {
    SitePage {
        lang: "en",
        title: "Example Domain".into(),
        parts: vec![
            Part::Heading(1, "Example Domain".into()),
            Part::Paragraph(
                "This domain is for use in documentation examples without needing permission. Avoid use in operations.".into(),
            ),
            Part::Link(
                "Learn more".into(),
                "https://iana.org/domains/example".into(),
            ),
        ],
        scripted: None,
    }
}

/// The words a shop page needs, in the language of the country it is browsed from.
struct Words {
    lang: &'static str,
    products: &'static str,
    in_stock: &'static str,
    delivery: &'static str,
    taxes: &'static str,
    about: &'static str,
}

fn words(country: Option<&str>) -> Words {
    let code = country.unwrap_or("").to_ascii_uppercase();
    let (lang, products, in_stock, delivery, taxes, about) = match code.as_str() {
        "DE" | "CH" | "AT" => (
            "de",
            "Produkte",
            "auf Lager",
            "Lieferung nach",
            "Alle Preise inkl. MwSt.",
            "Über uns",
        ),
        "FR" => (
            "fr",
            "Produits",
            "en stock",
            "Livraison à",
            "Prix TTC.",
            "À propos",
        ),
        "ES" | "MX" => (
            "es",
            "Productos",
            "en stock",
            "Envío a",
            "Precios con IVA incluido.",
            "Quiénes somos",
        ),
        "IT" => (
            "it",
            "Prodotti",
            "disponibile",
            "Consegna a",
            "Prezzi IVA inclusa.",
            "Chi siamo",
        ),
        "NL" => (
            "nl",
            "Producten",
            "op voorraad",
            "Bezorging naar",
            "Prijzen inclusief btw.",
            "Over ons",
        ),
        "SE" => (
            "sv",
            "Produkter",
            "i lager",
            "Leverans till",
            "Alla priser inkl. moms.",
            "Om oss",
        ),
        "JP" => (
            "ja",
            "商品",
            "在庫あり",
            "配送先",
            "価格はすべて税込です。",
            "会社概要",
        ),
        "BR" => (
            "pt",
            "Produtos",
            "em estoque",
            "Entrega para",
            "Preços com impostos incluídos.",
            "Sobre nós",
        ),
        _ => (
            "en",
            "Products",
            "in stock",
            "Delivery to",
            "Prices include taxes where they apply.",
            "About us",
        ),
    };
    Words {
        lang,
        products,
        in_stock,
        delivery,
        taxes,
        about,
    }
}

fn shop_page(url: &url::Url, vantage: &Vantage<'_>) -> SitePage {
    let host = url.host_str().unwrap_or("shop").trim_start_matches("www.");
    let shop = title_case(host.split('.').next().unwrap_or(host));
    let subject = url
        .path_segments()
        .and_then(|mut segments| segments.rfind(|s| !s.is_empty()))
        .map(|s| title_case(&s.replace(['-', '_'], " ")))
        .unwrap_or_else(|| "Featured".to_string());
    let place = Place::new(vantage.country, vantage.subdivision, vantage.city);
    let words = words(vantage.country);
    let mut mix = Mix::of(&["shop", url.as_str()]);
    let products: Vec<(String, u32)> = ["Classic", "Pro", "Lite", "Max"]
        .iter()
        .map(|edition| {
            let usd = 20 + mix.below(480) as u32;
            (format!("{subject} {edition}"), usd)
        })
        .collect();
    let items = products
        .iter()
        .map(|(name, usd)| format!("{name} — {} ({})", place.price(*usd), words.in_stock))
        .collect();
    let mut parts = vec![Part::Heading(1, format!("{shop}: {subject}"))];
    if place.is_set() {
        parts.push(Part::Paragraph(format!(
            "{} {}.",
            words.delivery,
            place.label()
        )));
    }
    if let Some(device) = vantage.device {
        parts.push(Part::Paragraph(format!("Layout for {device}.")));
    }
    parts.push(Part::Heading(2, words.products.to_string()));
    parts.push(Part::Items(items));
    parts.push(Part::Paragraph(words.taxes.to_string()));
    let about = url
        .join("/about")
        .map(|u| u.to_string())
        .unwrap_or_default();
    parts.push(Part::Link(words.about.to_string(), about));
    let scripted = json!(
        products
            .iter()
            .map(|(name, usd)| json!({"name": name, "price": place.price(*usd)}))
            .collect::<Vec<_>>()
    );
    SitePage {
        lang: words.lang,
        title: format!("{subject} | {shop}"),
        parts,
        scripted: Some(scripted),
    }
}

fn part_html(part: &Part) -> String {
    match part {
        Part::Heading(level, text) => format!("<h{level}>{}</h{level}>", esc(text)),
        Part::Paragraph(text) => format!("<p>{}</p>", esc(text)),
        Part::Items(items) => {
            let items: String = items
                .iter()
                .map(|item| format!("<li>{}</li>", esc(item)))
                .collect();
            format!("<ul class=\"products\">{items}</ul>")
        }
        Part::Link(text, href) => format!("<p><a href=\"{}\">{}</a></p>", esc(href), esc(text)),
    }
}

fn document(page: &SitePage, head_extra: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"{}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title>{head_extra}</head><body><div>{body}</div></body></html>",
        page.lang,
        esc(&page.title)
    )
}

fn rendered(page: &SitePage) -> String {
    let body: String = page.parts.iter().map(part_html).collect();
    document(page, "", &body)
}

/// The document before its scripts ran: the product list is an empty mount point and its
/// data sits in a script, with the bundles a real shop loads.
fn raw(page: &SitePage, url: &url::Url) -> String {
    let Some(data) = &page.scripted else {
        return rendered(page);
    };
    let mut mix = Mix::of(&["raw", url.as_str()]);
    let body: String = page
        .parts
        .iter()
        .map(|part| match part {
            Part::Items(_) => "<ul class=\"products\" data-mount=\"products\"></ul>".to_string(),
            other => part_html(other),
        })
        .collect();
    // Escaped so the data cannot close its script element.
    let data = data.to_string().replace('<', "\\u003c");
    let scripts = format!(
        "<script type=\"application/json\" id=\"__DATA__\">{data}</script>{}",
        noise(&mut mix, 3)
    );
    document(page, &noise(&mut mix, 2), &format!("{body}{scripts}"))
}

fn markdown(page: &SitePage) -> String {
    let blocks: Vec<String> = page
        .parts
        .iter()
        .map(|part| match part {
            Part::Heading(level, text) => format!("{} {text}", "#".repeat(usize::from(*level))),
            Part::Paragraph(text) => text.clone(),
            Part::Items(items) => items
                .iter()
                .map(|item| format!("- {item}"))
                .collect::<Vec<_>>()
                .join("\n"),
            Part::Link(text, href) => format!("[{text}]({href})"),
        })
        .collect();
    format!("{}\n", blocks.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(url: &str, country: Option<&str>, format: BrowseFormat) -> String {
        let url = url::Url::parse(url).unwrap_or_else(|e| panic!("{e}"));
        let vantage = Vantage {
            country,
            subdivision: None,
            city: None,
            device: None,
        };
        browse(&url, &vantage, format).1
    }

    #[test]
    fn example_domains_answer_the_example_page() {
        for url in [
            "https://example.com/",
            "http://www.example.net/x",
            "https://EXAMPLE.org",
        ] {
            let markdown = page(url, Some("DE"), BrowseFormat::Markdown);
            assert!(markdown.starts_with("# Example Domain\n"), "{markdown}");
        }
        assert!(!is_example_domain("example.co"));
        assert!(!is_example_domain("notexample.com"));
    }

    #[test]
    fn formats_differ_and_shop_pages_follow_the_country() {
        let url = "https://shop.test/boots/trail-runner";
        let rendered = page(url, Some("FR"), BrowseFormat::Rendered);
        let raw = page(url, Some("FR"), BrowseFormat::Raw);
        assert!(rendered.contains("lang=\"fr\"") && rendered.contains(" €"));
        assert!(raw.contains("__DATA__") && !raw.contains("<li>"));
        let markdown = page(url, Some("JP"), BrowseFormat::Markdown);
        assert!(
            markdown.contains("## 商品") && markdown.contains('¥'),
            "{markdown}"
        );
    }
}
