//! BattleScribe's data as typed values: what a `.gst` or `.cat` file says, before its links
//! are followed. Only what an army list needs is kept (entries, their costs, limits, profiles,
//! rules, categories, modifiers and links); the rest of the schema (publications, info groups'
//! layout, roster-wide selectors) is left out on purpose.

/// A game system (`.gst`) or a catalogue (`.cat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    GameSystem,
    Catalogue,
}

impl FileKind {
    /// "game system" or "catalogue".
    pub fn word(self) -> &'static str {
        match self {
            FileKind::GameSystem => "game system",
            FileKind::Catalogue => "catalogue",
        }
    }
}

/// One data file as read.
#[derive(Debug, Clone, PartialEq)]
pub struct DataFile {
    /// The file's name as given, for messages ("US Army.cat").
    pub file: String,
    pub kind: FileKind,
    /// BattleScribe's id of the system or catalogue: stable across revisions.
    pub id: String,
    pub name: String,
    pub revision: u32,
    /// `battleScribeVersion`.
    pub schema: String,
    /// The line of the root element.
    pub line: u32,
    /// A catalogue's game system id (`gameSystemId`).
    pub game_system_id: Option<String>,
    /// SHA-256 of the file's bytes (unzipped), hex.
    pub digest: String,
    pub cost_types: Vec<Named>,
    pub categories: Vec<Named>,
    pub force_entries: Vec<ForceEntry>,
    /// Entries at the top of the file (a catalogue's units).
    pub entries: Vec<Entry>,
    /// Links at the top of the file (units kept among the shared entries).
    pub root_links: Vec<Link>,
    pub shared_entries: Vec<Entry>,
    pub shared_groups: Vec<Group>,
    pub shared_profiles: Vec<Profile>,
    pub shared_rules: Vec<Rule>,
    pub catalogue_links: Vec<CatalogueLink>,
}

/// Something with an id and a name (a cost type, a category).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub id: String,
    pub name: String,
}

/// A force organisation (`forceEntry`): which categories a force holds and how many of each.
#[derive(Debug, Clone, PartialEq)]
pub struct ForceEntry {
    pub id: String,
    pub name: String,
    pub line: u32,
    pub categories: Vec<CategoryLink>,
    pub constraints: Vec<Constraint>,
    pub modifiers: Vec<Modifier>,
}

/// A link to a category, with the limits a force or entry puts on it.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryLink {
    pub target_id: String,
    pub name: String,
    /// The entry's main category (where it sits in a force organisation).
    pub primary: bool,
    pub constraints: Vec<Constraint>,
    pub modifiers: Vec<Modifier>,
}

/// A selection entry: a unit, a model or an upgrade.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: String,
    pub name: String,
    /// `unit`, `model` or `upgrade`.
    pub kind: String,
    pub hidden: bool,
    pub line: u32,
    pub costs: Vec<Cost>,
    pub constraints: Vec<Constraint>,
    pub modifiers: Vec<Modifier>,
    pub profiles: Vec<Profile>,
    pub rules: Vec<Rule>,
    /// Links to shared profiles and rules.
    pub info_links: Vec<Link>,
    pub category_links: Vec<CategoryLink>,
    pub entries: Vec<Entry>,
    pub groups: Vec<Group>,
    pub links: Vec<Link>,
}

/// A selection entry group: entries chosen among, with limits on how many.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub id: String,
    pub name: String,
    pub hidden: bool,
    pub line: u32,
    pub default_entry: Option<String>,
    pub constraints: Vec<Constraint>,
    pub modifiers: Vec<Modifier>,
    pub entries: Vec<Entry>,
    pub groups: Vec<Group>,
    pub links: Vec<Link>,
}

/// What a link points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    Entry,
    Group,
    Profile,
    Rule,
    /// An info group or anything else: listed in the report, not followed.
    Other,
}

/// An `entryLink` or `infoLink`.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub id: String,
    pub name: String,
    pub target_id: String,
    pub kind: LinkKind,
    pub hidden: bool,
    pub line: u32,
    pub costs: Vec<Cost>,
    pub constraints: Vec<Constraint>,
    pub modifiers: Vec<Modifier>,
    pub category_links: Vec<CategoryLink>,
}

/// A catalogue's link to another catalogue whose entries it uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueLink {
    pub target_id: String,
    pub name: String,
    pub line: u32,
    /// The other catalogue's units count as this one's.
    pub import_root_entries: bool,
}

/// A cost of one selection.
#[derive(Debug, Clone, PartialEq)]
pub struct Cost {
    pub type_id: String,
    pub name: String,
    pub value: f64,
}

/// Lowest or highest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Min,
    Max,
}

/// A limit: at least or at most `value` of `field` (`selections`, or a cost type) within
/// `scope` (`parent`, `force`, `roster`, or an entry's id).
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    pub id: String,
    pub field: String,
    pub scope: String,
    pub bound: Bound,
    pub value: f64,
    pub percent: bool,
}

impl Constraint {
    /// A whole-number limit on how many are selected (percentages and cost limits: `None`).
    pub fn selections(&self) -> Option<u32> {
        (self.field == "selections" && !self.percent && self.value >= 0.0)
            .then(|| self.value.round() as u32)
    }
}

/// A change the data makes to an entry's values (`set`, `increment`, `decrement`, …) on a
/// field (a cost type, a constraint, `hidden`, …), possibly only under conditions.
#[derive(Debug, Clone, PartialEq)]
pub struct Modifier {
    pub kind: String,
    pub field: String,
    pub value: String,
    pub line: u32,
    /// How many conditions (and condition groups) it depends on: 0 applies always.
    pub conditions: usize,
    /// Repeats (`repeats` elements): it applies once per some count.
    pub repeats: usize,
    /// The first condition in words, for the report.
    pub condition_words: String,
}

/// A profile: a table row of named characteristics (a unit's statistics, a weapon's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub id: String,
    pub name: String,
    /// The profile type's name ("Unit", "Weapon").
    pub type_name: String,
    pub characteristics: Vec<(String, String)>,
}

impl Profile {
    /// The characteristic named `name` (ignoring case), if it is there and not empty.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.characteristics
            .iter()
            .find(|(n, v)| n.eq_ignore_ascii_case(name) && !v.trim().is_empty())
            .map(|(_, v)| v.trim())
    }
}

/// A special rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub id: String,
    pub name: String,
    pub text: String,
}
