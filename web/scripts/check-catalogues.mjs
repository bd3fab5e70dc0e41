// Every language's catalogue against en.ts (web/src/i18n): a key en has and a language lacks,
// a key en does not have, a message that is not valid ICU in its language, or a message whose
// arguments ({name}, {count, plural, ...}) differ from English's -- each is a problem, and any
// problem exits 1. The catalogues are read as the build reads them: TypeScript transpiled by
// the project's own compiler, each message parsed by the app's own intl-messageformat.
//
// Usage: node scripts/check-catalogues.mjs [catalogue dir]   (default: src/i18n)
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { IntlMessageFormat } from "intl-messageformat";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const NOT_CATALOGUES = new Set(["index.ts"]);

async function load(path) {
  const source = readFileSync(path, "utf8");
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const module = await import("data:text/javascript;base64," + Buffer.from(outputText).toString("base64"));
  return module.default;
}

// Element types of @formatjs/icu-messageformat-parser's AST that name an argument (0 is
// literal text, 7 the "#" of a plural, 8 a <tag>).
const KIND = { 1: "", 2: "number", 3: "date", 4: "time", 5: "select", 6: "plural" };

/** "name:kind" for every argument of a message, nested ones (inside plural options) too. */
function argumentsOf(ast, found = new Set()) {
  for (const element of ast) {
    if (element.type === 0 || element.type === 7) continue; // literal text, "#"
    if (element.type === 8) {
      argumentsOf(element.children, found); // <tag>...</tag>
      continue;
    }
    found.add(`${element.value}${KIND[element.type] ? ":" + KIND[element.type] : ""}`);
    for (const option of Object.values(element.options ?? {})) argumentsOf(option.value, found);
  }
  return found;
}

export async function problems(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts") && !NOT_CATALOGUES.has(f));
  if (!files.includes("en.ts")) return [`${dir}: no en.ts`];
  const en = await load(join(dir, "en.ts"));
  const wanted = Object.fromEntries(Object.entries(en).map(([key, message]) =>
    [key, [...argumentsOf(new IntlMessageFormat(message, "en").getAst())].sort().join(", ")]));
  const found = [];
  for (const file of files.filter((f) => f !== "en.ts").sort()) {
    const locale = file.slice(0, -3);
    const catalogue = await load(join(dir, file));
    for (const key of Object.keys(en)) if (!(key in catalogue)) found.push(`${locale}: lacks ${key}`);
    for (const [key, message] of Object.entries(catalogue)) {
      if (!(key in en)) {
        found.push(`${locale}: ${key} is not a key of en.ts`);
        continue;
      }
      let args;
      try {
        args = [...argumentsOf(new IntlMessageFormat(message, locale).getAst())].sort().join(", ");
      } catch (error) {
        found.push(`${locale}: ${key} is not a valid ICU message (${error.message})`);
        continue;
      }
      if (args !== wanted[key]) found.push(`${locale}: ${key} has {${args}}, en has {${wanted[key]}}`);
    }
  }
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? join(HERE, "..", "src", "i18n"));
  const found = await problems(dir);
  for (const problem of found) console.error(problem);
  if (found.length) process.exit(1);
  const languages = readdirSync(dir).filter((f) => f.endsWith(".ts") && !NOT_CATALOGUES.has(f)).length;
  console.log(`catalogues complete: every key and argument of en.ts in all ${languages} languages`);
}
