//! Reading one file's XML into [`DataFile`]: well-formedness, the schema version and every
//! attribute an army list needs, each refusal naming the file and the line.

use roxmltree::{Document, Node, ParsingOptions};
use sha2::{Digest, Sha256};

use super::error::DataError;
use super::model::{
    Bound, CatalogueLink, CategoryLink, Constraint, Cost, DataFile, Entry, FileKind, ForceEntry,
    Group, Link, LinkKind, Modifier, Named, Profile, Rule,
};

/// The `battleScribeVersion`s this app reads: the 2.x schema as BattleScribe 2 and New
/// Recruit write it.
pub const SCHEMA_VERSIONS: [&str; 4] = ["2.00", "2.01", "2.02", "2.03"];
const SCHEMA_WORDS: &str = "2.00, 2.01, 2.02 or 2.03";

/// The largest data file read, unzipped: the largest real catalogue is about 2 MB, so this
/// leaves room for 25 times that and refuses a file that is not an army list.
pub const MAX_FILE_BYTES: usize = 50 * 1024 * 1024;

/// Reads one file; `file` names it in every message.
///
/// # Errors
/// [`DataError`] naming the file and line of the first thing that cannot be read.
pub fn read_file(file: &str, bytes: &[u8]) -> Result<DataFile, DataError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(DataError::TooLarge {
            file: file.to_string(),
            message: format!(
                "{:.1} MB is more than the {} MB an army list can be (the largest real catalogue is about 2 MB)",
                bytes.len() as f64 / 1_048_576.0,
                MAX_FILE_BYTES / 1_048_576
            ),
        });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        DataError::Malformed {
            file: file.to_string(),
            line: line as u32,
            message: "not UTF-8 text".into(),
        }
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let options = ParsingOptions {
        allow_dtd: false,
        ..ParsingOptions::default()
    };
    let doc = Document::parse_with_options(text, options).map_err(|e| DataError::Malformed {
        file: file.to_string(),
        line: e.pos().row,
        message: e.to_string(),
    })?;
    let reader = Reader {
        file,
        lines: LineIndex::new(text),
    };
    let mut data = reader.root(doc.root_element())?;
    data.digest = hex(&Sha256::digest(bytes));
    Ok(data)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Byte offsets where lines start, for turning a node's position into its line cheaply.
struct LineIndex(Vec<usize>);

impl LineIndex {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(at, _)| at + 1));
        LineIndex(starts)
    }

    fn line(&self, offset: usize) -> u32 {
        self.0.partition_point(|start| *start <= offset) as u32
    }
}

struct Reader<'f> {
    file: &'f str,
    lines: LineIndex,
}

/// The element children of `node` named `name`.
fn children<'a, 'i>(node: Node<'a, 'i>, name: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == name)
}

/// The `item` elements inside `node`'s `container` elements (`<costs><cost/>…</costs>`).
fn items<'a, 'i>(
    node: Node<'a, 'i>,
    container: &'static str,
    item: &'static str,
) -> impl Iterator<Item = Node<'a, 'i>> {
    children(node, container).flat_map(move |c| children(c, item))
}

fn text_of(node: Node<'_, '_>) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect::<String>()
        .trim()
        .to_string()
}

impl Reader<'_> {
    fn line(&self, node: Node<'_, '_>) -> u32 {
        self.lines.line(node.range().start)
    }

    fn attr(&self, node: Node<'_, '_>, name: &'static str) -> Result<String, DataError> {
        node.attribute(name)
            .map(str::to_string)
            .ok_or_else(|| self.bad(node, name, "missing".into()))
    }

    fn opt(node: Node<'_, '_>, name: &str) -> String {
        node.attribute(name).unwrap_or_default().to_string()
    }

    fn flag(node: Node<'_, '_>, name: &str) -> bool {
        node.attribute(name) == Some("true")
    }

    fn number(&self, node: Node<'_, '_>, name: &'static str) -> Result<f64, DataError> {
        let text = self.attr(node, name)?;
        text.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| self.bad(node, name, format!("\"{text}\" is not a number")))
    }

    fn bad(&self, node: Node<'_, '_>, attribute: &'static str, message: String) -> DataError {
        DataError::BadAttribute {
            file: self.file.to_string(),
            line: self.line(node),
            element: node.tag_name().name().to_string(),
            attribute,
            message,
        }
    }

    fn root(&self, root: Node<'_, '_>) -> Result<DataFile, DataError> {
        let line = self.line(root);
        let kind = match root.tag_name().name() {
            "gameSystem" => FileKind::GameSystem,
            "catalogue" => FileKind::Catalogue,
            other => {
                return Err(DataError::NotBattleScribe {
                    file: self.file.to_string(),
                    line,
                    found: other.to_string(),
                });
            }
        };
        let schema = self.attr(root, "battleScribeVersion")?;
        if !SCHEMA_VERSIONS.contains(&schema.trim()) {
            return Err(DataError::UnknownSchema {
                file: self.file.to_string(),
                line,
                found: schema,
                known: SCHEMA_WORDS,
            });
        }
        let revision = match root.attribute("revision") {
            None => 0,
            Some(text) => text.trim().parse::<u32>().map_err(|_| {
                self.bad(
                    root,
                    "revision",
                    format!("\"{text}\" is not a revision number"),
                )
            })?,
        };
        let game_system_id = match kind {
            FileKind::Catalogue => Some(self.attr(root, "gameSystemId")?),
            FileKind::GameSystem => None,
        };
        let mut force_entries = Vec::new();
        for node in items(root, "forceEntries", "forceEntry") {
            self.force_entry(node, &mut force_entries)?;
        }
        Ok(DataFile {
            file: self.file.to_string(),
            kind,
            id: self.attr(root, "id")?,
            name: self.attr(root, "name")?,
            revision,
            schema,
            line,
            game_system_id,
            digest: String::new(),
            cost_types: self.named(root, "costTypes", "costType")?,
            categories: self.named(root, "categoryEntries", "categoryEntry")?,
            force_entries,
            entries: self.entries(root, "selectionEntries")?,
            root_links: self.links(root, "entryLinks", "entryLink")?,
            shared_entries: self.entries(root, "sharedSelectionEntries")?,
            shared_groups: self.groups(root, "sharedSelectionEntryGroups")?,
            shared_profiles: self.profiles(root, "sharedProfiles")?,
            shared_rules: self.rules(root, "sharedRules")?,
            catalogue_links: items(root, "catalogueLinks", "catalogueLink")
                .map(|node| {
                    Ok(CatalogueLink {
                        target_id: self.attr(node, "targetId")?,
                        name: Self::opt(node, "name"),
                        line: self.line(node),
                        import_root_entries: Self::flag(node, "importRootEntries"),
                    })
                })
                .collect::<Result<_, DataError>>()?,
        })
    }

    fn named(
        &self,
        node: Node<'_, '_>,
        container: &'static str,
        item: &'static str,
    ) -> Result<Vec<Named>, DataError> {
        items(node, container, item)
            .map(|n| {
                Ok(Named {
                    id: self.attr(n, "id")?,
                    name: self.attr(n, "name")?,
                })
            })
            .collect()
    }

    /// A force entry and the force entries nested in it, flattened.
    fn force_entry(&self, node: Node<'_, '_>, out: &mut Vec<ForceEntry>) -> Result<(), DataError> {
        out.push(ForceEntry {
            id: self.attr(node, "id")?,
            name: self.attr(node, "name")?,
            line: self.line(node),
            categories: self.category_links(node)?,
            constraints: self.constraints(node)?,
            modifiers: self.modifiers(node)?,
        });
        for child in items(node, "forceEntries", "forceEntry") {
            self.force_entry(child, out)?;
        }
        Ok(())
    }

    fn entries(
        &self,
        node: Node<'_, '_>,
        container: &'static str,
    ) -> Result<Vec<Entry>, DataError> {
        items(node, container, "selectionEntry")
            .map(|n| self.entry(n))
            .collect()
    }

    fn entry(&self, node: Node<'_, '_>) -> Result<Entry, DataError> {
        Ok(Entry {
            id: self.attr(node, "id")?,
            name: self.attr(node, "name")?,
            kind: Self::opt(node, "type"),
            hidden: Self::flag(node, "hidden"),
            line: self.line(node),
            costs: self.costs(node)?,
            constraints: self.constraints(node)?,
            modifiers: self.modifiers(node)?,
            profiles: self.profiles(node, "profiles")?,
            rules: self.rules(node, "rules")?,
            info_links: self.links(node, "infoLinks", "infoLink")?,
            category_links: self.category_links(node)?,
            entries: self.entries(node, "selectionEntries")?,
            groups: self.groups(node, "selectionEntryGroups")?,
            links: self.links(node, "entryLinks", "entryLink")?,
        })
    }

    fn groups(&self, node: Node<'_, '_>, container: &'static str) -> Result<Vec<Group>, DataError> {
        items(node, container, "selectionEntryGroup")
            .map(|n| {
                Ok(Group {
                    id: self.attr(n, "id")?,
                    name: self.attr(n, "name")?,
                    hidden: Self::flag(n, "hidden"),
                    line: self.line(n),
                    default_entry: n.attribute("defaultSelectionEntryId").map(str::to_string),
                    constraints: self.constraints(n)?,
                    modifiers: self.modifiers(n)?,
                    entries: self.entries(n, "selectionEntries")?,
                    groups: self.groups(n, "selectionEntryGroups")?,
                    links: self.links(n, "entryLinks", "entryLink")?,
                })
            })
            .collect()
    }

    fn links(
        &self,
        node: Node<'_, '_>,
        container: &'static str,
        item: &'static str,
    ) -> Result<Vec<Link>, DataError> {
        items(node, container, item)
            .map(|n| {
                let kind = match n.attribute("type").unwrap_or_default() {
                    "selectionEntry" => LinkKind::Entry,
                    "selectionEntryGroup" => LinkKind::Group,
                    "profile" => LinkKind::Profile,
                    "rule" => LinkKind::Rule,
                    _ => LinkKind::Other,
                };
                Ok(Link {
                    id: Self::opt(n, "id"),
                    name: Self::opt(n, "name"),
                    target_id: self.attr(n, "targetId")?,
                    kind,
                    hidden: Self::flag(n, "hidden"),
                    line: self.line(n),
                    costs: self.costs(n)?,
                    constraints: self.constraints(n)?,
                    modifiers: self.modifiers(n)?,
                    category_links: self.category_links(n)?,
                })
            })
            .collect()
    }

    fn category_links(&self, node: Node<'_, '_>) -> Result<Vec<CategoryLink>, DataError> {
        items(node, "categoryLinks", "categoryLink")
            .map(|n| {
                Ok(CategoryLink {
                    target_id: self.attr(n, "targetId")?,
                    name: Self::opt(n, "name"),
                    primary: Self::flag(n, "primary"),
                    constraints: self.constraints(n)?,
                    modifiers: self.modifiers(n)?,
                })
            })
            .collect()
    }

    fn costs(&self, node: Node<'_, '_>) -> Result<Vec<Cost>, DataError> {
        items(node, "costs", "cost")
            .map(|n| {
                Ok(Cost {
                    type_id: self.attr(n, "typeId")?,
                    name: Self::opt(n, "name"),
                    value: self.number(n, "value")?,
                })
            })
            .collect()
    }

    fn constraints(&self, node: Node<'_, '_>) -> Result<Vec<Constraint>, DataError> {
        items(node, "constraints", "constraint")
            .map(|n| {
                let bound = match n.attribute("type") {
                    Some("min") => Bound::Min,
                    Some("max") => Bound::Max,
                    other => {
                        return Err(self.bad(
                            n,
                            "type",
                            format!("{other:?} is neither min nor max"),
                        ));
                    }
                };
                Ok(Constraint {
                    id: Self::opt(n, "id"),
                    field: Self::opt(n, "field"),
                    scope: Self::opt(n, "scope"),
                    bound,
                    value: self.number(n, "value")?,
                    percent: Self::flag(n, "percentValue"),
                })
            })
            .collect()
    }

    /// Modifiers, with those of modifier groups flattened: a group's conditions count as the
    /// modifier's own.
    fn modifiers(&self, node: Node<'_, '_>) -> Result<Vec<Modifier>, DataError> {
        let mut out = Vec::new();
        for n in items(node, "modifiers", "modifier") {
            out.push(self.modifier(n, 0, String::new())?);
        }
        for group in items(node, "modifierGroups", "modifierGroup") {
            let (count, words) = Self::conditions(group);
            for n in items(group, "modifiers", "modifier") {
                out.push(self.modifier(n, count, words.clone())?);
            }
        }
        Ok(out)
    }

    fn modifier(
        &self,
        node: Node<'_, '_>,
        outer: usize,
        outer_words: String,
    ) -> Result<Modifier, DataError> {
        let (count, words) = Self::conditions(node);
        Ok(Modifier {
            kind: Self::opt(node, "type"),
            field: Self::opt(node, "field"),
            value: Self::opt(node, "value"),
            line: self.line(node),
            conditions: count + outer,
            repeats: items(node, "repeats", "repeat").count(),
            condition_words: if words.is_empty() { outer_words } else { words },
        })
    }

    /// How many conditions and condition groups a node has, and the first in words.
    fn conditions(node: Node<'_, '_>) -> (usize, String) {
        let plain: Vec<Node<'_, '_>> = items(node, "conditions", "condition").collect();
        let groups = items(node, "conditionGroups", "conditionGroup").count();
        let words = plain
            .first()
            .map(|c| {
                format!(
                    "{} {} {} of {} in {}",
                    Self::opt(*c, "field"),
                    Self::opt(*c, "type"),
                    Self::opt(*c, "value"),
                    Self::opt(*c, "childId"),
                    Self::opt(*c, "scope")
                )
            })
            .unwrap_or_else(|| {
                if groups > 0 {
                    "a group of conditions".to_string()
                } else {
                    String::new()
                }
            });
        (plain.len() + groups, words)
    }

    fn profiles(
        &self,
        node: Node<'_, '_>,
        container: &'static str,
    ) -> Result<Vec<Profile>, DataError> {
        items(node, container, "profile")
            .map(|n| {
                Ok(Profile {
                    id: Self::opt(n, "id"),
                    name: self.attr(n, "name")?,
                    type_name: Self::opt(n, "typeName"),
                    characteristics: items(n, "characteristics", "characteristic")
                        .map(|c| (Self::opt(c, "name"), text_of(c)))
                        .collect(),
                })
            })
            .collect()
    }

    fn rules(&self, node: Node<'_, '_>, container: &'static str) -> Result<Vec<Rule>, DataError> {
        items(node, container, "rule")
            .map(|n| {
                Ok(Rule {
                    id: Self::opt(n, "id"),
                    name: self.attr(n, "name")?,
                    text: children(n, "description").map(text_of).collect(),
                })
            })
            .collect()
    }
}
