// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { describe, expect, it } from "vitest";
import { LABELS, parseScript } from "../../src/index.js";
import { accept, argvs, commands, refuse } from "./helpers/parse-helpers.js";

/** Attack catalogue §3 (A38–A68), parsing inputs with `$A`/`$O`/`$P` spelled out. */
const A = "/ws/allowed";
const O = "/ws/outside";
const P = "/ws/PWNED";

describe("A38: a chained command is visible to admission", () => {
  it("echo hi && rm $A/victim parses to two commands, the second `rm`", () => {
    expect(argvs(`echo hi && rm ${A}/victim`)).toEqual([
      ["echo", "hi"],
      ["rm", `${A}/victim`],
    ]);
  });
});

describe("A40: subshells and brace groups are refused", () => {
  it.each([
    [`(echo a; rm ${A}/victim)`, LABELS.subshell],
    [`{ echo a; rm ${A}/victim; }`, "control keyword `{`"],
    [`( (rm ${A}/victim) )`, LABELS.subshell],
  ])("%j", (source, target) => {
    expect(refuse(source).target).toBe(target);
  });
});

describe("A42: process substitution is refused; the quoted control is literal", () => {
  it.each([`cat <(rm ${A}/victim)`, `echo x > >(rm ${A}/victim)`, `cat <(cat ${O}/secret.txt)`])(
    "%j",
    (source) => {
      expect(refuse(source)).toMatchObject({
        code: "SHELL_DYNAMIC_CONSTRUCT",
        target: LABELS.processSubstitution,
      });
    },
  );
  it('echo "<(x)" is the literal <(x)', () => {
    expect(argvs('echo "<(x)"')).toEqual([["echo", "<(x)"]]);
  });
});

describe("A44: only plain $NAME and ${NAME}", () => {
  it.each([
    "echo ${HOME@P}",
    "echo ${HOME@E}",
    "echo ${!HOME}",
    "echo ${!H*}",
    `echo \${HOME:-$(touch ${P})}`,
    `echo \${HOME/x/$(touch ${P})}`,
  ])("%j is refused", (source) => {
    expect(refuse(source)).toMatchObject({
      code: "SHELL_UNSUPPORTED_CONSTRUCT",
      target: LABELS.variableName,
    });
  });
  it("controls: echo $HOME and echo ${HOME} are variable words", () => {
    expect(argvs("echo $HOME")).toEqual([["echo", "⟨$HOME⟩"]]);
    expect(argvs("echo ${HOME}")).toEqual([["echo", "⟨$HOME⟩"]]);
  });
});

describe("A46: $IFS tricks", () => {
  it("cat${IFS}… is one word naming IFS (admission refuses the name)", () => {
    expect(argvs(`cat\${IFS}${O}/secret.txt`)).toEqual([[`cat⟨$IFS⟩${O}/secret.txt`]]);
  });
  it("cat${IFS:0:1}… and IFS=/; echo a are refused", () => {
    expect(refuse(`cat\${IFS:0:1}${O}/secret.txt`).target).toBe(LABELS.variableName);
    expect(refuse("IFS=/; echo a").target).toBe(LABELS.assignment);
  });
});

describe("A48: quote removal in command names", () => {
  it.each([
    `r''m ${A}/victim`,
    `"r"m ${A}/victim`,
    `\\rm ${A}/victim`,
    `'rm' ${A}/victim`,
    `r\\m ${A}/victim`,
  ])("%j names the program rm", (source) => {
    expect(argvs(source)).toEqual([["rm", `${A}/victim`]]);
  });
});

describe("A50: comment and quote desynchronisation", () => {
  it("the comment ends at the newline, so the next line's touch is a command", () => {
    expect(argvs(`echo ok #'\ntouch ${P}`)).toEqual([
      ["echo", "ok"],
      ["touch", P],
    ]);
    expect(refuse(`echo ok #'\ntouch ${P}\n'`).reason).toMatch(/unterminated single quote/);
  });
  it("echo x#'; rm …' is one echo argument", () => {
    expect(argvs(`echo x#'; rm ${A}/victim'`)).toEqual([["echo", `x#; rm ${A}/victim`]]);
  });
});

describe("A52: whitespace differentials never split words", () => {
  it.each([
    [`echo ok\rrm ${A}/victim`, "U+000D", 7],
    [`cat\u00a0${O}/secret.txt`, "U+00A0", 3],
    [`r\u200bm ${A}/victim`, "U+200B", 1],
    ["echo\u2003x", "U+2003", 4],
  ])("%j is a parse error at the character", (source, name, offset) => {
    expect(refuse(source)).toMatchObject({
      code: "SHELL_PARSE_ERROR",
      target: `control or invisible character ${name}`,
      offset,
      end: offset + 1,
    });
  });
});

describe("A54: cd is refused (bash would change the directory of later commands)", () => {
  it.each([
    `cd ${A}/dirlink && echo x > new.txt`,
    "cd .. && cat outside/secret.txt",
    `cd ${A}/dirlink; ls`,
  ])("%j", (source) => {
    expect(refuse(source).target).toBe("shell builtin `cd`");
  });
  it("echo x > $A/link.txt parses; the target is judged at admission", () => {
    const [command] = commands(accept(`echo x > ${A}/link.txt`));
    expect(command?.redirections[0]).toMatchObject({ kind: "file", fd: 1, operator: ">" });
  });
});

describe("A56: eval-like builtins and re-entering a shell", () => {
  it.each([
    [`eval 'rm ${A}/victim'`, "shell builtin `eval`"],
    [`. ${A}/s.sh`, "shell builtin `.`"],
    [`source ${A}/s.sh`, "shell builtin `source`"],
    [`exec rm ${A}/victim`, "shell builtin `exec`"],
    [`command rm ${A}/victim`, "shell builtin `command`"],
    ["builtin eval x", "shell builtin `builtin`"],
    [`trap 'rm ${A}/victim' EXIT`, "shell builtin `trap`"],
    [`alias ls=rm; ls ${A}/victim`, "shell builtin `alias`"],
  ])("%j is refused", (source, target) => {
    expect(refuse(source).target).toBe(target);
  });
  it("bash -c … and busybox sh -c … parse as programs bash and busybox (exec admission)", () => {
    expect(argvs(`bash -c 'rm ${A}/victim'`)).toEqual([["bash", "-c", `rm ${A}/victim`]]);
    expect(argvs("busybox sh -c x")).toEqual([["busybox", "sh", "-c", "x"]]);
  });
});

describe("A58: command resolution inputs", () => {
  it("./cat, cat and /bin/cat are programs; PATH=… cmd is refused", () => {
    expect(argvs("./cat ok.txt")[0]?.[0]).toBe("./cat");
    expect(argvs("/bin/cat ok.txt")[0]?.[0]).toBe("/bin/cat");
    expect(refuse(`PATH=${A}:$PATH cat ok.txt`).target).toBe(LABELS.assignment);
  });
  it("git -c alias.x=!touch\\ $P x keeps the escaped space in one argument", () => {
    expect(argvs(`/usr/bin/git -c alias.x=!touch\\ ${P} x`)).toEqual([
      ["/usr/bin/git", "-c", `alias.x=!touch ${P}`, "x"],
    ]);
  });
});

describe("A60: globs are flagged for admission", () => {
  it("tar cf $A/o.tar *, rg CANARY * and ls * carry an unquoted glob word", () => {
    for (const source of [`tar cf ${A}/o.tar *`, "rg CANARY *", "ls *"]) {
      const words = commands(accept(source))[0]?.words ?? [];
      expect(words.at(-1)?.parts).toEqual([
        { type: "glob", value: "*", start: source.length - 1, end: source.length },
      ]);
    }
  });
});

describe("A62: tilde", () => {
  it("cat ~/.ssh/id_rsa expands ~ (a tilde part)", () => {
    expect(argvs("cat ~/.ssh/id_rsa")).toEqual([["cat", "⟨~⟩/.ssh/id_rsa"]]);
  });
  it.each(["cat ~root/x", "echo ~+", "cd ~-"])("%j is refused", (source) => {
    const refusal = refuse(source);
    expect(refusal.code).toBe("SHELL_UNSUPPORTED_CONSTRUCT");
  });
});

describe("A64: option values stay visible as arguments", () => {
  it("grep -f $O/secret.txt ok.txt and sort -o$O/x ok.txt", () => {
    expect(argvs(`grep -f ${O}/secret.txt ok.txt`)).toEqual([
      ["grep", "-f", `${O}/secret.txt`, "ok.txt"],
    ]);
    expect(argvs(`sort -o${O}/x ok.txt`)).toEqual([["sort", `-o${O}/x`, "ok.txt"]]);
  });
});

describe("A66: caps fail closed in bounded time", () => {
  it("60 chained echos then rm: every command is parsed (admission refuses rm)", () => {
    const source = `${"echo x && ".repeat(60)}rm ${A}/victim`;
    const all = argvs(source);
    expect(all).toHaveLength(61);
    expect(all[60]).toEqual(["rm", `${A}/victim`]);
  });
  it("more commands than the cap is a limit refusal, never a partial parse", () => {
    const refusal = refuse(`${"echo x && ".repeat(300)}rm ${A}/victim`);
    expect(refusal).toMatchObject({ code: "SHELL_LIMIT_EXCEEDED", target: "command count" });
  });
  it("a 1 MiB command is refused by length before any scanning", () => {
    const source = `echo ${"a".repeat(1 << 20)}`;
    const started = performance.now();
    expect(refuse(source)).toMatchObject({ code: "SHELL_LIMIT_EXCEEDED", target: "source length" });
    expect(performance.now() - started).toBeLessThan(100);
  });
  it("10,000 nested ( is refused at the first one", () => {
    const source = `${"(".repeat(10_000)}rm${")".repeat(10_000)}`;
    expect(refuse(source)).toMatchObject({ code: "SHELL_DYNAMIC_CONSTRUCT", offset: 0, end: 1 });
  });
  it("word and length caps are configurable", () => {
    const words = parseScript("echo a b c", { limits: { maxWords: 3 } });
    expect(words.ok ? null : words.refusal).toMatchObject({
      code: "SHELL_LIMIT_EXCEEDED",
      target: "word count",
      offset: 9,
    });
    expect(parseScript("echo", { limits: { maxSourceLength: 3 } }).ok).toBe(false);
  });
  it("a near-cap script of hard characters parses in bounded time", () => {
    const source = `echo ${"'a'\"b\"\\c$HOME".repeat(3000)}`.slice(0, 60_000);
    const started = performance.now();
    parseScript(source);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("A68: /dev/tcp is an ordinary path to the parser", () => {
  it.each([
    "echo hi > /dev/tcp/127.0.0.1/9",
    "cat < /dev/tcp/127.0.0.1/9",
    `echo x >/dev/tcp/../../${O}/y`,
  ])("%j", (source) => {
    const redirection = commands(accept(source))[0]?.redirections[0];
    expect(redirection?.kind).toBe("file");
  });
});
