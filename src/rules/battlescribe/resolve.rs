//! Following a catalogue's links: every entry link, info link and catalogue link is replaced
//! by what it points at (in the catalogue, the catalogues it links, or the game system), and
//! every modifier that always applies is applied. What cannot be settled without a roster (a
//! modifier under conditions, a link to nothing) becomes a [`Note`] naming the entry, the file
//! and the line; the entry keeps the data's own values.
//!
//! Links that loop back are refused ([`DataError::CyclicLink`]), and so are links that expand
//! past [`MAX_ENTRIES`] entries (a few shared groups linked in each other can multiply without
//! looping).

use std::collections::HashMap;

use super::error::DataError;
use super::model::{
    CategoryLink, Constraint, Cost, DataFile, Entry, Group, Link, LinkKind, Modifier, Profile, Rule,
};

/// Most entries one catalogue may expand to once its links are followed; a 2 MB catalogue of
/// 500 units expands to tens of thousands.
pub const MAX_ENTRIES: usize = 200_000;
/// Deepest nesting of entries followed (real data nests a handful deep).
const MAX_DEPTH: usize = 64;

/// Something the importer read but could not use or settle, listed for the player.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Note {
    pub file: String,
    pub line: u32,
    /// The entry's path ("Infantry Squad › LMG"), or "" for the file itself.
    pub entry: String,
    pub message: String,
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.entry.is_empty() {
            write!(f, "{} line {}: {}", self.file, self.line, self.message)
        } else {
            write!(
                f,
                "{} line {}: {}: {}",
                self.file, self.line, self.entry, self.message
            )
        }
    }
}

/// An entry with its links followed.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The entry's own id (a link's target), stable across revisions.
    pub id: String,
    pub name: String,
    pub kind: String,
    pub file: String,
    pub line: u32,
    pub costs: Vec<Cost>,
    pub constraints: Vec<Constraint>,
    pub profiles: Vec<Profile>,
    pub rules: Vec<Rule>,
    pub categories: Vec<CategoryLink>,
    pub entries: Vec<Resolved>,
    pub groups: Vec<ResolvedGroup>,
}

/// A group with its links followed.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedGroup {
    pub id: String,
    pub name: String,
    pub line: u32,
    pub default_entry: Option<String>,
    pub constraints: Vec<Constraint>,
    pub entries: Vec<Resolved>,
    pub groups: Vec<ResolvedGroup>,
}

/// A catalogue read whole: its units with every link followed, and the notes.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedCatalogue {
    pub units: Vec<Resolved>,
    pub notes: Vec<Note>,
}

/// What an id can name.
#[derive(Clone, Copy)]
enum Target<'a> {
    Entry(&'a Entry, &'a DataFile),
    Group(&'a Group, &'a DataFile),
    Profile(&'a Profile),
    Rule(&'a Rule),
}

/// Follows the links of `catalogue` against `system` and the other catalogues `others`
/// (those its catalogue links may name).
///
/// # Errors
/// A link loop, links expanding past [`MAX_ENTRIES`], or catalogue links that loop.
pub fn resolve_catalogue(
    system: &DataFile,
    catalogue: &DataFile,
    others: &[&DataFile],
) -> Result<ResolvedCatalogue, DataError> {
    let mut notes = Vec::new();
    let mut linked: Vec<&DataFile> = Vec::new();
    link_catalogues(
        catalogue,
        others,
        &mut vec![catalogue.id.as_str()],
        &mut linked,
        &mut notes,
    )?;
    let mut index: HashMap<&str, Target<'_>> = HashMap::new();
    for file in std::iter::once(system)
        .chain(linked.iter().copied())
        .chain([catalogue])
    {
        add_to_index(file, &mut index);
    }
    let cost_names: HashMap<&str, &str> = system
        .cost_types
        .iter()
        .map(|c| (c.id.as_str(), c.name.as_str()))
        .collect();
    let mut walker = Walker {
        index,
        cost_names,
        notes,
        count: 0,
        stack: Vec::new(),
    };
    let mut units = Vec::new();
    let roots = linked
        .iter()
        .filter(|f| {
            catalogue
                .catalogue_links
                .iter()
                .any(|l| l.import_root_entries && l.target_id == f.id)
        })
        .copied()
        .chain([catalogue]);
    for file in roots {
        for entry in &file.entries {
            let resolved = walker.entry(entry, file, "", None, 0)?;
            if let Some(unit) = walker.root(resolved, file)? {
                units.push(unit);
            }
        }
        for link in &file.root_links {
            if let Some(Followed::Entry(unit)) = walker.link(link, file, "", 0)?
                && let Some(unit) = walker.root(Some(unit), file)?
            {
                units.push(unit);
            }
        }
    }
    Ok(ResolvedCatalogue {
        units,
        notes: walker.notes,
    })
}

/// The catalogues `file` links, transitively, refusing a loop.
fn link_catalogues<'a>(
    file: &'a DataFile,
    others: &[&'a DataFile],
    path: &mut Vec<&'a str>,
    out: &mut Vec<&'a DataFile>,
    notes: &mut Vec<Note>,
) -> Result<(), DataError> {
    for link in &file.catalogue_links {
        if path.contains(&link.target_id.as_str()) {
            return Err(DataError::CyclicLink {
                file: file.file.clone(),
                line: link.line,
                chain: format!("catalogue {} links back to {}", file.name, link.name),
            });
        }
        match others.iter().find(|o| o.id == link.target_id) {
            Some(other) if !out.iter().any(|o| o.id == other.id) => {
                out.push(other);
                path.push(other.id.as_str());
                link_catalogues(other, others, path, out, notes)?;
                path.pop();
            }
            Some(_) => {}
            None => notes.push(Note {
                file: file.file.clone(),
                line: link.line,
                entry: String::new(),
                message: format!(
                    "links catalogue \"{}\", which was not given: entries taken from it are missing",
                    link.name
                ),
            }),
        }
    }
    Ok(())
}

fn add_to_index<'a>(file: &'a DataFile, index: &mut HashMap<&'a str, Target<'a>>) {
    for e in file.shared_entries.iter().chain(&file.entries) {
        index.insert(e.id.as_str(), Target::Entry(e, file));
    }
    for g in &file.shared_groups {
        index.insert(g.id.as_str(), Target::Group(g, file));
    }
    for p in &file.shared_profiles {
        index.insert(p.id.as_str(), Target::Profile(p));
    }
    for r in &file.shared_rules {
        index.insert(r.id.as_str(), Target::Rule(r));
    }
}

enum Followed {
    Entry(Resolved),
    Group(ResolvedGroup),
}

struct Walker<'a> {
    index: HashMap<&'a str, Target<'a>>,
    cost_names: HashMap<&'a str, &'a str>,
    notes: Vec<Note>,
    count: usize,
    /// Ids of the link targets being followed, outermost first, with the link's line.
    stack: Vec<(&'a str, String, u32)>,
}

fn path_of(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path} › {name}")
    }
}

impl<'a> Walker<'a> {
    fn note(&mut self, file: &str, line: u32, entry: &str, message: String) {
        self.notes.push(Note {
            file: file.to_string(),
            line,
            entry: entry.to_string(),
            message,
        });
    }

    /// A top-level entry as a unit, or `None` (with a note) for one that is not a unit.
    fn root(
        &mut self,
        entry: Option<Resolved>,
        file: &DataFile,
    ) -> Result<Option<Resolved>, DataError> {
        let Some(entry) = entry else {
            return Ok(None);
        };
        if matches!(entry.kind.as_str(), "unit" | "model") {
            return Ok(Some(entry));
        }
        self.note(
            &file.file,
            entry.line,
            &entry.name,
            format!(
                "a top-level entry of type \"{}\", not a unit: not imported as a card",
                entry.kind
            ),
        );
        Ok(None)
    }

    fn grow(&mut self, file: &DataFile, depth: usize) -> Result<(), DataError> {
        self.count += 1;
        if self.count > MAX_ENTRIES {
            return Err(DataError::TooLarge {
                file: file.file.clone(),
                message: format!(
                    "its links expand to more than {MAX_ENTRIES} entries — no army list is that large"
                ),
            });
        }
        if depth > MAX_DEPTH {
            return Err(DataError::TooLarge {
                file: file.file.clone(),
                message: format!("entries nest more than {MAX_DEPTH} deep"),
            });
        }
        Ok(())
    }

    /// An entry with its children followed; `None` (with a note) when it is hidden.
    /// `link` adds a link's own limits, categories and modifiers.
    fn entry(
        &mut self,
        entry: &'a Entry,
        file: &'a DataFile,
        path: &str,
        link: Option<&'a Link>,
        depth: usize,
    ) -> Result<Option<Resolved>, DataError> {
        self.grow(file, depth)?;
        let here = path_of(path, &entry.name);
        let mut resolved = Resolved {
            id: entry.id.clone(),
            name: entry.name.clone(),
            kind: entry.kind.clone(),
            file: file.file.clone(),
            line: entry.line,
            costs: entry.costs.clone(),
            constraints: entry.constraints.clone(),
            profiles: entry.profiles.clone(),
            rules: entry.rules.clone(),
            categories: entry.category_links.clone(),
            entries: Vec::new(),
            groups: Vec::new(),
        };
        let mut hidden = entry.hidden || link.is_some_and(|l| l.hidden);
        let mut modifiers: Vec<&Modifier> = entry.modifiers.iter().collect();
        if let Some(link) = link {
            resolved
                .constraints
                .extend(link.constraints.iter().cloned());
            resolved
                .categories
                .extend(link.category_links.iter().cloned());
            for cost in &link.costs {
                set_cost(&mut resolved.costs, &cost.type_id, cost.value);
            }
            modifiers.extend(&link.modifiers);
        }
        for modifier in modifiers {
            self.apply(modifier, &mut resolved, &mut hidden, &file.file, &here);
        }
        if hidden {
            self.note(
                &file.file,
                entry.line,
                &here,
                "hidden in the data: not offered".into(),
            );
            return Ok(None);
        }
        for info in &entry.info_links {
            self.info(info, &mut resolved, &file.file, &here);
        }
        (resolved.entries, resolved.groups) = self.children(
            (&entry.entries, &entry.groups, &entry.links),
            file,
            &here,
            depth,
        )?;
        Ok(Some(resolved))
    }

    fn group(
        &mut self,
        group: &'a Group,
        file: &'a DataFile,
        path: &str,
        link: Option<&'a Link>,
        depth: usize,
    ) -> Result<Option<ResolvedGroup>, DataError> {
        self.grow(file, depth)?;
        let here = path_of(path, &group.name);
        let mut resolved = ResolvedGroup {
            id: group.id.clone(),
            name: group.name.clone(),
            line: group.line,
            default_entry: group.default_entry.clone(),
            constraints: group.constraints.clone(),
            entries: Vec::new(),
            groups: Vec::new(),
        };
        let mut hidden = group.hidden || link.is_some_and(|l| l.hidden);
        let mut modifiers: Vec<&Modifier> = group.modifiers.iter().collect();
        if let Some(link) = link {
            resolved
                .constraints
                .extend(link.constraints.iter().cloned());
            modifiers.extend(&link.modifiers);
        }
        for modifier in modifiers {
            let mut as_entry = Resolved {
                id: group.id.clone(),
                name: group.name.clone(),
                kind: String::new(),
                file: file.file.clone(),
                line: group.line,
                costs: Vec::new(),
                constraints: std::mem::take(&mut resolved.constraints),
                profiles: Vec::new(),
                rules: Vec::new(),
                categories: Vec::new(),
                entries: Vec::new(),
                groups: Vec::new(),
            };
            self.apply(modifier, &mut as_entry, &mut hidden, &file.file, &here);
            resolved.constraints = as_entry.constraints;
        }
        if hidden {
            self.note(
                &file.file,
                group.line,
                &here,
                "hidden in the data: not offered".into(),
            );
            return Ok(None);
        }
        (resolved.entries, resolved.groups) = self.children(
            (&group.entries, &group.groups, &group.links),
            file,
            &here,
            depth,
        )?;
        Ok(Some(resolved))
    }

    /// The entries, groups and links inside an entry or a group, followed: the entries (their
    /// own and those links lead to) and the groups.
    fn children(
        &mut self,
        (entries, groups, links): (&'a [Entry], &'a [Group], &'a [Link]),
        file: &'a DataFile,
        here: &str,
        depth: usize,
    ) -> Result<(Vec<Resolved>, Vec<ResolvedGroup>), DataError> {
        let mut found = (Vec::new(), Vec::new());
        for child in entries {
            found
                .0
                .extend(self.entry(child, file, here, None, depth + 1)?);
        }
        for group in groups {
            found
                .1
                .extend(self.group(group, file, here, None, depth + 1)?);
        }
        for link in links {
            match self.link(link, file, here, depth + 1)? {
                Some(Followed::Entry(e)) => found.0.push(e),
                Some(Followed::Group(g)) => found.1.push(g),
                None => {}
            }
        }
        Ok(found)
    }

    fn link(
        &mut self,
        link: &'a Link,
        file: &'a DataFile,
        path: &str,
        depth: usize,
    ) -> Result<Option<Followed>, DataError> {
        let here = path_of(path, &link.name);
        if let Some(at) = self
            .stack
            .iter()
            .position(|(id, _, _)| *id == link.target_id.as_str())
        {
            let mut chain: Vec<String> = self.stack[at..]
                .iter()
                .map(|(_, name, line)| format!("{name} (line {line})"))
                .collect();
            chain.push(format!("{} (line {}) again", link.name, link.line));
            return Err(DataError::CyclicLink {
                file: file.file.clone(),
                line: link.line,
                chain: chain.join(" → "),
            });
        }
        let target = self.index.get(link.target_id.as_str()).copied();
        self.stack
            .push((link.target_id.as_str(), link.name.clone(), link.line));
        let followed = match (link.kind, target) {
            (LinkKind::Entry, Some(Target::Entry(entry, owner))) => self
                .entry(entry, owner, path, Some(link), depth)?
                .map(Followed::Entry),
            (LinkKind::Group, Some(Target::Group(group, owner))) => self
                .group(group, owner, path, Some(link), depth)?
                .map(Followed::Group),
            _ => {
                self.note(
                    &file.file,
                    link.line,
                    &here,
                    format!(
                        "links to id {}, which is not a {} in the files given: left out",
                        link.target_id,
                        if link.kind == LinkKind::Group {
                            "group"
                        } else {
                            "entry"
                        }
                    ),
                );
                None
            }
        };
        self.stack.pop();
        Ok(followed)
    }

    /// A shared profile or rule an info link names, added to the entry.
    fn info(&mut self, link: &Link, entry: &mut Resolved, file: &str, path: &str) {
        match (link.kind, self.index.get(link.target_id.as_str())) {
            (_, Some(Target::Profile(profile))) => entry.profiles.push((*profile).clone()),
            (_, Some(Target::Rule(rule))) => entry.rules.push((*rule).clone()),
            _ => self.note(
                file,
                link.line,
                path,
                format!(
                    "info link \"{}\" names no shared profile or rule in the files given: left out",
                    link.name
                ),
            ),
        }
    }

    /// Applies a modifier that always applies; notes one that depends on the roster or on a
    /// field this importer does not read.
    fn apply(
        &mut self,
        modifier: &Modifier,
        entry: &mut Resolved,
        hidden: &mut bool,
        file: &str,
        path: &str,
    ) {
        let field = self.field_words(&modifier.field, entry);
        if modifier.conditions > 0 || modifier.repeats > 0 {
            let when = if modifier.repeats > 0 {
                "repeats for each of a count of selections".to_string()
            } else {
                format!("applies only when {}", modifier.condition_words)
            };
            self.note(
                file,
                modifier.line,
                path,
                format!(
                    "a modifier ({} {field} {}) {when}: not applied — the data's own value is kept",
                    modifier.kind, modifier.value
                ),
            );
            return;
        }
        let number = modifier.value.trim().parse::<f64>().ok();
        let step = |old: f64| match (modifier.kind.as_str(), number) {
            ("set", Some(v)) => Some(v),
            ("increment", Some(v)) => Some(old + v),
            ("decrement", Some(v)) => Some(old - v),
            _ => None,
        };
        if modifier.field == "hidden" && modifier.kind == "set" {
            *hidden = modifier.value == "true";
            return;
        }
        if modifier.field == "name" && modifier.kind == "set" {
            entry.name.clone_from(&modifier.value);
            return;
        }
        if self.cost_names.contains_key(modifier.field.as_str()) {
            let old = entry
                .costs
                .iter()
                .find(|c| c.type_id == modifier.field)
                .map_or(0.0, |c| c.value);
            if let Some(new) = step(old) {
                set_cost(&mut entry.costs, &modifier.field, new);
                return;
            }
        }
        if let Some(constraint) = entry
            .constraints
            .iter_mut()
            .find(|c| c.id == modifier.field)
            && let Some(new) = step(constraint.value)
        {
            constraint.value = new;
            return;
        }
        self.note(
            file,
            modifier.line,
            path,
            format!(
                "a modifier ({} {field} {}) this importer does not understand: not applied",
                modifier.kind, modifier.value
            ),
        );
    }

    /// A modifier's field in words: a cost type's name, "max"/"min" for a constraint's id.
    fn field_words(&self, field: &str, entry: &Resolved) -> String {
        if let Some(name) = self.cost_names.get(field) {
            return (*name).to_string();
        }
        match entry.constraints.iter().find(|c| c.id == field) {
            Some(c) if c.bound == super::model::Bound::Max => "max".into(),
            Some(_) => "min".into(),
            None => field.to_string(),
        }
    }
}

fn set_cost(costs: &mut Vec<Cost>, type_id: &str, value: f64) {
    match costs.iter_mut().find(|c| c.type_id == type_id) {
        Some(cost) => cost.value = value,
        None => costs.push(Cost {
            type_id: type_id.to_string(),
            name: String::new(),
            value,
        }),
    }
}
