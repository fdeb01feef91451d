// Measures Dolos (its library, @dodona/dolos-lib, with tree-sitter's C++ grammar) on a class made
// by scripts/make-similarity-class.sh, as docs/similarity.md compares it with sim_c++: each
// student's .cu files as one text, the template as Dolos's ignored (base) file; prints the lowest
// share of a planted pair and the highest of an honest pair (pairs of one origin left out).
// Needs Node.js and `npm install @dodona/dolos-lib@3.5.1` in the folder it runs from.
//
//   node scripts/similarity-dolos.mjs CLASS MANIFEST TEMPLATE_DIR [KGRAM_LENGTH]
import { Dolos } from "@dodona/dolos-lib";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [cls, manifest, templateDir, kgram] = process.argv.slice(2);
if (!templateDir) {
  console.error("usage: node scripts/similarity-dolos.mjs CLASS MANIFEST TEMPLATE_DIR [KGRAM_LENGTH]");
  process.exit(1);
}
const rows = fs.readFileSync(manifest, "utf8").trim().split("\n").map((line) => line.split(","));
const copiedFrom = Object.fromEntries(rows.map((r) => [r[0], r[1]]));
const origin = Object.fromEntries(rows.map((r) => [r[0], r[2]]));
// A student's .cu files in name order, each ending with a line break (as cugrade reads them).
const text = (folder) =>
  fs.readdirSync(folder).filter((f) => f.endsWith(".cu")).sort()
    .map((f) => { const t = fs.readFileSync(path.join(folder, f), "utf8"); return t.endsWith("\n") ? t : t + "\n"; })
    .join("");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "dolos-"));
const students = fs.readdirSync(cls).sort();
const files = students.map((s) => { const p = path.join(work, s + ".cu"); fs.writeFileSync(p, text(path.join(cls, s))); return p; });
const base = path.join(work, "template.base.cu");
fs.writeFileSync(base, text(templateDir));
const started = Date.now();
const options = { language: "cpp", ...(kgram ? { kgramLength: Number(kgram) } : {}) };
const report = await new Dolos(options).analyzePaths(files, base);
const seconds = (Date.now() - started) / 1000;
const similarity = {};
for (const pair of report.allPairs())
  similarity[[path.basename(pair.leftFile.path, ".cu"), path.basename(pair.rightFile.path, ".cu")].sort().join("|")] = pair.similarity;
let lowest = [2, ""], highest = [-1, ""];
for (let i = 0; i < students.length; i++)
  for (let j = i + 1; j < students.length; j++) {
    const a = students[i], b = students[j], key = [a, b].sort().join("|"), s = similarity[key] ?? 0;
    if (copiedFrom[a] === copiedFrom[b]) { if (s < lowest[0]) lowest = [s, key]; }
    else if (origin[a] !== origin[b] && s > highest[0]) highest = [s, key];
  }
const pct = (x) => Math.round(100 * x);
console.log(`dolos k=${kgram ?? 23}: lowest planted ${pct(lowest[0])} % (${lowest[1]}), highest honest ${pct(highest[0])} % ` +
            `(${highest[1]}), margin ${pct(lowest[0]) - pct(highest[0])} points, ${seconds.toFixed(1)} s`);
fs.rmSync(work, { recursive: true });
