//! Full-text search over the history and paging through all of it, over a real SQLite file:
//! the index follows every write, a file from before the index is indexed when opened.

use vantage::api::{AiRequest, SearchRequest};
use vantage::store::{Body, DB_FILE, RequestKind, RequestParams, Store, StoreOptions, now_ms};

fn open(dir: &tempfile::TempDir) -> Store {
    Store::open_in(dir.path(), StoreOptions::default()).expect("store opens")
}

fn body(text: &str) -> Body {
    Body {
        status: 200,
        text: text.to_string(),
        elapsed_ms: 10,
        received_at: now_ms(),
    }
}

fn answer_json(completion: &str) -> String {
    serde_json::json!({
        "model": "chatgpt",
        "completion": completion,
        "html": "<div class=\"markup-only\">Zeppelin</div>",
    })
    .to_string()
}

fn ids(items: &[vantage::store::HistoryItem]) -> Vec<String> {
    items.iter().map(|i| i.id.0.clone()).collect()
}

#[test]
fn answers_and_requests_are_found_by_their_words() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let (boots, _) = store.add_request(RequestParams::Ai(AiRequest::new("best hiking boots")));
    store
        .add_response(
            &boots,
            body(&answer_json("Try the Löwa Renegade or Merrell Moab.")),
        )
        .detach();
    let (search, _) = store.add_request(RequestParams::Search(SearchRequest::new("lowa boots")));
    let (other, ack) = store.add_request(RequestParams::Ai(AiRequest::new("best tents")));
    store
        .add_response(&other, body("not json: MSR Hubba"))
        .detach();
    ack.wait().unwrap();
    store.flush().wait().unwrap();

    // Diacritics and case ignored; newest first; request words count too.
    let found = store.search_history("LOWA", None, 50, 0).unwrap();
    assert_eq!(ids(&found), [search.0.clone(), boots.0.clone()]);
    assert_eq!(found[1].status, Some(200));
    let found = store
        .search_history("lowa", Some(RequestKind::Ai), 50, 0)
        .unwrap();
    assert_eq!(ids(&found), vec![boots.0.clone()]);
    // Every word must appear; a trailing * is a prefix.
    assert_eq!(
        ids(&store.search_history("merrell boots", None, 50, 0).unwrap()),
        vec![boots.0.clone()]
    );
    assert!(
        store
            .search_history("merrell tents", None, 50, 0)
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        ids(&store.search_history("hub*", None, 50, 0).unwrap()),
        vec![other.0.clone()]
    );
    // The page's HTML is not indexed, and query syntax typed by a user is taken as words.
    assert!(
        store
            .search_history("zeppelin", None, 50, 0)
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .search_history("NEAR(\"x", None, 50, 0)
            .unwrap()
            .is_empty()
    );
    assert!(store.search_history("", None, 50, 0).unwrap().is_empty());
}

#[test]
fn the_index_follows_replaced_answers_deletes_and_clears() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let (id, _) = store.add_request(RequestParams::Ai(AiRequest::new("boots")));
    store
        .add_response(&id, body(&answer_json("Salomon first")))
        .detach();
    store
        .add_response(&id, body(&answer_json("Hoka instead")))
        .wait()
        .unwrap();
    assert!(
        store
            .search_history("salomon", None, 10, 0)
            .unwrap()
            .is_empty()
    );
    assert_eq!(store.search_history("hoka", None, 10, 0).unwrap().len(), 1);
    assert_eq!(store.search_history("boots", None, 10, 0).unwrap().len(), 1);
    store.delete_history(&id).wait().unwrap();
    assert!(
        store
            .search_history("hoka", None, 10, 0)
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .search_history("boots", None, 10, 0)
            .unwrap()
            .is_empty()
    );

    let (id, _) = store.add_request(RequestParams::Ai(AiRequest::new("tents")));
    store
        .add_response(&id, body(&answer_json("MSR")))
        .wait()
        .unwrap();
    store.clear_history().wait().unwrap();
    assert!(store.search_history("msr", None, 10, 0).unwrap().is_empty());
}

#[test]
fn entries_stored_before_the_index_are_indexed_when_opened() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    {
        // The history tables as version 1 made them, with one answered request.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE requests (id TEXT PRIMARY KEY, kind TEXT NOT NULL, params TEXT NOT NULL,
                 summary TEXT NOT NULL, created_at INTEGER NOT NULL);
             CREATE TABLE responses (request_id TEXT PRIMARY KEY REFERENCES requests (id)
                 ON DELETE CASCADE, status INTEGER NOT NULL, body TEXT NOT NULL,
                 elapsed_ms INTEGER NOT NULL, size INTEGER NOT NULL, received_at INTEGER NOT NULL);
             CREATE TABLE jobs (id TEXT NOT NULL UNIQUE);
             INSERT INTO requests VALUES ('old', 'ai', '{\"prompt\":\"rain jackets\"}', 'rain jackets', 1);
             INSERT INTO responses VALUES ('old', 200, '{\"completion\":\"Arc''teryx Beta\"}', 5, 30, 2);
             INSERT INTO requests VALUES ('unanswered', 'search', 'not json', 'umbrellas', 3);
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let store = Store::open(&path, StoreOptions::default()).unwrap();
    assert_eq!(
        ids(&store.search_history("beta", None, 10, 0).unwrap()),
        ["old"]
    );
    assert_eq!(
        ids(&store.search_history("rain", None, 10, 0).unwrap()),
        ["old"]
    );
    assert_eq!(
        ids(&store.search_history("umbrellas", None, 10, 0).unwrap()),
        ["unanswered"]
    );
}

#[test]
fn history_pages_through_every_entry_not_only_the_newest() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(
        dir.path(),
        StoreOptions {
            history_max_entries: 10_000,
            ..StoreOptions::default()
        },
    )
    .unwrap();
    for n in 0..2_600 {
        let _ = store.add_request(RequestParams::Search(SearchRequest::new(format!(
            "query {n}"
        ))));
    }
    store.flush().wait().unwrap();
    assert_eq!(store.history_len().unwrap(), 2_600);
    let mut seen = std::collections::HashSet::new();
    let mut offset = 0;
    loop {
        let page = store.history(500, offset).unwrap();
        if page.is_empty() {
            break;
        }
        offset += page.len();
        seen.extend(page.into_iter().map(|i| i.id.0));
    }
    assert_eq!(seen.len(), 2_600);
    let oldest = store.history(1, 2_599).unwrap();
    assert_eq!(oldest[0].summary, SearchRequest::new("query 0").summary());
    let found = store.search_history("0", None, 10, 0).unwrap();
    assert_eq!(found.len(), 1, "the oldest entry is found by search too");
}
