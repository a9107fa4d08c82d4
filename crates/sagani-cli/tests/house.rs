//! The house has no circles: in every crate, no file imports (through a chain) from itself, and
//! no file imports from a module in a layer above its own.
//!
//! The graph is between files: an arrow A -> B when A names an item defined in B, through a
//! `use`, a child module's name or a full path in code. `pub use` re-exports are followed to the
//! file that defines the item, and a re-export alone is no arrow. Not seen: method calls (no
//! types are inferred), names inside macro bodies that are not plain expressions (full
//! `crate::` paths there are seen), `#[cfg(test)]` code, and `tests/`, `benches/`, `examples/`.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};
use syn::{Attribute, Expr, ImplItem, Item, Token, UseTree};

/// Each crate's top-level modules by layer, lowest first, a layer's modules in one string; the
/// root file (`lib.rs`, `main.rs`) counts as a module. A file may import from its own layer or
/// below, never from above. Data flows one way (DESIGN.md): rules -> store -> table/app ->
/// routes/http/ws.
#[rustfmt::skip]
const LAYERS: &[(&str, &[&str])] = &[
    ("sagani-core", &[
        // What a tile is made of: elements, the hex grid.
        "element geometry",
        // The 72 tiles, a deck of them.
        "tiles deck",
        // A seat's display, and the moves one makes on it.
        "display moves view_error",
        // The game's flow, and what a placement gains.
        "game gain",
        // Read from a game: a seat's view (and a game rebuilt from one), records, playouts.
        "view from_view record playout",
        "lib.rs",
    ]),
    ("sagani-ai", &[
        // Measures and guesses that know no bot: statistics, SPRT, one placement's worth, the
        // draw pile's order, where open arrows aim, what can be wrong with a file of weights.
        "stats sprt evaluate sampler aim weights_file",
        // The bot contract, and what any search may use: reasons, the policy, position
        // values, playouts.
        "bot explain policy value playout",
        // The solo solver that sees the whole pile, and the learned solo value.
        "clairvoyant td",
        // The search's settings.
        "mcts_config",
        // The search tree and its walks.
        "tree",
        // The strategies.
        "random greedy mcts mcts_2026",
        // The named levels, made of strategies, and bots by name.
        "levels spec",
        // What runs bots: matches, the engine protocol, the ladder measurement.
        "arena engine ladder",
        "lib.rs",
    ]),
    ("sagani-server", &[
        // Each stands alone: errors, the clock, secrets, time controls, ratings, limits, who
        // watches what, the tutorial's script, what names and shown text may hold, what is
        // held open per address.
        "error clock secret time_control rating limits hub spectators tutorial names per_address",
        // The store, the truth.
        "store",
        // A game at this server, built from the store: tables, positions, bots and their
        // queue, the daily challenge; the counters of what happened; the password pool; mail.
        "table positions bots scheduler daily metrics passwords mailer",
        // The server's state and what it does.
        "app",
        // HTTP and sockets over the app: who asks, the routes; test helpers, which nothing else
        // may use.
        "asker routes daily_routes live_routes accounts players challenges study notices ws seeks web install http openapi client_addr testing",
        "lib.rs",
    ]),
    ("sagani-tui", &[
        // Words, colours, keys, the clock the game is handed, what goes wrong at a server's
        // table.
        "words style keys clock online_error",
        // Parts: the board widget, help, a bot's thread, the server, record files, the log.
        "board help bots online record_file narration",
        // The whole screen, drawn from a scene.
        "screen",
        // The two programs: play (app/: the game's state, and a file per way it changes or
        // is drawn) and view.
        "app viewer",
        // Both in a real terminal.
        "terminal",
        "lib.rs",
    ]),
    ("sagani-protocol", &[
        // Shapes that stand alone: whole numbers as JSON Schema reads them, refusals, time
        // controls, the OpenAPI-only shapes, tiles, chat, health, accounts, the daily challenge,
        // challenges and follows, play now, notices and mail.
        "whole error time_control schema tiles chat health accounts daily challenges seeks notices",
        // A game's state.
        "state",
        // What refers to a state: games made and listed, moves, the socket's messages,
        // players' games, the analysis and the replay.
        "games moves socket players study live",
        "lib.rs",
    ]),
    ("sagani-load", &[
        // What goes wrong, latency counts; one player; the run.
        "error latency",
        "player",
        "lib.rs",
    ]),
    ("sagani-lab", &[
        // Why self-play stopped.
        "error",
        // Tuning the solo policy, fitting the policy and the value to searches.
        "solo_tune train value_train",
        // Learning the solo value, measured as the tuned policy is.
        "td_learn",
        "lib.rs",
    ]),
    ("sagani-cli", &[
        // What stops a command.
        "error",
        // What the commands share: output, plots, seats and records.
        "out plot seats logging",
        // One module per command.
        "arena bench daily db hint ladder loadtest play replay serve solo train",
        "main.rs",
    ]),
];

/// A crate's sources, keyed by the path under `src/` (`lib.rs`, `store/mod.rs`).
type Sources = BTreeMap<String, String>;
/// The arrows between files (by number), each with the names of the items it stands for.
type Arrows = BTreeMap<(usize, usize), BTreeSet<String>>;
/// The (module, name) pairs being looked up, so a `use` that leads back to itself ends.
type Seen = Vec<(usize, String)>;

/// Where a path leads: a module, or an item (its file, its name).
#[derive(Clone)]
enum Target {
    Module(usize),
    Item(usize, String),
}

/// One module: a file, or an inline `mod x { }` inside one.
struct Module {
    file: usize,
    parent: Option<usize>,
    /// Where its `mod x;` files are (`store/`).
    dir: String,
    /// Its top-level module (`store` for `store::replay`), or the root file's name.
    top: String,
    children: HashMap<String, usize>,
    found: Collector,
}

/// What a module's code says: its items, its `use` names, and every path it names.
#[derive(Default)]
struct Collector {
    defs: BTreeSet<String>,
    /// `use a::b::C as D;` binds D to `a::b::C`.
    names: Vec<(String, Vec<String>)>,
    /// `use a::b::*;`
    globs: Vec<Vec<String>>,
    /// Paths in code, and the paths of private `use` (imports; `pub use` only re-exports).
    refs: Vec<Vec<String>>,
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item(&mut self, item: &'ast Item) {
        let (attrs, name) = attrs_and_name(item);
        match item {
            _ if is_test(attrs) => {}
            Item::Mod(_) => {} // a module of its own: `Crate::add` reads it
            Item::Use(u) => {
                let import = matches!(u.vis, syn::Visibility::Inherited);
                for (name, path) in flatten(&u.tree, &mut Vec::new()) {
                    match name.as_deref() {
                        None => self.globs.push(path),
                        Some("_") => self.refs.push(path),
                        Some(name) => {
                            self.names.push((name.to_string(), path.clone()));
                            self.refs.extend(import.then_some(path));
                        }
                    }
                }
            }
            _ => {
                self.defs.extend(name);
                visit::visit_item(self, item);
            }
        }
    }

    fn visit_impl_item(&mut self, item: &'ast ImplItem) {
        if !matches!(item, ImplItem::Fn(f) if is_test(&f.attrs)) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let names = path.segments.iter().map(|s| s.ident.to_string());
        self.refs.push(names.collect());
        visit::visit_path(self, path);
    }

    // `vec![..]`, `format!(..)`, `assert_eq!(..)`: the arguments when they are expressions;
    // other bodies only for full paths.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        match mac.parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated) {
            Ok(args) => args.iter().for_each(|arg| self.visit_expr(arg)),
            Err(_) => self.refs.extend(full_paths(&mac.tokens.to_string())),
        }
    }

    // `#[openapi(paths(crate::routes::play))]` names items too.
    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        if let syn::Meta::List(list) = &attr.meta {
            self.refs.extend(full_paths(&list.tokens.to_string()));
        }
    }
}

/// The `crate::a::b` and `super::a` paths in tokens that no parser reads (not `$crate`).
fn full_paths(tokens: &str) -> Vec<Vec<String>> {
    let words: Vec<&str> = tokens.split_whitespace().collect();
    let is_name = |w: &str| w.chars().all(|c| c.is_alphanumeric() || c == '_');
    let mut paths = Vec::new();
    for (i, &word) in words.iter().enumerate() {
        if matches!(word, "crate" | "super") && (i == 0 || !matches!(words[i - 1], "$" | "::")) {
            let mut path = vec![word.to_string()];
            while words.get(i + 2 * path.len() - 1) == Some(&"::") {
                match words.get(i + 2 * path.len()) {
                    Some(name) if is_name(name) => path.push(name.to_string()),
                    _ => break,
                }
            }
            paths.push(path);
        }
    }
    paths
}

/// A `use` tree as (name bound, full path) pairs; a glob binds no name.
fn flatten(tree: &UseTree, prefix: &mut Vec<String>) -> Vec<(Option<String>, Vec<String>)> {
    let path = |ident: &syn::Ident| {
        let tail = (ident != "self").then(|| ident.to_string());
        prefix.iter().cloned().chain(tail).collect()
    };
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            let pairs = flatten(&p.tree, prefix);
            prefix.pop();
            pairs
        }
        UseTree::Name(n) if n.ident == "self" => vec![(prefix.last().cloned(), path(&n.ident))],
        UseTree::Name(n) => vec![(Some(n.ident.to_string()), path(&n.ident))],
        UseTree::Rename(r) => vec![(Some(r.rename.to_string()), path(&r.ident))],
        UseTree::Glob(_) => vec![(None, prefix.clone())],
        UseTree::Group(g) => g.items.iter().flat_map(|t| flatten(t, prefix)).collect(),
    }
}

fn attrs_and_name(item: &Item) -> (&[Attribute], Option<String>) {
    let named = |attrs, ident: &syn::Ident| (attrs, Some(ident.to_string()));
    match item {
        Item::Const(i) => named(&i.attrs[..], &i.ident),
        Item::Enum(i) => named(&i.attrs, &i.ident),
        Item::Fn(i) => named(&i.attrs, &i.sig.ident),
        Item::Macro(i) => (&i.attrs, i.ident.as_ref().map(ToString::to_string)), // macro_rules!
        Item::Mod(i) => named(&i.attrs, &i.ident),
        Item::Static(i) => named(&i.attrs, &i.ident),
        Item::Struct(i) => named(&i.attrs, &i.ident),
        Item::Trait(i) => named(&i.attrs, &i.ident),
        Item::Type(i) => named(&i.attrs, &i.ident),
        Item::Union(i) => named(&i.attrs, &i.ident),
        Item::Impl(i) => (&i.attrs, None),
        Item::Use(i) => (&i.attrs, None),
        _ => (&[], None),
    }
}

/// `#[cfg(test)]`: code the shipped crate does not have.
fn is_test(attrs: &[Attribute]) -> bool {
    let test = |l: &syn::MetaList| l.tokens.to_string() == "test";
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && a.meta.require_list().is_ok_and(test))
}

/// A crate's files and modules, read from its root file down through `mod x;`.
#[derive(Default)]
struct Crate {
    files: Vec<String>,
    modules: Vec<Module>,
}

impl Module {
    fn new(file: usize, parent: Option<usize>, top: &str, dir: String) -> Module {
        let (top, children, found) = (top.to_string(), HashMap::new(), Collector::default());
        Module {
            file,
            parent,
            dir,
            top,
            children,
            found,
        }
    }
}

impl Crate {
    fn read(src: &Sources) -> Crate {
        let root = ["lib.rs", "main.rs"]
            .into_iter()
            .find(|r| src.contains_key(*r));
        let root = root.expect("a crate has a lib.rs or a main.rs");
        let mut krate = Crate::default();
        krate.add_file(src, root, None, root);
        krate
    }

    /// Reads the file at `path` as a module below `parent`.
    fn add_file(&mut self, src: &Sources, path: &str, parent: Option<usize>, top: &str) -> usize {
        let ast = syn::parse_file(&src[path]).unwrap_or_else(|e| panic!("{path}: {e}"));
        self.files.push(path.to_string());
        // `a/mod.rs` and the root keep their children beside them; `a.rs` keeps them in `a/`.
        let dir = match path.strip_suffix(".rs") {
            Some(stem) if parent.is_some() && !path.ends_with("mod.rs") => format!("{stem}/"),
            _ => path.trim_end_matches(|c| c != '/').to_string(),
        };
        let module = Module::new(self.files.len() - 1, parent, top, dir);
        self.add(src, &ast.items, module)
    }

    /// Reads `items` as `module`, then its children.
    fn add(&mut self, src: &Sources, items: &[Item], mut module: Module) -> usize {
        items.iter().for_each(|item| module.found.visit_item(item));
        let id = self.modules.len();
        let (file, dir, top) = (module.file, module.dir.clone(), module.top.clone());
        self.modules.push(module);
        for item in items {
            let m = match item {
                Item::Mod(m) if !is_test(&m.attrs) => m,
                _ => continue,
            };
            let name = m.ident.to_string();
            let top = if id == 0 { &name } else { &top };
            let child = match &m.content {
                Some((_, inner)) => {
                    let module = Module::new(file, Some(id), top, format!("{dir}{name}/"));
                    self.add(src, inner, module)
                }
                None => {
                    let paths = [format!("{dir}{name}.rs"), format!("{dir}{name}/mod.rs")];
                    let path = paths.iter().find(|p| src.contains_key(*p));
                    let path = path.unwrap_or_else(|| panic!("no file for `mod {name};` in {dir}"));
                    self.add_file(src, path, Some(id), top)
                }
            };
            self.modules[id].children.insert(name, child);
        }
        id
    }

    /// What `name` means inside module `m`; `want_module` when a `::` follows it.
    fn lookup(&self, m: usize, name: &str, want_module: bool, seen: &mut Seen) -> Option<Target> {
        let key = (m, name.to_string());
        if seen.contains(&key) {
            return None;
        }
        seen.push(key);
        let module = &self.modules[m];
        let mut found = Vec::new();
        found.extend(module.children.get(name).map(|&c| Target::Module(c)));
        if module.found.defs.contains(name) {
            found.push(Target::Item(module.file, name.to_string()));
        }
        for (_, path) in module.found.names.iter().filter(|(bound, _)| bound == name) {
            found.extend(self.resolve(m, path, want_module, seen));
        }
        if found.is_empty() {
            for glob in &module.found.globs {
                if let Some(Target::Module(g)) = self.resolve(m, glob, true, seen) {
                    found.extend(self.lookup(g, name, want_module, seen));
                }
            }
        }
        seen.pop();
        // A name can be a module and a function at once (`mod deck; pub use deck::deck;`).
        let pick = found
            .iter()
            .find(|t| matches!(t, Target::Module(_)) == want_module);
        pick.or(found.first()).cloned()
    }

    /// Where `path`, written in module `m`, leads; `None` for other crates, locals, generics.
    fn resolve(
        &self,
        m: usize,
        path: &[String],
        want_module: bool,
        seen: &mut Seen,
    ) -> Option<Target> {
        let mut at = Target::Module(m);
        for (i, segment) in path.iter().enumerate() {
            let Target::Module(here) = at else {
                return Some(at); // `Type::method`, `Enum::Variant`: the type's file
            };
            at = match segment.as_str() {
                "crate" if i == 0 => Target::Module(0),
                "self" => Target::Module(here),
                "super" => Target::Module(self.modules[here].parent?),
                name => self.lookup(here, name, want_module || i + 1 < path.len(), seen)?,
            };
        }
        Some(at)
    }

    fn arrows(&self) -> Arrows {
        let mut arrows = Arrows::new();
        for (m, module) in self.modules.iter().enumerate() {
            for path in &module.found.refs {
                if let Some(Target::Item(file, name)) =
                    self.resolve(m, path, false, &mut Seen::new())
                {
                    if file != module.file {
                        arrows.entry((module.file, file)).or_default().insert(name);
                    }
                }
            }
        }
        arrows
    }

    /// A file's top-level module: the one its module lies in.
    fn top(&self, file: usize) -> &str {
        &self.modules.iter().find(|m| m.file == file).unwrap().top
    }
}

/// Everything wrong with one crate's house, one line each; empty when it is sound. Circles are
/// the shortest through each arrow that has a way back, so every such arrow shows up, with the
/// items it stands for: the ones to move.
fn check(name: &str, src: &Sources, layers: Option<&[&str]>) -> Vec<String> {
    let krate = Crate::read(src);
    let arrows = krate.arrows();
    let (files, count) = (krate.files.len(), arrows.len());
    eprintln!("{name}: {files} files, {count} arrows");
    let file = |f: usize| krate.files[f].as_str();
    let items = |u: usize, v: usize| Vec::from_iter(arrows[&(u, v)].clone()).join(", ");
    let mut problems = Vec::new();

    // Circles: an arrow u -> v is in one when v leads back to u; show the shortest way back.
    let mut circles = BTreeSet::new();
    for &(u, v) in arrows.keys() {
        if let Some(back) = shortest_path(&arrows, v, u) {
            let mut circle: Vec<usize> = std::iter::once(u).chain(back).collect();
            let first = (0..circle.len()).min_by_key(|&i| circle[i]).unwrap();
            circle.rotate_left(first);
            circles.insert(circle);
        }
    }
    let mut in_circles = BTreeSet::new();
    for circle in &circles {
        let names: Vec<&str> = circle
            .iter()
            .chain(&circle[..1])
            .map(|&f| file(f))
            .collect();
        problems.push(format!("{name}: circle {}", names.join(" -> ")));
        in_circles.extend((0..circle.len()).map(|i| (circle[i], circle[(i + 1) % circle.len()])));
    }
    for (u, v) in in_circles {
        let (a, b, what) = (file(u), file(v), items(u, v));
        problems.push(format!("{name}:   arrow in a circle {a} -> {b}: {what}"));
    }

    // Layers: every top-level module must have one, and no arrow may climb.
    let Some(layers) = layers else {
        problems.push(format!("{name}: add the crate to the layers table"));
        return problems;
    };
    let layer = |top: &str| {
        layers
            .iter()
            .position(|l| l.split_whitespace().any(|m| m == top))
    };
    let tops: BTreeSet<&str> = (0..krate.files.len()).map(|f| krate.top(f)).collect();
    for top in tops.into_iter().filter(|top| layer(top).is_none()) {
        problems.push(format!("{name}: add {top} to the layers table"));
    }
    for &(u, v) in arrows.keys() {
        let (top_u, top_v) = (krate.top(u), krate.top(v));
        if let (Some(lu), Some(lv)) = (layer(top_u), layer(top_v)) {
            if lv > lu {
                let (a, b, what) = (file(u), file(v), items(u, v));
                problems.push(format!(
                    "{name}: upward arrow {a} -> {b} ({top_u}, layer {lu} -> {top_v}, layer {lv}): {what}"
                ));
            }
        }
    }
    problems
}

/// The files on a shortest way from `from` to `to`, without `to`: the way back in a circle.
fn shortest_path(arrows: &Arrows, from: usize, to: usize) -> Option<Vec<usize>> {
    let mut came_from = HashMap::from([(from, from)]);
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        for &(_, next) in arrows.range((at, 0)..(at + 1, 0)).map(|(k, _)| k) {
            if next == to {
                let mut path = vec![at];
                while path[path.len() - 1] != from {
                    path.push(came_from[&path[path.len() - 1]]);
                }
                path.reverse();
                return Some(path);
            }
            if let Entry::Vacant(entry) = came_from.entry(next) {
                entry.insert(at);
                queue.push_back(next);
            }
        }
    }
    None
}

/// Every `.rs` file under `dir`, keyed by its path under it, after `under`.
fn read_sources(dir: &std::path::Path, under: &str, out: &mut Sources) {
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        let name = format!("{under}{}", entry.file_name().to_string_lossy());
        if entry.file_type().unwrap().is_dir() {
            read_sources(&entry.path(), &format!("{name}/"), out);
        } else if name.ends_with(".rs") {
            out.insert(name, std::fs::read_to_string(entry.path()).unwrap());
        }
    }
}

#[test]
fn the_house_has_no_circles_and_no_upward_arrows() {
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut names: Vec<_> = std::fs::read_dir(&crates)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    let mut problems = Vec::new();
    for name in names.iter().map(|n| n.to_string_lossy()) {
        let mut src = Sources::new();
        read_sources(&crates.join(&*name).join("src"), "", &mut src);
        let layers = LAYERS.iter().find(|(c, _)| *c == name).map(|(_, l)| *l);
        problems.extend(check(&name, &src, layers));
    }
    assert!(
        problems.is_empty(),
        "the house is not sound:\n{}",
        problems.join("\n")
    );
}

fn sources(files: &[(&str, &str)]) -> Sources {
    files
        .iter()
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect()
}

#[test]
fn two_files_that_import_each_other_are_a_circle() {
    let src = sources(&[
        ("lib.rs", "mod store; mod table; pub use table::Table;"),
        (
            "store/mod.rs",
            "mod game; pub use game::Saved; use crate::table::Table; pub fn load(_: Table) {}",
        ),
        ("store/game.rs", "pub struct Saved;"),
        (
            "table.rs",
            "use crate::store; pub struct Table; fn f() { store::load(Table); }",
        ),
    ]);
    assert_eq!(
        check("synthetic", &src, Some(&["store table", "lib.rs"])),
        [
            "synthetic: circle store/mod.rs -> table.rs -> store/mod.rs",
            "synthetic:   arrow in a circle store/mod.rs -> table.rs: Table",
            "synthetic:   arrow in a circle table.rs -> store/mod.rs: load",
        ]
    );
}

#[test]
fn an_import_from_a_higher_layer_is_an_upward_arrow() {
    // Both reach `Saved` through re-exports: their arrows end where it is defined.
    let src = sources(&[
        ("lib.rs", "mod rules; mod store;"),
        (
            "rules.rs",
            "fn f(s: crate::store::Saved) -> crate::store::Saved { s }",
        ),
        ("store/mod.rs", "mod game; mod sql; pub use game::Saved;"),
        ("store/game.rs", "pub struct Saved;"),
        ("store/sql/mod.rs", "pub mod games;"),
        (
            "store/sql/games.rs",
            "use super::super::Saved; fn f(_: Saved) {}",
        ),
    ]);
    assert_eq!(
        check("synthetic", &src, Some(&["rules", "store", "lib.rs"])),
        ["synthetic: upward arrow rules.rs -> store/game.rs (rules, layer 0 -> store, layer 1): Saved"]
    );
    let krate = Crate::read(&src);
    let arrows: Vec<_> = krate
        .arrows()
        .into_keys()
        .map(|(u, v)| (&*krate.files[u], &*krate.files[v]))
        .collect();
    assert_eq!(
        arrows,
        [
            ("rules.rs", "store/game.rs"),
            ("store/sql/games.rs", "store/game.rs")
        ]
    );
    let without_rules = check("synthetic", &src, Some(&["store", "lib.rs"]));
    assert_eq!(without_rules, ["synthetic: add rules to the layers table"]);
}
