// Measures the "Done when" figures of issue 24 (one spine for scores, smaller services, shared web data):
// `node scripts/measure.mjs [--list]`. Prints host source files over 500 lines, functions over 80 lines, score-rule
// definitions, objective-kind lists, web data hooks defined in more than one file, `JSON.parse(...) as` casts and
// inline Chinese strings in the host outside apps/server/src/i18n and snake_case row fields read outside the host's
// repositories. `--list` names every offender, not only the count.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const list = process.argv.includes('--list');

/** Source files (.ts/.tsx, tests excluded) under a folder of the repository. */
function sources(dir) {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sources(rel);
    return /\.tsx?$/.test(e.name) && !/\.(test|spec|d)\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

const HOST = sources('apps/server/src');
const WEB = sources('apps/web/src');
const ALL = [
  ...HOST,
  ...WEB,
  ...[
    'apps/scan-agent/src',
    'packages/contracts/src',
    'packages/api-client/src',
    'packages/answer-card/src',
  ].flatMap(sources),
];
const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const parse = (file) =>
  ts.createSourceFile(
    file,
    read(file),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
const lineOf = (sf, pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;

function walk(node, visit) {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/** The name a function is known by: its own, its variable's, its property's or its method's. */
function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText();
  return '(anonymous)';
}

const report = [];
function figure(label, items, count = items.length) {
  report.push([label, count]);
  console.log(`${label}: ${count}`);
  if (list) for (const item of items) console.log(`  ${item}`);
}

// Host source files over 500 lines (the largest first).
const hostSizes = HOST.map((f) => [f, read(f).split('\n').length]).sort((a, b) => b[1] - a[1]);
figure(
  'host source files > 500 lines (seed data and db/schema.ts aside)',
  hostSizes
    .filter(([f]) => !/^apps\/server\/src\/(seed\/data\/|db\/schema\.ts)/.test(f))
    .filter(([, n]) => n > 500)
    .map(([f, n]) => `${n} ${f}`),
);
figure(
  'host source files > 500 lines',
  hostSizes.filter(([, n]) => n > 500).map(([f, n]) => `${n} ${f}`),
);
console.log(
  `  largest: ${hostSizes
    .slice(0, 3)
    .map(([f, n]) => `${n} ${f}`)
    .join(', ')}`,
);

// Functions over 80 lines, everywhere but tests.
const longFunctions = [];
const jsonCasts = [];
const objectiveLists = [];
const scoreRules = [];
const hooks = new Map();
const hostChinese = [];
const KINDS = new Set(['single', 'multiple', 'truefalse']);
// A score rule computes the points of an answer from its key: the contracts' scoreObjective is the one definition.
const SCORE_RULE =
  /^(score(Objective|Answer|Choice|Multiple|Single|Item|Question)|objectiveScore|pointsFor|autoScore|judge(Answer|Choice)?)$/i;
const cacheKeys = new Map();
// Row fields leaking out of repositories: property reads of snake_case names in apps/server/src/modules/** outside a
// repository file (`repository.ts` or a `repository/` folder), writes (`row.x = …`) aside. Names that are snake_case
// outside the database, by the OAuth 2 token grammar (RFC 6749) the host's /auth/token speaks, are not row fields:
const NOT_ROW_FIELDS = new Set(['access_token', 'refresh_token', 'grant_type', 'token_type', 'expires_in']);
const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;
const rowFieldReads = new Map();

for (const file of ALL) {
  const sf = parse(file);
  const isHost = file.startsWith('apps/server/src/');
  const isWeb = file.startsWith('apps/web/src/');
  walk(sf, (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const lines = lineOf(sf, node.end) - lineOf(sf, node.getStart(sf)) + 1;
      if (lines > 80) longFunctions.push(`${lines} ${file}:${lineOf(sf, node.getStart(sf))} ${nameOf(node)}`);
      const name = nameOf(node);
      if (SCORE_RULE.test(name) && !ts.isCallExpression(node.parent))
        scoreRules.push(`${file}:${lineOf(sf, node.getStart(sf))} ${name}`);
      if (isWeb && /^use[A-Z]\w*$/.test(name) && isExported(node)) {
        hooks.set(name, [...(hooks.get(name) ?? []), file]);
      }
    }
    // A cache key typed in a feature: an array literal opening with a call path ('teacher/…', 'system/…').
    const feature = /^apps\/web\/src\/features\/([\w-]+)\//.exec(file)?.[1];
    if (
      feature &&
      ts.isArrayLiteralExpression(node) &&
      node.elements[0] &&
      ts.isStringLiteral(node.elements[0])
    ) {
      const key = node.elements[0].text;
      if (/^[a-z-]+\/[\w/-]+$/.test(key))
        cacheKeys.set(key, new Set([...(cacheKeys.get(key) ?? []), feature]));
    }
    if (
      /^apps\/server\/src\/modules\//.test(file) &&
      !/\/repository(\.ts$|\/)/.test(file) &&
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.name) &&
      SNAKE.test(node.name.text) &&
      !NOT_ROW_FIELDS.has(node.name.text) &&
      !(
        ts.isBinaryExpression(node.parent) &&
        node.parent.left === node &&
        node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken
      )
    )
      rowFieldReads.set(file, (rowFieldReads.get(file) ?? 0) + 1);
    // JSON.parse(...) as T
    if (ts.isAsExpression(node) && isJsonParse(node.expression))
      jsonCasts.push(`${file}:${lineOf(sf, node.getStart(sf))}`);
    // A list of the objective kinds: an array literal or z.enum holding all three.
    if (ts.isArrayLiteralExpression(node)) {
      const texts = new Set(node.elements.filter(ts.isStringLiteral).map((e) => e.text));
      if ([...KINDS].every((k) => texts.has(k)))
        objectiveLists.push(`${file}:${lineOf(sf, node.getStart(sf))}`);
    }
    if (ts.isUnionTypeNode(node)) {
      const texts = new Set(
        node.types
          .filter((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal))
          .map((t) => t.literal.text),
      );
      if ([...KINDS].every((k) => texts.has(k)))
        objectiveLists.push(`${file}:${lineOf(sf, node.getStart(sf))} (type)`);
    }
    // Inline Chinese in the host, outside its catalogue, seed content and frozen migrations.
    if (
      isHost &&
      !/^apps\/server\/src\/(i18n|seed|db\/migrations)\//.test(file) &&
      !/\/seed\.ts$/.test(file)
    ) {
      if (
        (ts.isStringLiteral(node) ||
          ts.isNoSubstitutionTemplateLiteral(node) ||
          ts.isTemplateHead(node) ||
          ts.isTemplateMiddle(node) ||
          ts.isTemplateTail(node)) &&
        /[\u4e00-\u9fff]/.test(node.text)
      )
        hostChinese.push(`${file}:${lineOf(sf, node.getStart(sf))}`);
    }
  });
}

function isJsonParse(expr) {
  while (ts.isParenthesizedExpression(expr)) expr = expr.expression;
  return ts.isCallExpression(expr) && expr.expression.getText() === 'JSON.parse';
}

function isExported(node) {
  let decl = node;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) decl = node.parent?.parent?.parent; // const x = () => …
  return (
    !!decl &&
    ts.canHaveModifiers(decl) &&
    (ts.getModifiers(decl) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

figure(
  'host functions > 80 lines (migrations aside)',
  longFunctions.filter((f) => /^\d+ apps\/server\/src\//.test(f) && !f.includes('/db/migrations/')),
);
figure(
  'functions > 80 lines',
  longFunctions.sort((a, b) => parseInt(b) - parseInt(a)),
);
figure('score-rule definitions', scoreRules);
figure('objective-kind lists', objectiveLists);
const duplicated = [...hooks].filter(([, files]) => files.length > 1);
figure(
  'duplicated web data hooks',
  duplicated.map(([name, files]) => `${name}: ${files.join(', ')}`),
);
figure(
  'cache keys typed in more than one feature',
  [...cacheKeys].filter(([, f]) => f.size > 1).map(([k, f]) => `${k}: ${[...f].join(', ')}`),
);
figure(
  'JSON.parse(...) as (host)',
  jsonCasts.filter((j) => j.startsWith('apps/server/')),
);
figure('JSON.parse(...) as (everywhere)', jsonCasts);
const chineseFiles = new Set(hostChinese.map((h) => h.split(':')[0]));
figure(`inline host Chinese strings outside apps/server/src/i18n (${chineseFiles.size} files)`, hostChinese);
figure(
  'snake_case row fields read outside repositories (host)',
  [...rowFieldReads].sort((a, b) => b[1] - a[1]).map(([file, n]) => `${n} ${file}`),
  [...rowFieldReads.values()].reduce((a, b) => a + b, 0),
);
