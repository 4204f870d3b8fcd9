use super::*;

#[test]
fn smoke() {
    let d = html_to_document("<p>Hello <b>world</b></p>", &RenderOptions::default());
    assert_eq!(d.plain_text(), "Hello world");
}
