//! `quartermaster data …` end to end on the test game system and catalogues
//! (`tests/fixtures/battlescribe`, the project's own data): a folder or zipped files import
//! with a report of what was left out; a force built from the data prices as the catalogue
//! says; a second revision lists each saved force's changes and re-prices only when asked;
//! every kind of bad input is refused naming its file and line, with nothing imported.

use std::path::{Path, PathBuf};

use crate::cli_support::{qm_in as qm, text};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/battlescribe")
        .join(name)
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs a command that must succeed; its standard output.
fn ok(dir: &Path, args: &[&str]) -> String {
    let out = qm(dir, args);
    assert!(
        out.status.success(),
        "{args:?}: {}\n{}",
        text(&out.stderr),
        text(&out.stdout)
    );
    text(&out.stdout)
}

/// Asserts that `out` holds `needle`, showing `out` when it does not.
fn says(out: &str, needle: &str) {
    assert!(out.contains(needle), "no {needle:?} in\n{out}");
}

/// Runs a command that must fail with exit 2; its standard error.
fn refused(dir: &Path, args: &[&str]) -> String {
    let out = qm(dir, args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?}: {}",
        text(&out.stdout)
    );
    text(&out.stderr)
}

const PLATOON: &str = "Blue Platoon
Bolt Action · Reinforced Platoon, 1000 points

Platoon Commander [Veteran]
2 × Line Squad [Regular; 2 × Extra man]
Line Squad [Veteran; 3 × Extra man; LMG]
Warden Medium Tank [Regular; Pintle-mounted MMG]
Light Mortar Team
";

#[test]
fn a_folder_imports_with_what_it_left_out_listed_by_entry() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("BattleScribe data");
    std::fs::create_dir(&data).unwrap();
    for name in ["test_system.gst", "blue_army.cat"] {
        std::fs::copy(fixture(name), data.join(name)).unwrap();
    }
    let out = ok(dir.path(), &["data", "import", arg(&data)]);
    says(
        &out,
        "Bolt Action test system r3 (game system, test_system.gst): new — force organisations: Reinforced Platoon, Armoured Platoon",
    );
    says(
        &out,
        "Blue Army r1 (catalogue, blue_army.cat): new — 6 units",
    );
    says(&out, "Not understood or left out (6), by entry:");
    says(
        &out,
        "  blue_army.cat line 80: Line Squad › Squad weapons › LMG: a modifier (set pts 15.0) applies only when",
    );
    let again = ok(dir.path(), &["data", "import", arg(&data)]);
    says(
        &again,
        "Blue Army r1 (catalogue, blue_army.cat): already imported, unchanged",
    );
    let list = ok(dir.path(), &["data", "list"]);
    says(&list, "Blue Army r1");
    assert_eq!(list.lines().count(), 2, "{list}");
}

#[test]
fn a_force_from_the_data_prices_as_the_catalogue_and_a_new_revision_waits_for_the_player() {
    let dir = tempfile::tempdir().unwrap();
    // The zipped forms, as BattleScribe writes them.
    ok(
        dir.path(),
        &[
            "data",
            "import",
            arg(&fixture("test_system.gst")),
            arg(&fixture("blue_army.catz")),
        ],
    );
    let list = dir.path().join("platoon.txt");
    std::fs::write(&list, PLATOON).unwrap();
    let out = ok(dir.path(), &["force", "import", "--text", arg(&list)]);
    says(
        &out,
        "Blue Platoon: legal — 569 / 1000 points (Reinforced Platoon)",
    );
    let shown = ok(dir.path(), &["force", "show", "Blue Platoon", "--text"]);
    says(
        &shown,
        "1 × Line Squad · Blue Army r1 [Veteran; 3 × Extra man; LMG] — 124 points",
    );
    // A campaign set up from it now: its battles keep the revision they were set up with.
    let first = dir.path().join("first.json");
    let second = dir.path().join("second.json");
    ok(
        dir.path(),
        &["force", "export", "Blue Platoon", "--out", arg(&first)],
    );
    std::fs::write(
        &second,
        std::fs::read_to_string(&first)
            .unwrap()
            .replace("Blue Platoon", "Blue Reserve"),
    )
    .unwrap();
    ok(
        dir.path(),
        &[
            "campaign",
            "new",
            "bolt-action",
            "--name",
            "Blue league",
            "--force",
            arg(&first),
            "--force",
            arg(&second),
            "--first",
            "Ann",
            "--second",
            "Bob",
        ],
    );

    // Revision 2 alone: read against the stored game system; the force keeps its prices.
    let out = ok(
        dir.path(),
        &["data", "import", arg(&fixture("blue_army_r2.cat"))],
    );
    says(
        &out,
        "Blue Army r2 (catalogue, blue_army_r2.cat): newer than r1 — 6 units",
    );
    says(&out, "  Blue Platoon:\n");
    says(
        &out,
        "    Line Squad (line 3, r1 → r2): 124 → 129 pts; LMG: 20 → 25 pts each\n",
    );
    says(
        &out,
        "    Warden Medium Tank (line 4, r1 → r2): 210 → 200 pts; option removed: Pintle-mounted MMG\n",
    );
    let kept = ok(dir.path(), &["force", "show", "Blue Platoon"]);
    says(&kept, "legal — 569 / 1000 points");

    let out = ok(dir.path(), &["data", "reprice", "blue platoon"]);
    says(
        &out,
        "! Warden Medium Tank: option removed: Pintle-mounted MMG",
    );
    says(&out, "Blue Platoon: legal — 564 / 1000 points");
    let out = ok(dir.path(), &["data", "reprice", "Blue Platoon"]);
    says(&out, "priced with the newest imported data already");
    let json = ok(dir.path(), &["data", "list", "--json"]);
    let all: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(all.as_array().map(Vec::len), Some(3), "{json}");
    let store = quartermaster::store::Store::open(dir.path()).unwrap();
    let id = store.find_campaign("Blue league").unwrap().unwrap();
    let board = store.load_campaign(id).unwrap().record.board(0).unwrap();
    let revisions: Vec<u32> = board
        .units
        .iter()
        .filter_map(|u| u.card.army().map(|a| a.source.revision))
        .collect();
    assert_eq!(revisions.len(), 12, "both forces' six units");
    assert!(revisions.iter().all(|r| *r == 1), "{revisions:?}");
}

#[test]
fn a_text_list_given_without_text_says_to_add_it() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list.txt");
    std::fs::write(&list, "Baker Company\nBolt Action - 500 points\nTruck 39\n").unwrap();
    let error = refused(dir.path(), &["force", "import", arg(&list)]);
    assert!(
        error.contains("not a force file (JSON) — for a text list add --text (`quartermaster force import --text "),
        "{error}"
    );
}

/// Each bad input: the message names the file (and line where it has one), and nothing of
/// the import is stored.
#[test]
fn bad_data_is_refused_naming_the_file_and_line_and_nothing_is_imported() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, body: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, body).unwrap();
        path
    };
    let blue = std::fs::read_to_string(fixture("blue_army.cat")).unwrap();
    let edited = |name: &str, from: &str, to: &str| write(name, blue.replace(from, to).as_bytes());
    let malformed = edited(
        "malformed.cat",
        "</selectionEntries>\n  <entryLinks>",
        "<entryLinks>",
    );
    let future = edited(
        "future.cat",
        "battleScribeVersion=\"2.03\"",
        "battleScribeVersion=\"9.9\"",
    );
    let looped = write(
        "looped.cat",
        blue.replace(
            "<selectionEntry id=\"qm-e-tracks\" name=\"Spare tracks\" hidden=\"false\" type=\"upgrade\">",
            "<selectionEntry id=\"qm-e-tracks\" name=\"Spare tracks\" hidden=\"false\" type=\"upgrade\"><entryLinks><entryLink id=\"x\" name=\"Vehicle upgrades again\" targetId=\"qm-g-vehicle\" type=\"selectionEntryGroup\"/></entryLinks>",
        )
        .as_bytes(),
    );
    let huge = write("huge.cat", &vec![b' '; 50 * 1024 * 1024 + 1]);
    let notes = write("notes.txt", b"not data");
    let system = fixture("test_system.gst");
    let cases: Vec<(Vec<PathBuf>, &str)> = vec![
        (
            vec![system.clone(), malformed],
            "malformed.cat line 391: not readable XML — expected 'selectionEntries' tag, not 'catalogue'",
        ),
        (
            vec![system.clone(), future],
            "future.cat line 2: BattleScribe schema version \"9.9\" is not one this app reads",
        ),
        (
            vec![system.clone(), looped],
            "looped.cat line 384: the links loop back on themselves (Vehicle upgrades (line 260) → Vehicle upgrades again (line 384) again)",
        ),
        (
            vec![system.clone(), huge],
            "huge.cat: 50.0 MB is more than the 50 MB an army list can be",
        ),
        (
            vec![system.clone(), fixture("other_system.cat")],
            "other_system.cat line 2: a catalogue for another game system (qm-starfight)",
        ),
        (
            vec![system.clone(), fixture("bomb.catz")],
            "bomb.catz › bomb.cat: it inflates",
        ),
        (
            vec![fixture("blue_army.cat")],
            "blue_army.cat: no game system (.gst or .gstz) was given",
        ),
        (
            vec![system.clone(), notes],
            "notes.txt: not a BattleScribe file",
        ),
    ];
    for (paths, says) in cases {
        let mut args = vec!["data", "import"];
        args.extend(paths.iter().map(|p| arg(p)));
        let error = refused(dir.path(), &args);
        assert!(
            error.starts_with(&format!("error: nothing imported — {says}")),
            "expected {says}, got {error}"
        );
    }
    let list = ok(dir.path(), &["data", "list"]);
    assert!(list.starts_with("no army data imported yet"), "{list}");

    // A revision imported before with other contents: refused, and the rest of that import
    // (the game system given with it) is not stored either.
    ok(
        dir.path(),
        &[
            "data",
            "import",
            arg(&fixture("blue_army.cat")),
            arg(&system),
        ],
    );
    let changed = edited("changed.cat", "value=\"195.0\"", "value=\"999.0\"");
    let bumped = write(
        "system_r4.gst",
        std::fs::read_to_string(&system)
            .unwrap()
            .replace("revision=\"3\"", "revision=\"4\"")
            .as_bytes(),
    );
    let error = refused(dir.path(), &["data", "import", arg(&bumped), arg(&changed)]);
    says(
        &error,
        "changed.cat line 1: revision 1 of Blue Army was imported before with different contents",
    );
    let list = ok(dir.path(), &["data", "list"]);
    assert!(!list.contains(" r4"), "{list}");
}
