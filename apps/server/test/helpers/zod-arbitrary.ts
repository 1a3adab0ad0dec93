import fc from 'fast-check';
import type { z } from 'zod';

// fast-check arbitraries drawn from the contracts' zod schemas (zod 4's public `_zod.def`): the input side of every
// schema, so coercions, defaults and transforms see what a browser would send. Refinements are not solved: a value
// that breaks one is simply a refused payload, which the fuzz tests want too.

/** Where ids come from: a string field named like an id draws real ids of the database most of the time. */
export interface ArbitraryOptions {
  ids: readonly string[];
}

interface Def {
  type: string;
  [key: string]: unknown;
}
interface CheckDef {
  check: string;
  [key: string]: unknown;
}
type Schema = z.ZodType & { _zod: { def: Def } };

const defOf = (schema: unknown) => (schema as Schema)._zod.def;
const checksOf = (def: Def) =>
  ((def.checks as { _zod: { def: CheckDef } }[] | undefined) ?? []).map((c) => c._zod.def);

const isIdKey = (key: string | undefined) => !!key && /(^id$|Id$|Ids$|^ids$|^token$)/.test(key);

/** Strings that have broken parsers, queries and file paths elsewhere. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  'null',
  'undefined',
  'NaN',
  'true',
  '[]',
  '{}',
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '\uFFFF',
  '\uD800',
  '<script>alert(1)</script>',
  '${7*7}',
  '__proto__',
  'constructor',
  '𠜎𠜱𠝹😀',
  '1e309',
  '9007199254740993',
  '2026-02-30T25:61:61Z',
  'x'.repeat(5000),
] as const;

function stringArbitrary(def: Def, key: string | undefined, options: ArbitraryOptions): fc.Arbitrary<string> {
  const format = def.format as string | undefined;
  let minLength = 0;
  let maxLength = 40;
  let pattern: RegExp | undefined;
  for (const check of checksOf(def)) {
    if (check.check === 'min_length') minLength = Math.max(minLength, check.minimum as number);
    if (check.check === 'max_length') maxLength = Math.min(maxLength, check.maximum as number);
    if (check.check === 'length_equals') minLength = maxLength = check.length as number;
    if (check.check === 'string_format' && check.format === 'regex') pattern = check.pattern as RegExp;
  }
  if (maxLength < minLength) maxLength = minLength;
  let base: fc.Arbitrary<string>;
  if (format === 'datetime') base = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  else if (format === 'date')
    base = fc
      .date({ min: new Date('2000-01-01'), max: new Date('2040-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  else if (format === 'email') base = fc.emailAddress();
  else if (format === 'uuid' || format === 'guid') base = fc.uuid();
  else if (format === 'url') base = fc.webUrl();
  else if (pattern) base = fc.stringMatching(pattern);
  else
    base = fc.oneof(
      fc.string({ minLength, maxLength }),
      fc.string({ unit: 'grapheme', minLength, maxLength }),
      fc.constantFrom('语文', '数学', '七年级1班', '王老师', '一、选择题'),
    );
  if (isIdKey(key) && options.ids.length > 0) {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...options.ids) },
      { weight: 1, arbitrary: base },
    );
  }
  return base;
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  let min = -1_000_000;
  let max = 1_000_000;
  let integer = false;
  for (const check of checksOf(def)) {
    if (check.check === 'number_format') integer = true;
    if (check.check === 'greater_than')
      min = Math.max(min, (check.value as number) + (check.inclusive ? 0 : integer ? 1 : 1e-6));
    if (check.check === 'less_than')
      max = Math.min(max, (check.value as number) - (check.inclusive ? 0 : integer ? 1 : 1e-6));
  }
  if (max < min) max = min;
  // Small values reach real rows (pages, counts, scores) far more often than the whole range.
  const smallMax = Math.min(max, Math.max(min, 0) + 10);
  if (integer) {
    const lo = Math.ceil(min);
    const hi = Math.floor(max);
    return fc.oneof(
      fc.integer({ min: lo, max: Math.max(lo, Math.min(hi, Math.ceil(smallMax))) }),
      fc.integer({ min: lo, max: Math.max(lo, hi) }),
    );
  }
  return fc.oneof(
    fc.double({ min, max: smallMax, noNaN: true, noDefaultInfinity: true }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
  );
}

/** An arbitrary of inputs that the schema was written to accept (most of the time: refinements aside). */
export function arbitraryOf(
  schema: unknown,
  options: ArbitraryOptions,
  key?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const recur = (s: unknown, k = key) => arbitraryOf(s, options, k, depth + 1);
  switch (def.type) {
    case 'string':
      return stringArbitrary(def, key, options);
    case 'number':
      return numberArbitrary(def);
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'any':
    case 'unknown':
      return fc.jsonValue({ maxDepth: 2 });
    case 'custom':
      // Files (Blob | Uint8Array) are sent as multipart parts by the caller; elsewhere anything goes.
      return fc.constant(undefined);
    case 'optional':
      return fc.option(recur(def.innerType), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(recur(def.innerType), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return fc.option(recur(def.innerType), { nil: undefined, freq: 3 });
    case 'pipe': {
      const inDef = defOf(def.in);
      // z.preprocess(fn, schema) is a pipe from a transform: draw what the target accepts.
      return inDef.type === 'transform' ? recur(def.out) : recur(def.in);
    }
    case 'transform':
      return fc.jsonValue({ maxDepth: 1 });
    case 'lazy':
      return depth > 4 ? fc.constant(undefined) : recur((def.getter as () => unknown)());
    case 'array': {
      let minLength = 0;
      let maxLength = 4;
      for (const check of checksOf(def)) {
        if (check.check === 'min_length') minLength = check.minimum as number;
        if (check.check === 'max_length') maxLength = Math.min(maxLength, check.maximum as number);
      }
      if (depth > 5) return fc.constant([]);
      return fc.array(recur(def.element, key), { minLength, maxLength: Math.max(minLength, maxLength) });
    }
    case 'tuple':
      return fc.tuple(...(def.items as unknown[]).map((s) => recur(s)));
    case 'record':
      return fc.dictionary(
        fc.oneof(fc.constantFrom(...(options.ids.length ? options.ids.slice(0, 20) : ['k'])), fc.string()),
        recur(def.valueType),
        { maxKeys: 3 },
      );
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map((s) => recur(s)));
    case 'intersection':
      return fc
        .tuple(recur(def.left), recur(def.right))
        .map(([a, b]) => (isObject(a) && isObject(b) ? { ...a, ...b } : a));
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const entries = Object.entries(shape);
      if (depth > 6) return fc.constant({});
      return fc
        .record(
          Object.fromEntries(entries.map(([k, s]) => [k, recur(s, k)])) as Record<
            string,
            fc.Arbitrary<unknown>
          >,
        )
        .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value of the wrong kind for anything: what a broken or hostile client sends. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...NASTY_STRINGS, null, true, false, 0, -1, 1.5, 1e308, -0, [], {}, [null], {
    $gt: '',
  }),
  fc.integer(),
  fc.string({ maxLength: 30 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/**
 * Mutates a valid input into a likely invalid one: a field dropped, a field of the wrong kind (at any depth), an
 * unknown field, or the whole value replaced.
 */
export function mutate(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    wrongValue,
    fc.tuple(valid, fc.nat(), wrongValue, fc.nat(3)).map(([value, pick, wrong, how]) => {
      if (!isObject(value)) return wrong;
      const clone = structuredClone<Record<string, unknown>>(value);
      // Walk down to a random nested object, then break one of its fields.
      let target: Record<string, unknown> = clone;
      let seed = pick;
      for (let i = 0; i < 3; i++) {
        const nested = Object.values(target).filter(isObject);
        if (nested.length === 0 || seed % 3 !== 0) break;
        target = nested[seed % nested.length]!;
        seed = Math.floor(seed / 3);
      }
      const keys = Object.keys(target);
      const key = keys.length > 0 ? keys[seed % keys.length]! : 'unexpected';
      if (how === 0) delete target[key];
      else if (how === 3) target[`extra${seed % 7}`] = wrong;
      else target[key] = wrong;
      return clone;
    }),
  );
}
