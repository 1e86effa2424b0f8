//! Importing army data the size of the largest real catalogue: a synthetic catalogue of about
//! 2.6 MB of XML with 500 units and 3,000 options (quality groups, extra men, weapon groups,
//! links to shared entries), generated here (nothing of the community's data is committed),
//! read against the test game system and mapped to Bolt Action cards. The goal: under 1 s.

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::rules::army_data::{ImportFile, read_import};
use quartermaster::store::Store;

const SYSTEM: &[u8] = include_bytes!("../tests/fixtures/battlescribe/test_system.gst");

const UNITS: usize = 500;

fn cost(value: u32) -> String {
    format!("<costs><cost name=\"pts\" typeId=\"qm-pts\" value=\"{value}.0\"/></costs>")
}

fn max(id: &str, value: u32) -> String {
    format!(
        "<constraints><constraint field=\"selections\" scope=\"parent\" value=\"{value}.0\" percentValue=\"false\" shared=\"true\" includeChildSelections=\"false\" includeChildForces=\"false\" id=\"{id}\" type=\"max\"/></constraints>"
    )
}

fn weapon(id: &str, name: &str, range: &str, shots: &str, pen: &str) -> String {
    format!(
        "<profile id=\"{id}\" name=\"{name}\" hidden=\"false\" typeId=\"qm-pt-weapon\" typeName=\"Weapon\"><characteristics>\
         <characteristic name=\"Range\" typeId=\"qm-ct-range\">{range}</characteristic>\
         <characteristic name=\"Shots\" typeId=\"qm-ct-shots\">{shots}</characteristic>\
         <characteristic name=\"Pen\" typeId=\"qm-ct-pen\">{pen}</characteristic>\
         <characteristic name=\"Special Rules\" typeId=\"qm-ct-special\">Team</characteristic>\
         </characteristics></profile>\n"
    )
}

/// One unit: three qualities with an extra man each (linked to a shared entry, the Veteran's
/// priced by a link modifier), a weapon group of two, a vehicle group of one: six options,
/// with descriptions padding it to a real catalogue's size per unit.
fn unit(i: usize) -> String {
    let quality = |q: &str, c: u32, extra: Option<u32>| {
        let link = match extra {
            Some(pts) => format!(
                "<entryLinks><entryLink id=\"u{i}-{q}-x\" name=\"Extra man\" hidden=\"false\" targetId=\"shared-extra\" type=\"selectionEntry\">\
                 <modifiers><modifier type=\"set\" field=\"qm-pts\" value=\"{pts}.0\"/></modifiers>{}</entryLink></entryLinks>",
                max(&format!("u{i}-{q}-xm"), 5)
            ),
            None => format!(
                "<entryLinks><entryLink id=\"u{i}-{q}-x\" name=\"Extra man\" hidden=\"false\" targetId=\"shared-extra\" type=\"selectionEntry\">{}</entryLink></entryLinks>",
                max(&format!("u{i}-{q}-xm"), 5)
            ),
        };
        format!(
            "<selectionEntry id=\"u{i}-{q}\" name=\"{q}\" hidden=\"false\" type=\"upgrade\">{link}{}</selectionEntry>\n",
            cost(c)
        )
    };
    let note = "A unit written for the benchmark; its text pads the catalogue to the size of a real one, whose units carry rules, notes and publication references. ".repeat(6);
    format!(
        "<selectionEntry id=\"u{i}\" name=\"Unit {i}\" hidden=\"false\" type=\"unit\">\n\
         <categoryLinks><categoryLink id=\"u{i}-c\" name=\"Infantry\" hidden=\"false\" targetId=\"qm-cat-inf\" primary=\"true\"/></categoryLinks>\n\
         <rules><rule id=\"u{i}-r\" name=\"Unit {i} rule\" hidden=\"false\"><description>{note}</description></rule></rules>\n\
         <profiles><profile id=\"u{i}-p\" name=\"Unit {i}\" hidden=\"false\" typeId=\"qm-pt-unit\" typeName=\"Unit\"><characteristics>\
         <characteristic name=\"Type\" typeId=\"qm-ct-type\">Infantry</characteristic><characteristic name=\"Men\" typeId=\"qm-ct-men\">5</characteristic>\
         </characteristics></profile>\n{}</profiles>\n\
         <infoLinks><infoLink id=\"u{i}-il\" name=\"Rifle\" hidden=\"false\" targetId=\"qm-w-rifle\" type=\"profile\"/></infoLinks>\n\
         <selectionEntryGroups>\n\
         <selectionEntryGroup id=\"u{i}-q\" name=\"Quality\" hidden=\"false\" defaultSelectionEntryId=\"u{i}-Regular\"><selectionEntries>\n{}{}{}</selectionEntries></selectionEntryGroup>\n\
         <selectionEntryGroup id=\"u{i}-w\" name=\"Squad weapons\" hidden=\"false\">{}<selectionEntries>\n\
         <selectionEntry id=\"u{i}-lmg\" name=\"LMG\" hidden=\"false\" type=\"upgrade\"><infoLinks><infoLink id=\"u{i}-lmgl\" name=\"LMG\" hidden=\"false\" targetId=\"qm-w-lmg\" type=\"profile\"/></infoLinks>{}</selectionEntry>\n\
         <selectionEntry id=\"u{i}-smg\" name=\"SMG\" hidden=\"false\" type=\"upgrade\"><profiles>{}</profiles>{}</selectionEntry>\n\
         </selectionEntries></selectionEntryGroup>\n\
         </selectionEntryGroups>\n\
         <entryLinks><entryLink id=\"u{i}-v\" name=\"Vehicle upgrades\" hidden=\"false\" targetId=\"shared-vehicle\" type=\"selectionEntryGroup\"/></entryLinks>\n\
         </selectionEntry>\n",
        weapon(&format!("u{i}-w1"), "Panzerfaust", "12\"", "1", "+6"),
        quality("Inexperienced", 35 + (i % 7) as u32, None),
        quality("Regular", 50 + (i % 7) as u32, None),
        quality("Veteran", 65 + (i % 7) as u32, Some(13)),
        max(&format!("u{i}-wm"), 1),
        cost(20),
        weapon(&format!("u{i}-w2"), "Submachine gun", "12\"", "2", "n/a"),
        cost(3),
    )
}

/// The synthetic catalogue: 500 units, 3,000 options, about 2.6 MB.
fn catalogue() -> Vec<u8> {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n\
         <catalogue id=\"bench\" name=\"Benchmark Army\" revision=\"1\" battleScribeVersion=\"2.03\" gameSystemId=\"qm-sys\" xmlns=\"http://www.battlescribe.net/schema/catalogueSchema\">\n<selectionEntries>\n",
    );
    for i in 0..UNITS {
        xml.push_str(&unit(i));
    }
    xml.push_str("</selectionEntries>\n<sharedSelectionEntries>\n");
    xml.push_str(&format!(
        "<selectionEntry id=\"shared-extra\" name=\"Extra man\" hidden=\"false\" type=\"model\">{}</selectionEntry>\n",
        cost(10)
    ));
    xml.push_str("</sharedSelectionEntries>\n<sharedSelectionEntryGroups>\n");
    xml.push_str(&format!(
        "<selectionEntryGroup id=\"shared-vehicle\" name=\"Vehicle upgrades\" hidden=\"false\">{}<selectionEntries>\
         <selectionEntry id=\"shared-tracks\" name=\"Spare tracks\" hidden=\"false\" type=\"upgrade\">{}</selectionEntry>\
         </selectionEntries></selectionEntryGroup>\n",
        max("shared-vm", 1),
        cost(5)
    ));
    xml.push_str("</sharedSelectionEntryGroups>\n</catalogue>\n");
    xml.into_bytes()
}

fn files() -> Vec<ImportFile> {
    vec![
        ImportFile {
            name: "test_system.gst".into(),
            bytes: SYSTEM.to_vec(),
        },
        ImportFile {
            name: "benchmark.cat".into(),
            bytes: catalogue(),
        },
    ]
}

fn import(c: &mut Criterion) {
    let files = files();
    // The window's import is measured with the same files (`--frame-log`, Library › Import
    // BattleScribe data…): `QM_ARMY_DATA_OUT=DIR` writes them there.
    if let Some(dir) = std::env::var_os("QM_ARMY_DATA_OUT") {
        let dir = std::path::Path::new(&dir);
        std::fs::create_dir_all(dir).expect("the folder for the synthetic data");
        for file in &files {
            std::fs::write(dir.join(&file.name), &file.bytes).expect("the synthetic data written");
        }
    }
    let size = files[1].bytes.len();
    let import = read_import(&files, &[], &mut |_, _| {}).expect("the synthetic data reads");
    let cards = &import.files[1].cards;
    let options: usize = cards
        .iter()
        .filter_map(|c| c.army())
        .map(|a| a.options.len())
        .sum();
    assert_eq!(cards.len(), UNITS);
    assert_eq!(options, UNITS * 6);
    assert!(
        (1_800_000..3_000_000).contains(&size),
        "the catalogue should be 2–3 MB, not {size} bytes"
    );
    eprintln!(
        "synthetic catalogue: {size} bytes, {} units, {options} options",
        cards.len()
    );
    let mut group = c.benchmark_group("army_data_2mb");
    group.sample_size(10);
    group.bench_function("read, resolve and map 500 units", |b| {
        b.iter(|| read_import(&files, &[], &mut |_, _| {}).map(|i| i.files.len()))
    });
    group.bench_function("and store in one transaction (in memory)", |b| {
        b.iter(|| {
            let mut store = Store::open_in_memory().expect("a store");
            let import = read_import(&files, &[], &mut |_, _| {}).expect("reads");
            store.import_army_data(&import).map(|f| f.len())
        })
    });
    group.finish();
}

criterion_group!(benches, import);
criterion_main!(benches);
