// Kernel boundary, class 11 with the policy the funnel really computes (kernel-boundary.md
// §1.1, §2 "secrets"): under fs_read "all" and the default path policy, secrets reached by
// another name than the blocked one stay unreadable. `/var` is blocked by name, and
// `/var/run` is a link to `/run`, where containers mount their secrets
// (`/run/secrets/kubernetes.io/serviceaccount/token`): the view masks `/run` itself, and a
// credential store in the home (`~/.git-credentials`) is masked too (ADR 0030), also one
// that appears after the funnel computed the policy (the launcher looks when it makes the view).
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { caveats, defaultPathPolicy, NO_COVERAGE, only } from "@agent-bridle/core";
import { beforeAll, describe, expect, it } from "vitest";
import { launcherPolicyOf } from "../../src/backend/launcher-policy-of.js";
import {
  attack,
  canary,
  dir,
  expectContained,
  file,
  modes,
  onCleanup,
  outcomes,
  settleTimes,
  setUpLauncher,
  snapshot,
  value,
} from "./kit.js";

const READ_SECRETS = `
probe("x:run-secret", lambda: read(ARGS["run"]))
probe("x:var-run-secret", lambda: read(ARGS["varRun"]))
probe("x:run-list", lambda: os.listdir(ARGS["runDir"]))
probe("x:git-credentials", lambda: read(ARGS["credentials"]) or (_ for _ in ()).throw(OSError(2, "empty (masked)")))
probe("x:late-store", lambda: read(ARGS["late"]) or (_ for _ in ()).throw(OSError(2, "empty (masked)")))
probe("ctl:public", lambda: read(ARGS["public"]))
probe("ctl:outside", lambda: read(ARGS["outside"]))
probe("ctl:passwd", lambda: read("/etc/passwd"))
probe("ctl:write", lambda: write(ARGS["write"] + "/out.txt", "written"))
`;

/**
 * A base outside every default-blocked tree and outside /tmp (the kit's fixtures live in
 * /var/tmp, under the blocked /var, and the view's /tmp is its own, hiding the host's): a
 * directory of its own under /srv (the suite runs as root) that the user nobody can enter too.
 */
function openBase(): string {
  const parent = existsSync("/srv") ? "/srv" : "/opt";
  const base = mkdtempSync(join(parent, "bridle-default-policy-"));
  chmodSync(base, 0o755);
  onCleanup(() => rmSync(base, { recursive: true, force: true }));
  return base;
}

/** A canary token where containers mount secrets (root only: /run is root's). */
function plantRunSecret(secret: string): string {
  const runDir = `/run/secrets/bridle-boundary-${process.pid}-${Math.random().toString(16).slice(2, 8)}`;
  mkdirSync(runDir, { recursive: true, mode: 0o755 });
  writeFileSync(join(runDir, "token"), `${secret}\n`, { mode: 0o644 });
  onCleanup(() => rmSync(runDir, { recursive: true, force: true }));
  return runDir;
}

const runIsLinked =
  existsSync("/var/run") &&
  lstatSync("/var/run").isSymbolicLink() &&
  realpathSync("/var/run") === "/run";

// Root plants the canary; both modes attack it (nobody reads a 0644 file in /run on the host).
describe.skipIf(process.platform !== "linux" || process.getuid?.() !== 0 || !runIsLinked)(
  "kernel boundary: the default path policy under fs_read all",
  () => {
    beforeAll(async () => {
      await setUpLauncher();
    });

    it.each(modes)(
      "class 11 (fs_read all) as $name: /run's secrets, by /run or /var/run, and a home credential store (one made after the policy too) stay unreadable; the rest reads",
      async (mode) => {
        const base = openBase();
        const write = dir(mode, join(base, "write"));
        const outside = canary();
        file(mode, join(base, "outside.txt"), `${outside}\n`, 0o644);
        const control = canary("CONTROL");
        const secret = canary();
        const runDir = plantRunSecret(secret);
        const home = dir(mode, join(base, "home"), 0o755);
        const credentialsSecret = canary();
        const credentials = file(
          mode,
          join(home, ".git-credentials"),
          `${credentialsSecret}\n`,
          0o644,
        );
        const publicFile = file(mode, join(home, "notes.txt"), `${control}\n`, 0o644);
        const { policy } = await launcherPolicyOf({
          caveats: caveats({ fs_read: "all", fs_write: only([write]), exec: "all", net: only([]) }),
          pathPolicy: defaultPathPolicy({ platform: "linux", home }),
          coverage: NO_COVERAGE,
          extraWriteRoots: [],
          limits: {},
          runtimeExecutables: [],
          keepFds: [],
          cwd: write,
        });
        expect(policy.mask).toContain("/run");
        expect(policy.mask).toContain(credentials);
        // Missing while the policy was computed: the launcher still hides it once it is there.
        const lateSecret = canary();
        const late = file(mode, join(home, ".netrc"), `${lateSecret}\n`, 0o644);
        settleTimes(base);
        const tree = snapshot([base], [write]);
        const a = await attack(mode, { ...policy, maxProcs: 64 }, READ_SECRETS, {
          run: join(runDir, "token"),
          varRun: join("/var", runDir, "token"),
          runDir,
          credentials,
          late,
          public: publicFile,
          outside: join(base, "outside.txt"),
          write,
        });
        expectContained(a, [secret, credentialsSecret, lateSecret]);
        expect(outcomes(a, ["x:run-secret", "x:var-run-secret", "x:run-list"])).toEqual({
          "x:run-secret": 2,
          "x:var-run-secret": 2,
          "x:run-list": 2,
        });
        expect(value(a, "x:git-credentials")).toBeUndefined();
        expect(value(a, "x:late-store")).toBeUndefined();
        // Positive controls: a public file of the same home, /etc/passwd, the write root.
        expect(value(a, "ctl:public")).toBe(`${control}\n`);
        expect(String(value(a, "ctl:passwd"))).toContain("root:");
        expect(outcomes(a, ["ctl:write"])).toEqual({ "ctl:write": "ok" });
        // Nothing outside the write root changed; the rest of the host tree reads (not a
        // masked world): a file beside the home.
        expect(snapshot([base], [write])).toEqual(tree);
        expect(value(a, "ctl:outside")).toBe(`${outside}\n`);
      },
    );
  },
);
