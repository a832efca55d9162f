//! Generates the stand-in's gRPC server from the `agones` crate's own .proto files (the SDK the
//! game server links), so the two ends cannot disagree on the wire. Where that crate's sources
//! lie comes from `cargo metadata`, filtered to the platform being built for: unfiltered, it
//! wants every platform's crates on disk (Windows' and macOS's too), and `--offline` on a fresh
//! registry then fails on the first one that no build fetched. `protoc` is Debian's protobuf-compiler, which the SDK's own
//! build script needs as well.

fn main() {
    #[cfg(feature = "stand-in")]
    generate();
}

#[cfg(feature = "stand-in")]
fn generate() {
    use std::path::PathBuf;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("Cargo.toml");
    let target = std::env::var("TARGET").expect("cargo sets TARGET for build scripts");
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--all-features",
            "--filter-platform",
            &target,
            "--manifest-path",
        ])
        .arg(&manifest)
        .output()
        .expect("agones-sidecar: cargo metadata runs");
    assert!(
        out.status.success(),
        "agones-sidecar: cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let sdk = meta["packages"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "agones"))
        .and_then(|p| p["manifest_path"].as_str())
        .map(|m| PathBuf::from(m).parent().unwrap().join("proto"))
        .expect("agones-sidecar: the `agones` crate is in the workspace's graph");
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
