//! What the chat pages' markup means beyond HTML itself, for every reader of it (the renderer
//! and the readings of answers): the classes that hide an element from sight, and the
//! page's own controls drawn around an answer.

/// Classes that hide an element from sight (kept for screen readers).
pub const HIDDEN_CLASSES: &[&str] = &[
    "sr-only",
    "visually-hidden",
    "cdk-visually-hidden",
    "screen-reader-text",
    "a11y-hidden",
    "visuallyhidden",
    "hidden-visually",
    "assistive-text",
];

/// Whether an element with these attributes (name, value) is left out of an answer's words:
/// hidden from sight (the `hidden` attribute, `aria-hidden="true"`, a hiding class, an
/// inline style that hides), or the page's chrome around the answer, which Copilot marks
/// `data-copy="false"` (its citation chips, the row of cards ending in "Show all", the
/// reactions ending in "Edit in a page"): what its own "Copy" leaves out.
pub fn hides<'a>(attrs: impl IntoIterator<Item = (&'a str, &'a str)>) -> bool {
    attrs.into_iter().any(|(name, value)| match name {
        "hidden" | "popover" => true,
        "data-copy" => value.trim().eq_ignore_ascii_case("false"),
        "aria-hidden" => value.trim().eq_ignore_ascii_case("true"),
        "class" => value
            .split_ascii_whitespace()
            .any(|c| HIDDEN_CLASSES.contains(&c)),
        "style" => {
            let style: String = value
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
                .to_ascii_lowercase();
            style.contains("display:none") || style.contains("visibility:hidden")
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_by_class_attribute_or_style() {
        assert!(hides([("class", "x sr-only")]));
        assert!(hides([("aria-hidden", " TRUE ")]));
        assert!(hides([("style", "Display: None")]));
        assert!(hides([("hidden", "")]));
        assert!(hides([("data-copy", "false")]));
        assert!(!hides([("data-copy", "true")]));
        assert!(!hides([
            ("class", "sr-only-focusable"),
            ("aria-hidden", "false")
        ]));
    }
}
