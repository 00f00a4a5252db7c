/** The readable summary `bridle` prints for an envelope (the raw envelope is `--json`). */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function section(title: string, body: string): string {
  if (body === "") return "";
  return `--- ${title} ---\n${body.endsWith("\n") ? body : `${body}\n`}`;
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
      return Object.entries(result)
        .map(
          ([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`,
        )
        .join("\n")
        .concat("\n");
    default:
      return `${JSON.stringify(result, null, 2)}\n`;
  }
}

/** A multi-line, human-readable account of one dispatch outcome. */
export function summarizeEnvelope(
  tool: string,
  envelope: unknown,
  options: { readonly outputShown?: boolean } = {},
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
  const axes = Object.entries(report).map(([axis, strength]) => `${axis} ${String(strength)}`);
  lines.push(
    `enforcement: ${axes.length > 0 ? axes.join(", ") : "no restricted axis (nothing to report)"}`,
  );
  if (disclosure.unbridled === true) lines.push("UNBRIDLED: the kernel sandbox was off");
  let text = `${lines.join("\n")}\n`;
  if (!options.outputShown) {
    if (typeof envelope.stdout === "string") text += section("stdout", envelope.stdout);
    if (typeof envelope.stderr === "string") text += section("stderr", envelope.stderr);
  }
  if (isRecord(envelope.result)) text += resultBody(tool, envelope.result);
  if (Array.isArray(envelope.denials) && envelope.denials.length > 0) {
    text += "denials:\n";
    for (const denial of envelope.denials.filter(isRecord)) {
      text += `  - [${String(denial.code)}] ${String(denial.reason)}\n`;
    }
  }
  return text;
}
