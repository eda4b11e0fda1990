//! build.rs: finds the pinned agenthooksprotocol crate's own source directory so the adapter can
//! report the SDK's codegen lock (embedded at compile time) and its schema bundle path, and writes
//! the adapter's root table from the crate's generated module: every root with both a public
//! `parse_<root>(` and an `encode_<root>(` function, whose model is the root in PascalCase. So the
//! table follows the crate instead of being kept by hand; a crate that cannot be found stops the
//! build (the adapter would have no roots).
//!
//! Why this way: the crate keeps schemas.json and ahp-codegen.lock.json private (it has no `links`
//! key, so no DEP_* variables reach us). Cargo unpacks registry crates to
//! $CARGO_HOME/registry/src/<registry>/<name>-<version>/, so we read the locked version from our
//! Cargo.lock and look there. If the crate comes from elsewhere (vendoring, a path or git override)
//! nothing is found and the adapter honestly reports `lock: null, schemaBundle: null`.
use std::{env, fs, path::PathBuf, process::Command};

const SDK: &str = "agenthooksprotocol";

fn locked_version(lock: &str) -> Option<String> {
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == format!("name = \"{SDK}\"") {
            let version = lines.next()?.trim().strip_prefix("version = \"")?;
            return Some(version.trim_end_matches('"').to_owned());
        }
    }
    None
}

fn sdk_dir(version: &str) -> Option<PathBuf> {
    let home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    let mut found: Vec<PathBuf> = fs::read_dir(home.join("registry").join("src"))
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join(format!("{SDK}-{version}")))
        .filter(|p| p.join("src").join("schemas.json").is_file())
        .collect();
    found.sort();
    found.into_iter().next()
}

fn pascal(root: &str) -> String {
    root.split('_').map(|p| p[..1].to_uppercase() + &p[1..]).collect()
}

/// `pub fn <prefix><name>(` declarations of the generated module, by name.
fn declared(source: &str, prefix: &str) -> std::collections::BTreeSet<String> {
    let needle = format!("pub fn {prefix}");
    source
        .match_indices(&needle)
        .filter_map(|(at, _)| {
            let rest = &source[at + needle.len()..];
            let end = rest.find('(')?;
            let name = &rest[..end];
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                .then(|| name.to_owned())
        })
        .collect()
}

fn root_table(generated: &str) -> String {
    let encoders = declared(generated, "encode_");
    let mut table = String::from("roots! {\n");
    for root in declared(generated, "parse_").into_iter().filter(|r| encoders.contains(r)) {
        table += &format!("    {root:?} => {}, parse_{root}, encode_{root};\n", pascal(&root));
    }
    table + "}\n"
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-env-changed=CARGO_HOME");
    let version = fs::read_to_string(manifest.join("Cargo.lock"))
        .ok()
        .and_then(|l| locked_version(&l))
        .unwrap_or_default();
    let dir = sdk_dir(&version);
    let lock = dir
        .as_ref()
        .and_then(|d| fs::read_to_string(d.join("src").join("ahp-codegen.lock.json")).ok())
        .unwrap_or_else(|| "null".to_owned());
    fs::write(out.join("sdk-lock.json"), lock).unwrap();
    let generated = dir
        .as_ref()
        .and_then(|d| fs::read_to_string(d.join("src").join("generated.rs")).ok())
        .expect("the agenthooksprotocol crate's src/generated.rs (for the root table) was not found");
    fs::write(out.join("roots.rs"), root_table(&generated)).unwrap();
    let bundle = dir.map(|d| d.join("src").join("schemas.json").display().to_string());
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let rustc_version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).split_whitespace().nth(1).map(str::to_owned))
        .unwrap_or_default();
    println!("cargo:rustc-env=AHP_SDK_VERSION={version}");
    println!("cargo:rustc-env=AHP_SCHEMA_BUNDLE={}", bundle.unwrap_or_default());
    println!("cargo:rustc-env=AHP_RUSTC_VERSION={rustc_version}");
}
