//! `quartermaster league FOLDER` end to end: three campaigns played through the real binary,
//! two exported into a club's folder and one shared into a folder inside it, beside a damaged
//! file; the table's numbers, the damaged file named, and the folder left exactly as it was.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::cli_support::{qm_in, text};

fn ok(data: &Path, args: &[&str]) -> String {
    let out = qm_in(data, args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// A Lorraine campaign with its battles concluded as `winners` say (`us`, `german`, `draw`).
fn play(data: &Path, name: &str, us: &str, german: &str, winners: &[&str]) {
    ok(
        data,
        &[
            "campaign", "new", "lorraine", "--name", name, "--us", us, "--german", german,
        ],
    );
    for (n, winner) in winners.iter().enumerate() {
        let battle = (n + 1).to_string();
        ok(
            data,
            &[
                "campaign", "record", name, "--battle", &battle, "conclude", "--winner", winner,
            ],
        );
    }
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            for (name, bytes) in snapshot(&path) {
                files.insert(format!("{}/{name}", path.display()), bytes);
            }
        } else {
            files.insert(path.display().to_string(), std::fs::read(&path).unwrap());
        }
    }
    files
}

#[test]
fn three_campaigns_rank_and_a_damaged_file_is_named_and_the_folder_left_alone() {
    let data = tempfile::tempdir().unwrap();
    let data = data.path();
    let club = tempfile::tempdir().unwrap();
    let club = club.path();
    play(data, "Lezey", "Ann", "Bob", &["us", "german"]);
    play(data, "Moncourt", "bob", "Cid", &["us", "draw"]);
    play(data, "Arracourt", "Cid", "Ann", &["german"]);
    for (name, file) in [("Lezey", "lezey.json"), ("Moncourt", "moncourt.json")] {
        let out = club.join(file);
        ok(
            data,
            &["campaign", "export", name, "--out", out.to_str().unwrap()],
        );
    }
    let shared = club.join("arracourt");
    ok(
        data,
        &[
            "campaign",
            "share",
            "Arracourt",
            "--folder",
            shared.to_str().unwrap(),
        ],
    );
    // A copy cut short, as a sync caught half-way leaves it.
    let whole = std::fs::read_to_string(club.join("lezey.json")).unwrap();
    std::fs::write(club.join("damaged.json"), &whole[..whole.len() / 2]).unwrap();
    let before = snapshot(club);

    let table = ok(data, &["league", club.to_str().unwrap()]);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("Rank  Player"), "{table}");
    assert!(lines[0].contains("Points") && lines[0].contains("Army Morale left"));
    // Bob: 2 won, 1 drawn, 1 lost = 7 points; Ann 2 won, 1 lost = 6; Cid 1 drawn, 2 lost = 1.
    let cells: Vec<Vec<&str>> = lines[1..4]
        .iter()
        .map(|l| l.split_whitespace().take(7).collect())
        .collect();
    assert_eq!(cells[0], ["1", "Bob", "4", "2", "1", "1", "7"], "{table}");
    assert_eq!(cells[1], ["2", "Ann", "3", "2", "0", "1", "6"], "{table}");
    assert_eq!(cells[2], ["3", "Cid", "3", "0", "1", "2", "1"], "{table}");
    assert!(
        table.contains("Skipped: damaged.json: "),
        "the damaged file is named: {table}"
    );
    assert!(table.contains("Note: Points: 3 for a win, 1 for a draw"));
    assert!(table.contains("house default"));

    let json: Value =
        serde_json::from_str(&ok(data, &["league", club.to_str().unwrap(), "--json"])).unwrap();
    let players = json["players"].as_array().unwrap();
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["player"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Bob", "Ann", "Cid"], "first spelling kept: {json}");
    assert_eq!(players[0]["points"], 7);
    assert_eq!(players[0]["won"], 2);
    assert_eq!(players[0]["drawn"], 1);
    assert_eq!(players[0]["lost"], 1);
    assert_eq!(
        players[0]["campaigns"],
        serde_json::json!(["Lezey", "Moncourt"])
    );
    assert!(players[0]["measure"].as_u64().is_some());
    assert_eq!(
        players[1]["campaigns"],
        serde_json::json!(["Arracourt", "Lezey"])
    );
    let campaigns = json["campaigns"].as_array().unwrap();
    assert_eq!(campaigns.len(), 3);
    let arracourt = campaigns
        .iter()
        .find(|c| c["name"] == "Arracourt")
        .expect("the shared campaign is read");
    assert_eq!(arracourt["file"], "arracourt/");
    assert_eq!(arracourt["ruleset"], "armour-battles");
    assert_eq!(arracourt["battles"][0]["standing"], "German (Ann) won");
    assert_eq!(arracourt["battles"][1]["standing"], "Not started");
    let skipped = json["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(skipped[0]["file"], "damaged.json");
    assert!(!skipped[0]["reason"].as_str().unwrap().is_empty());
    assert_eq!(json["house_defaults"].as_array().map(Vec::len), Some(2));

    assert_eq!(
        snapshot(club),
        before,
        "the league folder is read only: no file changed, none added"
    );
}

#[test]
fn an_empty_folder_ranks_nobody_and_a_missing_one_is_an_error_naming_it() {
    let data = tempfile::tempdir().unwrap();
    let club = tempfile::tempdir().unwrap();
    let out = qm_in(data.path(), &["league", club.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("(no finished battles to rank)"));

    let missing = club.path().join("nowhere");
    let out = qm_in(data.path(), &["league", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("nowhere"),
        "{}",
        text(&out.stderr)
    );
}
