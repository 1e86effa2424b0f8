//! The campaign after-action report end to end: a Lorraine campaign whose first battle the
//! scripted player fights to the end, laid out (one page per battle, everything inside the
//! margins) and written as PDF read back with lopdf.

use lopdf::Document;
use quartermaster::campaign::{
    self, CampaignRecord, CampaignUid, Event, LorraineOptions, Recorder, Sides,
};
use quartermaster::export::{
    self, ExportDate, ExportError, Item, Layout, Segment, Stage, export_after_action,
    layout_after_action, templates,
};
use quartermaster::rules::RulesetId;
use quartermaster::rules::armour_battles::Side;

fn date() -> ExportDate {
    "2025-03-14".parse().unwrap()
}

fn none(_: export::Progress) {}

fn players() -> Sides<String> {
    Sides {
        first: "Alice".to_string(),
        second: "Bruno".to_string(),
    }
}

fn push(record: &mut CampaignRecord, index: usize, event: Event) {
    let seq = u32::try_from(record.logs[index].len() + 1).unwrap();
    let at = format!("2026-11-22T{:02}:{:02}:00Z", 9 + seq / 60, seq % 60);
    record.append_numbered(index, at, event).unwrap();
}

/// A Lorraine campaign (its id from `seed`, so its dice are the same each run) whose battle 1
/// the scripted player fights to its end, with a note taken back by an undo early on.
fn lorraine_with_battle_1_fought(seed: u64) -> CampaignRecord {
    let created = campaign::new_lorraine("Lezey 1944", players(), LorraineOptions::default())
        .expect("the briefings load");
    let id = CampaignUid(uuid::Uuid::from_u128(
        0x0192_0000_0000_7000_8000_0000_0000_0000 | u128::from(seed),
    ));
    let mut record = CampaignRecord::new(id, created);
    while let Some(event) = record.scripted(0, &Recorder::default()).unwrap() {
        push(&mut record, 0, event);
        if record.logs[0].len() == 4 {
            push(
                &mut record,
                0,
                Event::Note {
                    text: "Smoke on the ridge".to_string(),
                },
            );
            push(&mut record, 0, Event::Undo { seq: 5 });
        }
        assert!(record.logs[0].len() < 5_000, "the battle ends");
    }
    assert!(record.board(0).unwrap().outcome.is_some());
    record
}

fn a4(record: &CampaignRecord) -> Layout {
    layout_after_action(record, "a4", date(), &mut none).unwrap()
}

/// Index of the page where the battle titled `title` starts: its title set large (the
/// campaign header lists the battles too, in small type).
fn page_of(layout: &Layout, title: &str) -> Option<usize> {
    layout
        .pages
        .iter()
        .position(|p| p.texts().any(|t| t.text == title && t.size_pt >= 12.0))
}

#[test]
fn every_fought_battle_starts_its_own_page_with_title_result_and_losses() {
    let mut record = lorraine_with_battle_1_fought(7);
    push(
        &mut record,
        1,
        Event::Note {
            text: "Battle 2 begins".to_string(),
        },
    );
    let layout = a4(&record);

    let titles: Vec<String> = record.battles().map(|b| b.plan.title()).collect();
    assert_eq!(titles[0], "Battle 1: Meeting Engagement");
    let starts: Vec<usize> = titles[..2]
        .iter()
        .map(|t| page_of(&layout, t).unwrap_or_else(|| panic!("{t} is printed")))
        .collect();
    assert_eq!(
        starts[0], 0,
        "battle 1 shares page 1 with the campaign header"
    );
    assert!(starts[0] < starts[1], "{starts:?}");
    let first_text = layout.pages[starts[1]].texts().next().unwrap();
    assert_eq!(first_text.text, titles[1], "a battle opens its page");

    let first = layout.pages[0].plain_text();
    for words in [
        "Lezey 1944",
        "Armour Battles campaign",
        "US (Alice)",
        "German (Bruno)",
        "0700 hours, 20 September 1944",
        "Near Lezey, Lorraine",
    ] {
        assert!(first.contains(words), "page 1 lacks {words:?}:\n{first}");
    }
    let summary = record.result().summary;
    assert!(first.contains(&summary), "{summary:?}");

    let result = &record.results()[0];
    let winner = result.standing.winner().expect("the battle has a winner");
    let won = format!("{} won", campaign::side_label(&record.campaign, winner));
    let battle_1: String = layout.pages[starts[0]..starts[1]]
        .iter()
        .map(|p| p.plain_text())
        .collect::<Vec<_>>()
        .join("\n")
        .replace('\n', " ");
    assert!(battle_1.contains(&won), "{won:?}");
    assert!(battle_1.contains(&result.reason), "{:?}", result.reason);
    assert!(battle_1.contains(&format!("{} turns played", result.turns)));

    let loser = campaign::definition::opponent(winner);
    let dispersed: Vec<String> = record.board(0).unwrap().losses(loser);
    assert!(!dispersed.is_empty());
    for name in &dispersed {
        assert!(
            battle_1.contains(name.as_str()),
            "lost unit {name} is named"
        );
    }
    assert!(battle_1.contains(&format!(
        "{}: {} of",
        campaign::side_label(&record.campaign, loser),
        dispersed.len()
    )));

    // Finding 9: an unfought battle took a near-blank page; now it is one line.
    assert_eq!(page_of(&layout, &titles[2]), None);
    let last = layout.pages.last().unwrap().plain_text().replace('\n', " ");
    assert!(
        last.contains("Not fought yet: Battle 3: Counter-Attack — nothing recorded."),
        "{last}"
    );
}

#[test]
fn army_morale_is_a_table_and_a_line_chart_for_both_sides() {
    let record = lorraine_with_battle_1_fought(7);
    let layout = a4(&record);
    let by_turn = record.battle(0).unwrap().score_by_turn(&Sides::default());
    let turns = by_turn.len() - 1;
    assert_eq!(turns as u32, record.board(0).unwrap().turn);
    let page = &layout.pages[0];
    let text = page.plain_text();
    assert!(text.contains("Army Morale"));
    assert!(text.contains("Start"));

    // The German line is dashed, the US line solid in the accent colour: one segment per turn.
    let accent = templates()
        .unwrap()
        .card_template(RulesetId::ArmourBattles)
        .unwrap()
        .colors
        .accent;
    let segments = |dashed: bool| {
        page.items
            .iter()
            .filter(|item| match item {
                Item::Line(Segment { x1, x2, stroke, .. }) => {
                    (x2 - x1).abs() > 0.01
                        && stroke.width_pt > 1.0
                        && stroke.dash_pt.is_some() == dashed
                        && (dashed || stroke.color == accent)
                }
                _ => false,
            })
            .count()
    };
    // Plus one legend sample each.
    assert_eq!(segments(false), turns + 1);
    assert_eq!(segments(true), turns + 1);

    // The last column of the table is the final Army Morale of both sides.
    let last = by_turn.last().unwrap();
    let finals = [last.first.to_string(), last.second.to_string()];
    for value in finals {
        assert!(page.texts().any(|t| t.text == value), "{value}");
    }
    let loser = record.results()[0].standing.winner().map(|w| match w {
        Side::First => last.second,
        Side::Second => last.first,
    });
    assert_eq!(loser, Some(0), "the losing side ends at 0 Army Morale");
}

#[test]
fn the_event_log_lists_every_event_with_undone_ones_marked() {
    let record = lorraine_with_battle_1_fought(7);
    let layout = a4(&record);
    // Battles 2 and 3 are unfought: the log runs to the end of the report.
    assert_eq!(page_of(&layout, "Battle 2: Attack/Defend"), None);
    let battle_2 = layout.pages.len();
    let log: Vec<String> = layout.pages[..battle_2]
        .iter()
        .flat_map(|p| p.texts().map(|t| t.text.clone()).collect::<Vec<_>>())
        .collect();
    let joined = log.join(" ");
    assert!(
        joined.contains("Note: Smoke on the ridge (undone)"),
        "undone note marked"
    );
    assert!(joined.contains("Undo of event 5"));
    assert!(joined.contains("Turn 1: command dice"));
    // Every sequence number and its time of day are printed.
    let events = record.logs[0].len();
    for seq in 1..=events {
        assert!(log.iter().any(|t| t == &seq.to_string()), "seq {seq}");
    }
    assert!(log.iter().any(|t| t == "09:01"));
    // The undone entry is struck through: a thin line across its text.
    let (page, run) = layout.pages[..battle_2]
        .iter()
        .find_map(|p| {
            p.texts()
                .find(|t| t.text.contains("Smoke on the ridge"))
                .map(|t| (p, t))
        })
        .unwrap();
    let struck = page.items.iter().any(|item| {
        matches!(item, Item::Line(Segment { x1, y1, x2, .. })
            if (x1 - run.x).abs() < 0.01
                && (x2 - (run.x + run.width)).abs() < 0.01
                && *y1 < run.baseline && *y1 > run.baseline - 3.0)
    });
    assert!(struck);
    if battle_2 > 1 {
        assert!(
            layout.pages[1]
                .plain_text()
                .starts_with("Battle 1: Meeting Engagement — event log, continued")
        );
    }
}

/// The log says once who recorded it: "Recorded by Alice on laptop.", and for a library with
/// no player's name "Recorded on vm." (it once printed "Recorded by on vm.").
#[test]
fn the_log_names_its_recorder_in_words_with_or_without_a_player() {
    for (player, said) in [
        ("Alice", "Recorded by Alice on laptop."),
        ("", "Recorded on laptop."),
    ] {
        let created = campaign::new_lorraine("Lezey 1944", players(), LorraineOptions::default())
            .expect("the briefings load");
        let mut record = CampaignRecord::new(CampaignUid(uuid::Uuid::from_u128(9)), created);
        let by = Recorder {
            player: player.into(),
            machine: "laptop".into(),
        };
        let id = campaign::EventUid(uuid::Uuid::from_u128(10));
        let note = Event::Note {
            text: "Smoke on the ridge".into(),
        };
        record
            .append(0, id, "2026-11-22T09:00:00Z".into(), by, note)
            .unwrap();
        let text = a4(&record).plain_text().replace('\n', " ");
        assert!(text.contains(said), "{player:?}: {text}");
        assert!(!text.contains("by on"), "{text}");
    }
}

#[test]
fn nothing_in_the_report_crosses_the_page_margins() {
    let record = lorraine_with_battle_1_fought(7);
    let margin = templates().unwrap().roster.margin_mm;
    for page_size in ["a4", "letter"] {
        let layout = layout_after_action(&record, page_size, date(), &mut none).unwrap();
        for (n, page) in layout.pages.iter().enumerate() {
            let (left, right) = (margin - 0.01, page.width - margin + 0.01);
            let (top, bottom) = (margin - 0.01, page.height - margin * 0.5 + 0.01);
            for item in &page.items {
                let (x1, y1, x2, y2) = match item {
                    Item::Text(t) => (t.x, t.baseline, t.x + t.width, t.baseline),
                    Item::Line(Segment { x1, y1, x2, y2, .. }) => (*x1, *y1, *x2, *y2),
                    Item::Rect { x, y, w, h, .. } => (*x, *y, x + w, y + h),
                    Item::Path { points, .. } => points.iter().fold(
                        (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
                        |(a, b, c, d), &(x, y)| (a.min(x), b.min(y), c.max(x), d.max(y)),
                    ),
                };
                // The scale bar stands in the top margin, 5 mm from the edge.
                if y1.max(y2) < margin && y1.min(y2) >= 5.0 {
                    continue;
                }
                assert!(
                    x1.min(x2) >= left && x1.max(x2) <= right,
                    "{page_size} page {}: {item:?} crosses a side margin",
                    n + 1
                );
                assert!(
                    y1.min(y2) >= top && y1.max(y2) <= bottom,
                    "{page_size} page {}: {item:?} leaves the page",
                    n + 1
                );
            }
            // No two pieces of text overprint each other.
            let boxes: Vec<(f32, f32, f32, f32, &str)> = page
                .texts()
                .filter(|t| !t.text.trim().is_empty())
                .map(|t| {
                    let pt = t.size_pt * 25.4 / 72.0;
                    (
                        t.x,
                        t.baseline - 0.72 * pt,
                        t.x + t.width,
                        t.baseline + 0.2 * pt,
                        t.text.as_str(),
                    )
                })
                .collect();
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    let apart = a.2 <= b.0 + 0.05
                        || b.2 <= a.0 + 0.05
                        || a.3 <= b.1 + 0.05
                        || b.3 <= a.1 + 0.05;
                    assert!(
                        apart,
                        "{page_size} page {}: {:?} overlaps {:?}",
                        n + 1,
                        a.4,
                        b.4
                    );
                }
            }
            // Body text stays above the footer line.
            let footer = page.height - margin * 0.5;
            let body_bottom = page
                .texts()
                .filter(|t| (t.baseline - footer).abs() > 0.01)
                .map(|t| t.baseline)
                .fold(0.0, f32::max);
            assert!(body_bottom <= page.height - margin + 0.01);
        }
    }
}

#[test]
fn the_pdf_parses_with_the_same_pages_as_the_layout() {
    let record = lorraine_with_battle_1_fought(7);
    let layout = a4(&record);
    let exported = export_after_action(&record, "a4", date(), &mut none).unwrap();
    assert_eq!(exported.warnings, Vec::<String>::new());
    let doc = Document::load_mem(&exported.bytes).expect("the PDF parses");
    let pages = doc.get_pages();
    assert_eq!(pages.len(), layout.pages.len());
    let first = doc.extract_text(&[1]).unwrap();
    let first = first.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(first.contains("Battle 1: Meeting Engagement"), "{first}");
    let last = doc.extract_text(&[pages.len() as u32]).unwrap();
    assert!(last.contains("Battle 3"), "{last}");
    // The same record and date give the same bytes.
    let again = export_after_action(&record, "a4", date(), &mut none).unwrap();
    assert_eq!(exported, again);
}

#[test]
fn a_long_battle_log_runs_on_without_mixing_battles() {
    let mut record = lorraine_with_battle_1_fought(7);
    for n in 0..250 {
        push(
            &mut record,
            2,
            Event::Note {
                text: format!("Observation {n}: the Panthers hold the woods north of the village"),
            },
        );
    }
    let layout = a4(&record);
    let battle_3 = page_of(&layout, "Battle 3: Counter-Attack").unwrap();
    let after: Vec<String> = layout.pages[battle_3..]
        .iter()
        .map(|p| p.plain_text())
        .collect();
    assert!(after.len() >= 3, "250 notes need more than one page");
    for page in &after[1..] {
        assert!(page.starts_with("Battle 3: Counter-Attack — event log, continued"));
    }
    assert!(after.last().unwrap().contains("Observation 249"));
    assert!(after[0].contains("Observation 0"));
}

#[test]
fn a_simple_campaign_shows_forces_winner_notes_and_unit_fates() {
    let created = campaign::new_simple("Desert summer", RulesetId::BoltAction, players()).unwrap();
    let mut record = CampaignRecord::new(quartermaster::store::new_campaign_uid(), created);
    record
        .add_simple_battle(
            "Hill 112",
            Sides {
                first: "Rifles".to_string(),
                second: "Grenadiers".to_string(),
            },
            Sides {
                first: vec!["Rifle Section".to_string(), "Sherman".to_string()],
                second: vec!["Grenadier Squad".to_string()],
            },
        )
        .unwrap();
    record
        .add_simple_battle("Night raid", Sides::default(), Sides::default())
        .unwrap();
    push(
        &mut record,
        0,
        Event::UnitFate {
            side: Side::First,
            unit: "Sherman".to_string(),
            fate: "knocked out by a Pak 40".to_string(),
        },
    );
    push(
        &mut record,
        0,
        Event::BattleConcluded {
            winner: Some(Side::Second),
            notes: "The ridge held until dusk".to_string(),
        },
    );
    let layout = a4(&record);
    assert_eq!(
        layout.pages.len(),
        1,
        "the unfought night raid takes no page"
    );
    let text = layout.pages[0].plain_text().replace('\n', " ");
    for words in [
        "Battle 1: Hill 112",
        "Bolt Action campaign",
        "Bruno won: The ridge held until dusk",
        "Alice fielded Rifles (2 units): Rifle Section, Sherman",
        "Bruno fielded Grenadiers (1 unit): Grenadier Squad",
        "Sherman: knocked out by a Pak 40",
        "no fate recorded",
    ] {
        assert!(text.contains(words), "{words:?} in {text}");
    }
    assert!(
        text.contains("Not fought yet: Battle 2: Night raid — nothing recorded."),
        "{text}"
    );
}

#[test]
fn progress_counts_battles_then_pages_and_bad_page_sizes_are_refused() {
    let record = lorraine_with_battle_1_fought(3);
    let mut seen = Vec::new();
    let exported = export_after_action(&record, "letter", date(), &mut |p| seen.push(p)).unwrap();
    assert!(!exported.bytes.is_empty());
    let layout: Vec<_> = seen.iter().filter(|p| p.stage == Stage::Layout).collect();
    assert_eq!(layout.len(), 3);
    assert_eq!((layout[2].done, layout[2].total), (3, 3));
    let pdf = seen.iter().filter(|p| p.stage == Stage::Pdf).count();
    let letter = layout_after_action(&record, "letter", date(), &mut none).unwrap();
    assert_eq!(pdf, letter.pages.len());
    assert!(matches!(
        layout_after_action(&record, "a7", date(), &mut none),
        Err(ExportError::UnknownPageSize { .. })
    ));
}

/// Writes a very large campaign file for timing `campaign export NAME --out x.pdf` by hand:
/// battle 1 fought to its end, then undo/redo pairs on its last event until the file holds
/// `QM_BIG_EVENTS` events (default 240,000: about 60 MB of JSON, under the 64 MB import limit).
/// `QM_BIG_CAMPAIGN=/tmp/big.json cargo test --test it export_after_action -- --ignored`.
#[test]
#[ignore = "writes a very large campaign file for timing by hand"]
fn write_a_very_large_campaign_file() {
    let Ok(path) = std::env::var("QM_BIG_CAMPAIGN") else {
        return;
    };
    let events: usize = std::env::var("QM_BIG_EVENTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(240_000);
    let mut record = lorraine_with_battle_1_fought(1944);
    let target = record.logs[0].last().unwrap().seq;
    while record.logs[0].len() < events {
        push(&mut record, 0, Event::Undo { seq: target });
        push(&mut record, 0, Event::Redo { seq: target });
    }
    std::fs::write(path, campaign::file::to_json(&record).unwrap()).unwrap();
}
