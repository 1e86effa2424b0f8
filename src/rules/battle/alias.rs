//! Command-line spellings of a ruleset's battle actions kept for the scripts written before
//! every action was recorded with `campaign record … act ACTION` (the Lorraine tracker's
//! `command`, `chain`, `fire`, `rally` …): each names the action it stands for and what each of
//! its flags sets, so the command line builds it as data and decides it as that `act`.

/// What one flag of an alias gives the action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AliasFlag {
    /// The side acting (`first`, `second`, or the Lorraine `us`, `german`).
    Side,
    /// The unit acting, by id or label.
    Unit,
    /// The unit aimed at, by id or label.
    Target,
    /// A company (the words in brackets its units' labels end with), or a unit of it: the
    /// action is its first unit's.
    Group,
    /// One of the action's parameters, by key, read as its description says.
    Param(&'static str),
    /// The words the action records.
    Text,
}

/// One alias: a subcommand standing for an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActAlias {
    /// The subcommand (`artillery-fire`).
    pub name: &'static str,
    /// The action key it records (`artillery_fire`).
    pub action: &'static str,
    /// Its `--help` line.
    pub about: &'static str,
    /// Its own flags, by name without dashes, each required unless it sets a parameter.
    pub flags: &'static [(&'static str, AliasFlag)],
    /// A mechanic whose situation flags it also takes (as `odds` spells them), less the
    /// inputs that name cards (the alias names units instead), with choices it fixes.
    pub mechanic: Option<MechanicFlags>,
    /// It rolls dice: it takes `--dice POOL=FACES` for dice rolled at the table.
    pub rolls: bool,
    /// A value a flag may not take, with the way the alias's users should go instead.
    pub refusing: &'static [(&'static str, &'static str, &'static str)],
}

/// The situation flags an alias takes from a mechanic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MechanicFlags {
    pub key: &'static str,
    /// The mechanic's inputs that name cards, left out.
    pub without: &'static [&'static str],
    /// Choices the alias itself is (artillery fire is the fire mechanic with `kind`
    /// `artillery`): the flags are read in that situation.
    pub situation: &'static [(&'static str, &'static str)],
}

impl ActAlias {
    /// An alias taking no flag of its own.
    pub const fn new(name: &'static str, action: &'static str, about: &'static str) -> Self {
        ActAlias {
            name,
            action,
            about,
            flags: &[],
            mechanic: None,
            rolls: false,
            refusing: &[],
        }
    }

    pub const fn flags(mut self, flags: &'static [(&'static str, AliasFlag)]) -> Self {
        self.flags = flags;
        self
    }

    pub const fn mechanic(mut self, flags: MechanicFlags) -> Self {
        self.mechanic = Some(flags);
        self
    }

    pub const fn rolls(mut self) -> Self {
        self.rolls = true;
        self
    }

    pub const fn refusing(
        mut self,
        refusing: &'static [(&'static str, &'static str, &'static str)],
    ) -> Self {
        self.refusing = refusing;
        self
    }
}
