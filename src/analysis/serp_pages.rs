//! The pages of one HTML search body. Asked for several result pages (`serps` of 2 or more),
//! the live service sends each page's whole document, one after the other, separated by an
//! empty line; each is read as the page it is.

/// The documents of a results body in order; a body of one page is one. An empty line splits
/// only where a new document starts (`<!doctype` or `<html`), so blank lines inside a page
/// stay in it. Linear: each byte is looked at a bounded number of times.
pub fn split(body: &str) -> Vec<&str> {
    let bytes = body.as_bytes();
    let mut pages = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while let Some(found) = memchr::memchr(b'\n', &bytes[at..]) {
        let newline = at + found;
        let mut next = newline + 1;
        let mut line_ends = 1;
        while let Some(&byte) = bytes.get(next).filter(|b| b.is_ascii_whitespace()) {
            line_ends += usize::from(byte == b'\n');
            next += 1;
        }
        if line_ends >= 2 && starts_document(&bytes[next..]) {
            pages.push(body[start..newline].trim());
            start = next;
        }
        at = next;
    }
    pages.push(body[start..].trim());
    pages.retain(|page| !page.is_empty());
    if pages.is_empty() {
        pages.push(body);
    }
    pages
}

fn starts_document(rest: &[u8]) -> bool {
    let starts = |prefix: &[u8]| {
        rest.get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
    };
    starts(b"<!doctype")
        || (starts(b"<html")
            && rest
                .get(5)
                .is_some_and(|b| *b == b'>' || b.is_ascii_whitespace()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ONE: &str = "<!doctype html><html><body><p>one</p>\n\n<p>still one</p></body></html>";

    #[test]
    fn an_empty_line_before_a_new_document_splits_the_pages() {
        let two = format!("{ONE}\n\n<!DOCTYPE html><html><body>two</body></html>");
        assert_eq!(split(&two).len(), 2);
        assert_eq!(split(&two)[0], ONE);
        assert!(split(&two)[1].starts_with("<!DOCTYPE"));
        let crlf = format!("{ONE}\r\n  \r\n<html lang=\"en\"><body>two</body></html>\n");
        assert_eq!(split(&crlf).len(), 2);
        assert_eq!(split(&crlf)[1], "<html lang=\"en\"><body>two</body></html>");
    }

    #[test]
    fn a_blank_line_inside_a_page_or_around_it_does_not() {
        assert_eq!(split(ONE), vec![ONE]);
        assert_eq!(split(&format!("\n\n{ONE}\n\n")), vec![ONE]);
        assert_eq!(
            split("no markup\n\n<htmlish>"),
            vec!["no markup\n\n<htmlish>"]
        );
        assert_eq!(split(""), vec![""]);
        assert_eq!(split("\n\n\n").len(), 1);
    }

    proptest! {
        #[test]
        fn any_body_splits_into_its_own_pieces_in_order(
            body in prop::collection::vec(
                prop::sample::select(vec![
                    "\n", "\r\n", " ", "\t", "<!doctype html>", "<!DOCTYPE", "<html>",
                    "<HTML lang=x>", "<htmlx>", "x", "<p>", "é", "</html>",
                ]),
                0..40,
            ).prop_map(|parts| parts.concat())
        ) {
            let pages = split(&body);
            prop_assert!(!pages.is_empty());
            let mut from = 0;
            for page in &pages {
                let at = body[from..].find(page);
                prop_assert!(at.is_some(), "{page:?} out of order in {body:?}");
                from += at.unwrap_or(0) + page.len();
            }
        }

        #[test]
        fn documents_joined_by_an_empty_line_split_back(
            texts in prop::collection::vec("[a-z \n]{0,12}", 1..5)
        ) {
            let documents: Vec<String> = texts
                .iter()
                .map(|text| format!("<!doctype html><html><body>{text}</body></html>"))
                .collect();
            let body = documents.join("\n\n");
            prop_assert_eq!(split(&body), documents);
        }
    }
}
