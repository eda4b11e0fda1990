//! crosscheck adapter for the AHP Rust SDK (adapter protocol v1, see docs/protocol.md).
//!
//! Reads NDJSON requests on stdin, writes one JSON line per request on stdout and flushes.
//! Two decoding paths of the pinned `agenthooksprotocol` crate:
//!   text (default)  parse_<root>(&str) then encode_<root>(&value)
//!   --path direct   serde_json::from_str::<Model>(&str) then serde_json::to_string(&model)
//! The root table below lists every root the crate exports (31 in 0.10.1). No test logic here.
use agenthooksprotocol::generated::*;
use base64::{Engine, engine::general_purpose::STANDARD};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Value, json};
use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

const PROTOCOL: u64 = 1;
const HYDRATION: &str = "Structurally valid value could not be decoded";

struct Outcome {
    outcome: &'static str,
    diagnostics: Vec<Value>,
    encoded: Option<Result<String, String>>,
    message: Option<String>,
}

fn diagnostic(d: &ParseDiagnostic) -> Value {
    json!({"path": d.path, "code": d.code, "severity": d.severity})
}

fn accepted(diagnostics: Vec<Value>, encoded: Result<String, serde_json::Error>) -> Outcome {
    let encoded = Some(encoded.map_err(|e| e.to_string()));
    Outcome { outcome: "accepted", diagnostics, encoded, message: None }
}

fn rejected(diagnostics: Vec<Value>, message: Option<String>) -> Outcome {
    Outcome { outcome: "rejected", diagnostics, encoded: None, message }
}

fn via_parse<T>(result: ParseResult<T>, encode: fn(&T) -> Result<String, serde_json::Error>) -> Outcome {
    match result {
        ParseResult::Success { value, diagnostics, .. } => {
            accepted(diagnostics.iter().map(diagnostic).collect(), encode(&value))
        }
        ParseResult::Failure { diagnostics, .. } => {
            // A typed-hydration failure after a clean structural check is an SDK inconsistency:
            // keep its text so the harness can tell it from an ordinary rejection.
            let hydration = diagnostics.iter().find(|d| d.message.starts_with(HYDRATION));
            let message = hydration.map(|d| format!("hydration: {}", d.message));
            rejected(diagnostics.iter().map(diagnostic).collect(), message)
        }
    }
}

fn via_serde<T: DeserializeOwned + Serialize>(text: &str) -> Outcome {
    match serde_json::from_str::<T>(text) {
        // Serde decoding returns no warnings: this path reports acceptance and re-encoding only.
        Ok(value) => accepted(Vec::new(), serde_json::to_string(&value)),
        Err(e) if e.is_syntax() || e.is_eof() => rejected(
            vec![json!({"path": "", "code": "invalid_json", "severity": "error"})],
            Some(e.to_string()),
        ),
        Err(e) => rejected(Vec::new(), Some(e.to_string())),
    }
}

macro_rules! roots {
    ($($name:literal => $model:ident, $parse:ident, $encode:ident;)*) => {
        const ROOTS: &[&str] = &[$($name),*];
        fn run(root: &str, text: &str, direct: bool) -> Option<Outcome> {
            Some(match root {
                $($name => if direct { via_serde::<$model>(text) } else { via_parse($parse(text), $encode) },)*
                _ => return None,
            })
        }
    };
}

roots! {
    "capabilities" => Capabilities, parse_capabilities, encode_capabilities;
    "capabilities_request" => CapabilitiesRequest, parse_capabilities_request, encode_capabilities_request;
    "capabilities_response" => CapabilitiesResponse, parse_capabilities_response, encode_capabilities_response;
    "catalogue_event" => CatalogueEvent, parse_catalogue_event, encode_catalogue_event;
    "configuration" => Configuration, parse_configuration, encode_configuration;
    "configuration_request" => ConfigurationRequest, parse_configuration_request, encode_configuration_request;
    "configuration_response" => ConfigurationResponse, parse_configuration_response, encode_configuration_response;
    "content_item" => ContentItem, parse_content_item, encode_content_item;
    "content_reference" => ContentReference, parse_content_reference, encode_content_reference;
    "content_selection" => ContentSelection, parse_content_selection, encode_content_selection;
    "content_upload" => ContentUpload, parse_content_upload, encode_content_upload;
    "content_upload_receipt" => ContentUploadReceipt, parse_content_upload_receipt, encode_content_upload_receipt;
    "deny_effect" => DenyEffect, parse_deny_effect, encode_deny_effect;
    "effect" => Effect, parse_effect, encode_effect;
    "event" => Event, parse_event, encode_event;
    "execution_event" => ExecutionEvent, parse_execution_event, encode_execution_event;
    "extensions" => Extensions, parse_extensions, encode_extensions;
    "interaction_event" => InteractionEvent, parse_interaction_event, encode_interaction_event;
    "intercept_deny_response" => InterceptDenyResponse, parse_intercept_deny_response, encode_intercept_deny_response;
    "intercept_no_effect_response" => InterceptNoEffectResponse, parse_intercept_no_effect_response, encode_intercept_no_effect_response;
    "intercept_request" => InterceptRequest, parse_intercept_request, encode_intercept_request;
    "intercept_response" => InterceptResponse, parse_intercept_response, encode_intercept_response;
    "json_rpc_message" => JsonRpcMessage, parse_json_rpc_message, encode_json_rpc_message;
    "observe_notification" => ObserveNotification, parse_observe_notification, encode_observe_notification;
    "registration" => Registration, parse_registration, encode_registration;
    "session_end_event" => SessionEndEvent, parse_session_end_event, encode_session_end_event;
    "session_start_event" => SessionStartEvent, parse_session_start_event, encode_session_start_event;
    "task_workspace_event" => TaskWorkspaceEvent, parse_task_workspace_event, encode_task_workspace_event;
    "tool_after_event" => ToolAfterEvent, parse_tool_after_event, encode_tool_after_event;
    "tool_before_event" => ToolBeforeEvent, parse_tool_before_event, encode_tool_before_event;
    "wire_message" => WireMessage, parse_wire_message, encode_wire_message;
}

fn hello(direct: bool) -> Value {
    let lock: Value =
        serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/sdk-lock.json"))).unwrap_or(Value::Null);
    let bundle = env!("AHP_SCHEMA_BUNDLE");
    let bundle = (!bundle.is_empty() && std::path::Path::new(bundle).is_file()).then_some(bundle);
    let mut roots = ROOTS.to_vec();
    roots.sort_unstable();
    json!({"op": "hello", "protocol": PROTOCOL,
        "implementation": {"name": if direct { "rust/direct" } else { "rust" }, "language": "rust",
            "path": if direct { "direct" } else { "text" }, "version": env!("AHP_SDK_VERSION"),
            "languageVersion": env!("AHP_RUSTC_VERSION"),
            "os": format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH)},
        "lock": lock, "schemaBundle": bundle, "roots": roots, "reportsWarnings": !direct})
}

fn answer(id: &Value, o: Outcome) -> Value {
    let (encoded, encode_error) = match o.encoded {
        Some(Ok(text)) => (Some(STANDARD.encode(text)), None),
        Some(Err(e)) => (None, Some(e)),
        None => (None, None),
    };
    json!({"id": id, "outcome": o.outcome, "diagnostics": o.diagnostics, "encoded": encoded,
        "encodeError": encode_error, "message": o.message})
}

fn error(id: &Value, message: String) -> Value {
    answer(id, Outcome { outcome: "error", diagnostics: Vec::new(), encoded: None, message: Some(message) })
}

fn payload(request: &Value) -> Result<String, &'static str> {
    let bytes =
        STANDARD.decode(request["input"].as_str().unwrap_or_default()).map_err(|_| "invalid base64")?;
    String::from_utf8(bytes).map_err(|_| "input is not UTF-8")
}

fn guarded<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        let text = panic.downcast_ref::<&str>().map(|s| s.to_string());
        format!("panic: {}", text.or_else(|| panic.downcast_ref::<String>().cloned()).unwrap_or_default())
    })
}

fn decode(id: &Value, root: &str, request: &Value, direct: bool) -> Value {
    if !ROOTS.contains(&root) {
        let message = Some(format!("no root {root:?} in this SDK"));
        return answer(
            id,
            Outcome { outcome: "unsupported", diagnostics: Vec::new(), encoded: None, message },
        );
    }
    match payload(request) {
        Err(problem) => error(id, problem.to_owned()),
        Ok(text) => match guarded(|| run(root, &text, direct)) {
            Ok(Some(outcome)) => answer(id, outcome),
            Ok(None) => error(id, format!("root {root:?} vanished")),
            Err(message) => error(id, message),
        },
    }
}

fn bench(id: &Value, root: &str, request: &Value, direct: bool) -> Value {
    let iterations = request["iterations"].as_u64().unwrap_or(0);
    let text = match payload(request) {
        Ok(text) if ROOTS.contains(&root) => text,
        Ok(_) => return json!({"id": id, "nanos": null, "message": "unsupported root"}),
        Err(problem) => return json!({"id": id, "nanos": null, "message": problem}),
    };
    let start = Instant::now();
    match guarded(|| (0..iterations).for_each(|_| drop(run(root, &text, direct)))) {
        Ok(()) => json!({"id": id, "nanos": start.elapsed().as_nanos() as u64}),
        Err(message) => json!({"id": id, "nanos": null, "message": message}),
    }
}

/// One request line in, at most one answer out, plus an exit code when the adapter must stop.
fn handle(line: &[u8], direct: bool) -> (Option<Value>, Option<i32>) {
    let request: Value = match serde_json::from_slice(line) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => {
            return (Some(error(&Value::Null, "bad request: not a JSON object".into())), None);
        }
        Err(e) => return (Some(error(&Value::Null, format!("bad request: {e}"))), None),
    };
    let id = match &request["id"] {
        Value::Number(n) if n.is_i64() || n.is_u64() => request["id"].clone(),
        _ => Value::Null,
    };
    let root = request["root"].as_str();
    match (request["op"].as_str(), root) {
        (Some("hello"), _) if request["protocol"].as_u64() == Some(PROTOCOL) => (Some(hello(direct)), None),
        (Some("hello"), _) => {
            let error = format!("unsupported protocol {}", request["protocol"]);
            (Some(json!({"op": "hello", "protocol": PROTOCOL, "error": error})), Some(2))
        }
        (Some("shutdown"), _) => (None, Some(0)),
        (Some(op @ ("decode" | "bench")), Some(root)) if !id.is_null() && request["input"].is_string() => {
            let reply = if op == "decode" {
                decode(&id, root, &request, direct)
            } else {
                bench(&id, root, &request, direct)
            };
            (Some(reply), None)
        }
        (Some("decode" | "bench"), _) => {
            (Some(error(&id, "bad request: needs an integer id, a string root and input".into())), None)
        }
        (_, _) => (Some(error(&id, format!("bad request: unknown op {}", request["op"]))), None),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let direct = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] | ["--path", "text"] => false,
        ["--path", "direct"] => true,
        _ => {
            eprintln!("usage: crosscheck-adapter-rust [--path text|direct]");
            std::process::exit(2);
        }
    };
    let (mut input, mut out) = (std::io::stdin().lock(), std::io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) if line.iter().all(u8::is_ascii_whitespace) => continue,
            Ok(_) => {}
            Err(e) => {
                eprintln!("ERROR: reading stdin: {e}");
                std::process::exit(3);
            }
        }
        let (reply, code) = handle(&line, direct);
        if let Some(reply) = reply {
            let written = writeln!(out, "{reply}").and_then(|_| out.flush());
            if written.is_err() {
                std::process::exit(3); // the harness is gone
            }
        }
        if let Some(code) = code {
            std::process::exit(code);
        }
    }
}
