/** The readable summary `bridle` prints for an envelope (the raw envelope is `--json`). */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function section(title: string, body: string): string {
  if (body === "") return "";
  return `--- ${title} ---\n${body.endsWith("\n") ? body : `${body}\n`}`;
}

/** A mode as people write it: the permission bits in octal (`0644`), with the type bits. */
export function octalMode(mode: number): string {
  return `0${(mode & 0o7777).toString(8).padStart(3, "0")}`;
}

function fieldLines(result: Json): string {
  return Object.entries(result)
    .map(([key, value]) => {
      if (key === "mode" && typeof value === "number") return `mode: ${octalMode(value)}`;
      return `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`;
    })
    .join("\n")
    .concat("\n");
}

/**
 * What `bridle` prints on stdout for a result, so it can be piped: a file's content
 * exactly, a listing, the fields of `stat` and `write`; nothing for a refusal (the shell's
 * output was already shown live).
 */
export function envelopeContent(tool: string, envelope: unknown): string {
  if (!isRecord(envelope) || !isRecord(envelope.result)) return "";
  const result = envelope.result;
  switch (tool) {
    case "read_file":
      return String(result.content ?? "");
    case "list_directory": {
      const entries = Array.isArray(result.entries) ? result.entries : [];
      return entries
        .filter(isRecord)
        .map((entry) => {
          const suffix = entry.type === "directory" ? "/" : "";
          return `${String(entry.type).padEnd(9)} ${String(entry.size).padStart(10)}  ${String(entry.name)}${suffix}\n`;
        })
        .join("");
    }
    default:
      return resultBody(tool, result);
  }
}

/** The line about what was read or listed, for stderr beside the piped content. */
function resultNote(tool: string, result: Json): string {
  if (tool === "read_file")
    return `read ${String(result.path)} (${String(result.size)} bytes, ${String(result.encoding)}${result.truncated === true ? ", truncated" : ""})\n`;
  if (tool === "list_directory")
    return `listed ${String(result.path)}${result.truncated === true ? " (listing truncated)" : ""}\n`;
  return "";
}

function resultBody(tool: string, result: Json): string {
  switch (tool) {
    case "read_file":
      return section(
        `${String(result.path)} (${String(result.size)} bytes, ${String(result.encoding)}${result.truncated === true ? ", truncated" : ""})`,
        String(result.content ?? ""),
      );
    case "list_directory": {
      const entries = Array.isArray(result.entries) ? result.entries : [];
      const lines = entries.filter(isRecord).map((entry) => {
        const suffix = entry.type === "directory" ? "/" : "";
        return `${String(entry.type).padEnd(9)} ${String(entry.size).padStart(10)}  ${String(entry.name)}${suffix}`;
      });
      if (result.truncated === true) lines.push("(listing truncated)");
      return section(String(result.path), lines.join("\n"));
    }
    case "file_info":
    case "write_file":
      return fieldLines(result);
    default:
      return `${JSON.stringify(result, null, 2)}\n`;
  }
}

/** A multi-line, human-readable account of one dispatch outcome. */
export function summarizeEnvelope(
  tool: string,
  envelope: unknown,
  options: {
    readonly outputShown?: boolean;
    /** The result's content is printed elsewhere (`envelopeContent`): only a note here. */
    readonly contentShown?: boolean;
  } = {},
): string {
  if (!isRecord(envelope)) return `${JSON.stringify(envelope)}\n`;
  const lines: string[] = [];
  if (typeof envelope.exit_code === "number") {
    const flags = [
      envelope.timed_out === true ? "timed out" : "",
      envelope.stdout_truncated === true ? "stdout truncated" : "",
      envelope.stderr_truncated === true ? "stderr truncated" : "",
    ].filter((flag) => flag !== "");
    lines.push(
      `exit code: ${envelope.exit_code}${flags.length > 0 ? ` (${flags.join(", ")})` : ""}`,
    );
  } else if (envelope.denied === true && envelope.result === undefined) {
    lines.push("refused: nothing ran");
  }
  const disclosure = isRecord(envelope.disclosure) ? envelope.disclosure : {};
  const engine = typeof disclosure.engine === "string" ? `, engine ${disclosure.engine}` : "";
  lines.push(`sandbox: ${String(envelope.sandbox_kind)}${engine}`);
  const report = isRecord(envelope.enforcement) ? envelope.enforcement : {};
  // The host shell's exec strength is the kernel's execute rules', not an interceptor's (ADR 0024).
  const via = (axis: string) =>
    axis === "exec" && disclosure.exec_via === "execute_rules"
      ? " (via the kernel's execute rules; the engine checks no program)"
      : "";
  const axes = Object.entries(report).map(
    ([axis, strength]) => `${axis} ${String(strength)}${via(axis)}`,
  );
  lines.push(
    `enforcement: ${axes.length > 0 ? axes.join(", ") : "no restricted axis (nothing to report)"}`,
  );
  if (disclosure.unbridled === true) lines.push("UNBRIDLED: the kernel sandbox was off");
  let text = `${lines.join("\n")}\n`;
  if (!options.outputShown) {
    if (typeof envelope.stdout === "string") text += section("stdout", envelope.stdout);
    if (typeof envelope.stderr === "string") text += section("stderr", envelope.stderr);
  }
  if (isRecord(envelope.result))
    text += options.contentShown
      ? resultNote(tool, envelope.result)
      : resultBody(tool, envelope.result);
  if (Array.isArray(envelope.denials) && envelope.denials.length > 0) {
    text += "denials:\n";
    for (const denial of envelope.denials.filter(isRecord)) {
      text += `  - [${String(denial.code)}] ${String(denial.reason)}\n`;
    }
  }
  return text;
}
