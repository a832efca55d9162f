//! Generates the stand-in's gRPC server from the `agones` crate's own .proto files (the SDK the
//! game server links), so the two ends cannot disagree on the wire. `protoc` is Debian's
//! protobuf-compiler, which the SDK's own build script needs as well.

fn main() {
    #[cfg(feature = "stand-in")]
    generate();
}

#[cfg(feature = "stand-in")]
fn generate() {
    let sdk = sdk_sources().join("proto");
    let protos = ["sdk/sdk.proto", "sdk/beta/beta.proto"].map(|p| sdk.join(p));
    let includes = ["googleapis", "grpc-gateway", "sdk/beta", "sdk"].map(|p| sdk.join(p));
    for p in &protos {
        println!("cargo:rerun-if-changed={}", p.display());
    }
    tonic_build::configure()
        .build_client(false)
        .compile_protos(&protos, &includes)
        .expect("agones-sidecar: the SDK's .proto files compile");
}

/// Where the `agones` crate's sources lie: what `cargo metadata` says (it knows vendored and
/// patched sources too), else the copy cargo unpacked into its registry for this build. The
/// second is needed on a fresh machine: `cargo metadata` lists every workspace member's
/// packages, and `--offline` fails on the first that no build has downloaded yet (the wasm
/// golden check's `wasm-bindgen`, before any wasm step ran), while the build running this script
/// has already unpacked `agones` itself.
#[cfg(feature = "stand-in")]
fn sdk_sources() -> std::path::PathBuf {
    let version = locked_version("agones");
    match sources_from_metadata() {
        Ok(dir) => dir,
        Err(why) => sources_in_registry(&version).unwrap_or_else(|| {
            panic!(
                "agones-sidecar: cannot find the sources of agones {version}: cargo metadata \
                 failed ({why}) and no registry under {} holds agones-{version}",
                cargo_home().display()
            )
        }),
    }
}

/// `cargo metadata`, offline and filtered to the platform being built for: unfiltered, it
/// wants every platform's crates on disk (Windows' and macOS's too).
#[cfg(feature = "stand-in")]
fn sources_from_metadata() -> Result<std::path::PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = manifest_dir().join("Cargo.toml");
    let target = std::env::var("TARGET").expect("cargo sets TARGET for build scripts");
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline", "--all-features"])
        .args(["--filter-platform", &target, "--manifest-path"])
        .arg(&manifest)
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err.lines().find(|l| l.starts_with("error")).unwrap_or("no error line").into());
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("metadata is not JSON: {e}"))?;
    meta["packages"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "agones"))
        .and_then(|p| p["manifest_path"].as_str())
        .map(|m| std::path::PathBuf::from(m).parent().unwrap().to_path_buf())
        .ok_or_else(|| "the `agones` crate is not in the workspace's graph".into())
}

/// `$CARGO_HOME/registry/src/<index>/agones-<version>`, with the SDK's .proto files in it.
#[cfg(feature = "stand-in")]
fn sources_in_registry(version: &str) -> Option<std::path::PathBuf> {
    let src = cargo_home().join("registry").join("src");
    let mut indexes: Vec<_> = std::fs::read_dir(src).ok()?.flatten().map(|e| e.path()).collect();
    indexes.sort();
    indexes
        .into_iter()
        .map(|index| index.join(format!("agones-{version}")))
        .find(|dir| dir.join("proto/sdk/sdk.proto").is_file())
}

/// The version Cargo.lock pins, so the registry copy found is the one being built.
#[cfg(feature = "stand-in")]
fn locked_version(name: &str) -> String {
    let lock = manifest_dir().join("../../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text =
        std::fs::read_to_string(&lock).expect("agones-sidecar: the workspace's Cargo.lock reads");
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() == format!("name = \"{name}\"") {
            let version = lines.next().and_then(|l| l.trim().strip_prefix("version = \""));
            return version
                .and_then(|v| v.strip_suffix('"'))
                .expect("a version follows the name")
                .into();
        }
    }
    panic!("agones-sidecar: Cargo.lock has no {name} package")
}

#[cfg(feature = "stand-in")]
fn cargo_home() -> std::path::PathBuf {
    match std::env::var_os("CARGO_HOME") {
        Some(home) => home.into(),
        None => {
            std::path::PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo")
        }
    }
}

#[cfg(feature = "stand-in")]
fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR").into()
}
